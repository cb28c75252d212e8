/**
 * A job's `publishArtifact` (job.ts) in the runtime host, made safe to repeat across runs of one
 * WorkItem. A run can publish its result and then end before `work.submit` (the process killed,
 * the lease lost, the handler failing after it): the next run, resumed from its last safe
 * checkpoint, builds the same bytes and publishes them again. The Authority publishes a content
 * hash once per Group (§13.1) and refuses the second `artifact.publish`
 * (`INVALID_STATE_TRANSITION`, artifact-already-published); a handler that treats that as a
 * failure can never submit, and each new run fails the same way (the PoC's shared Worker started
 * one WorkItem 2,289 times so).
 *
 * So a refused publication is looked up among the Group's published Artifacts: when that content
 * hash was published for THIS WorkItem with THIS Agent as producer, it is the same result and is
 * adopted (`work.submit` accepts every Artifact its WorkItem published, under any lease, §7.3).
 * Any other refusal — the hash another WorkItem's or another Agent's — is the handler's, as before.
 * `missionweave mcp`'s `work_submit` publishes its inline Artifacts through this too
 * (src/client/mcp/inlineArtifacts.ts): a model resumed after a restart gives the same text again.
 */

import { hashArtifactSource } from '../artifacts.js';
import { isAgentError } from '../errors.js';

/** A published Artifact of the Group, as far as adopting it needs. */
export interface PublishedOfGroup {
  readonly workItemId: string;
  readonly producerAgentId: string;
}

export interface PublishOnceSteps {
  /** This run's WorkItem and Agent. */
  readonly workItemId: string;
  readonly agentId: string;
  /** Uploads and publishes under this run's lease (WorkExecution.publishArtifact). */
  readonly publish: (bytes: Uint8Array) => Promise<{ readonly contentHash: string }>;
  /** The Group's published Artifact with this content hash, or undefined. */
  readonly lookup: (contentHash: string) => Promise<PublishedOfGroup | undefined>;
}

export interface PublishedOnce {
  readonly contentHash: string;
  /** True when an earlier run of this WorkItem had published it: nothing was published now. */
  readonly adopted: boolean;
}

/** The refusal a second publication of one content hash gets. */
function alreadyPublished(error: unknown): boolean {
  return isAgentError(error) && error.code === 'INVALID_STATE_TRANSITION';
}

/** Publishes `bytes`, or adopts them when this WorkItem already published them (see above). */
export async function publishOnce(steps: PublishOnceSteps, bytes: Uint8Array): Promise<PublishedOnce> {
  try {
    const { contentHash } = await steps.publish(bytes);
    return { contentHash, adopted: false };
  } catch (error) {
    if (!alreadyPublished(error)) throw error;
    const { contentHash } = await hashArtifactSource({ bytes });
    const published = await steps.lookup(contentHash).catch(() => undefined);
    if (published?.workItemId !== steps.workItemId || published.producerAgentId !== steps.agentId) throw error;
    return { contentHash, adopted: true };
  }
}
