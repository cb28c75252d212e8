/**
 * A `work_submit` while the Authority cannot be reached (§11.5, §13.1): a submission cites only
 * published Artifacts, and publishing needs the Authority — the content uploaded to its store,
 * then the signed manifest published under the Execution Lease — so the content and its manifest,
 * signed now, are kept in the projection (ProjectionArtifacts, bounded by maxKeptArtifactBytes:
 * past it the call is refused and nothing kept), and then the `work.submit` is signed and kept in
 * the outbox, which answers COMMAND_QUEUED (outboxCommands.ts). Both survive a restart.
 *
 * On reconnect the outbox sends the kept `work.submit` with its bytes; the new Session fences it
 * (AUTH_STALE_SESSION) and the rebase takes a new Execution Lease (outboxRebase.ts). Then, before
 * the Command is re-signed to cite that lease (`publishKept`, its `beforeResign`), each kept
 * Artifact is uploaded and its kept manifest published under the new lease, in order — one this
 * WorkItem's earlier run published already is adopted (hostArtifacts.ts) — and the rebased
 * `work.submit` is sent: the order §13.1 and §7.3 ask for, upload, publish, submit. What a
 * WorkItem kept goes once its `work.submit` is answered (`keptAnswered`).
 */

import type { MissionWeaveAgent } from '../agent.js';
import { hashArtifactSource, uploadArtifact } from '../artifacts.js';
import { isAgentError } from '../errors.js';
import type { WorkExecution } from '../workExecution.js';
import { publishOnce } from '../runtime/hostArtifacts.js';
import { authorityArtifact } from '../runtime/hostReads.js';
import type { RebaseContext } from '../runtime/outboxRebase.js';
import type { OutboxCommand } from '../runtime/projectionOutbox.js';
import type { LocalProjection } from '../runtime/projection.js';
import type { ResolvedArtifact, SubmittedArtifact } from './inlineArtifacts.js';
import { ToolRefusal } from './toolSpec.js';

/** Keeps the resolved Artifacts of `execution` not yet published, with their signed manifests; what each is. */
export async function keepInlineArtifacts(projection: LocalProjection, origin: URL, execution: WorkExecution, artifacts: readonly ResolvedArtifact[]): Promise<SubmittedArtifact[]> {
  const submitted: SubmittedArtifact[] = [];
  const kept: { contentHash: string; content: Buffer; manifest: string }[] = [];
  for (const { bytes, details } of artifacts) {
    const { contentHash, sizeBytes } = await hashArtifactSource({ bytes });
    if (execution.publishedArtifactHashes.includes(contentHash) || kept.some((k) => k.contentHash === contentHash)) {
      submitted.push({ contentHash, sizeBytes, mediaType: details.mediaType, published: false });
      continue;
    }
    const manifest = await execution.signArtifactManifest(origin, { contentHash, sizeBytes }, details);
    kept.push({ contentHash, content: bytes, manifest: JSON.stringify(manifest) });
    submitted.push({ contentHash, sizeBytes, mediaType: details.mediaType, published: false, kept: true });
  }
  try {
    projection.artifacts.keep(execution.groupId, execution.workItemId, kept);
  } catch (error) {
    if (!isAgentError(error) || error.code !== 'PROJECTION_FAILED') throw error;
    throw new ToolRefusal('INVALID_ARGUMENT', 'kept_artifacts_full', `the Authority cannot be reached and these Artifacts cannot be kept until it is: ${error.message}; nothing was kept, submit again once it is back`);
  }
  return submitted;
}

/** The rebase's `beforeResign`: a kept `work.submit`'s Artifacts uploaded and published under the new lease, then dropped. */
export function publishKept(agent: MissionWeaveAgent, projection: () => LocalProjection): NonNullable<RebaseContext['beforeResign']> {
  return async (command, lease) => {
    if (command.kind !== 'work.submit') return;
    const kept = projection().artifacts.of(lease.workItemId);
    const store = agent.artifactEndpoint();
    const options = { groupId: lease.groupId, workItemId: lease.workItemId, membershipEpoch: lease.membershipEpoch };
    for (const artifact of kept) {
      const publish = async (content: Uint8Array) => {
        await uploadArtifact(store, { bytes: content });
        const payload = { artifact: JSON.parse(artifact.manifest) as Record<string, unknown>, ownershipEpoch: lease.ownershipEpoch, executionLeaseId: lease.executionLeaseId };
        await agent.command('artifact.publish', payload, options);
        return { contentHash: artifact.contentHash };
      };
      await publishOnce({ workItemId: lease.workItemId, agentId: agent.agentId, publish, lookup: (contentHash) => authorityArtifact(agent, lease.groupId, contentHash) }, artifact.content);
    }
    if (kept.length > 0) projection().artifacts.drop(lease.workItemId);
  };
}

/** A kept `work.submit` answered (accepted or refused for good): what its WorkItem kept goes. */
export function keptAnswered(projection: LocalProjection, command: OutboxCommand): void {
  if (command.kind !== 'work.submit' || (command.state !== 'acked' && command.state !== 'refused')) return;
  const workItemId = (JSON.parse(command.bytes.toString('utf8')) as { payload?: { workItemId?: unknown } }).payload?.workItemId;
  if (typeof workItemId === 'string') projection.artifacts.drop(workItemId);
}
