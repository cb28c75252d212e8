/**
 * The job contract of the runtime host (hostRuntime.ts): what a handler module receives for one
 * WorkItem. A handler is `export default async function (job) { … }`; the names below are fixed
 * (other code writes handlers against them).
 *
 * - `contract`, `context`, `token` and `resumeFrom` are this WorkItem's and this Group's only
 *   (§13.3, §12): the job is built from its own Group ID, and `token` refuses any other Group
 *   before it asks the Authorization Service anything.
 * - `checkpoint(data)` keeps `data` durable in the projection (a safe one by default) and answers
 *   `'yield'` when the runtime wants the slot back (preemption at a safe checkpoint, §11.3) or is
 *   shutting down: the handler then returns, and the work resumes later from that `data`.
 * - `signal` aborts when the Execution Lease is lost, when the job ran past its bound, or when a
 *   shutdown was not honoured at a checkpoint.
 * - `submit`, `fail`: the end of the work; `publishArtifact` publishes a result under the lease.
 */

import type { CapabilityToken } from '../capabilities.js';
import { AgentClientError } from '../errors.js';
import type { VerifiedContextPackage } from '../contextPackages.js';
import type { EvidenceDraft, WorkItemDocument } from '../workDocuments.js';

/** Checkpoint data: any JSON value, kept as its JSON text. */
export type CheckpointData = unknown;

export interface JobContext {
  /** The verified Context Packages issued to this Agent in THIS Group (no other Group's). */
  readonly packages: readonly VerifiedContextPackage[];
}

export interface SubmitResult {
  /** Evidence drafts, signed by the host; default: one per acceptance criterion, of the first kind it requires. */
  readonly evidence?: readonly EvidenceDraft[];
  /** Published Artifacts to submit; default: every one this job published. */
  readonly artifactHashes?: readonly string[];
  /** Recorded in the default Evidence's `details`. */
  readonly summary?: string;
}

export interface PublishOptions {
  readonly mediaType: string;
  /** A name for the handler's own bookkeeping; returned as given. */
  readonly name?: string;
  /** Default `urn:missionweave:schema:opaque`. */
  readonly schemaUri?: string;
}

export interface CapabilityAsk {
  /** Must be this job's Group when given; any other is refused. */
  readonly groupId?: string;
  readonly tools?: readonly string[];
  readonly expiresInSeconds?: number;
}

export interface Job {
  readonly groupId: string;
  readonly workItemId: string;
  /** The WorkItem's Work Contract as the Authority has it (title, goal, acceptance criteria, …). */
  readonly contract: WorkItemDocument['contract'];
  readonly context: JobContext;
  /** The data of the last safe checkpoint, or undefined on a first run. */
  readonly resumeFrom: CheckpointData | undefined;
  readonly signal: AbortSignal;
  /** A capability token of THIS Group's WorkItem under its current lease; a tool name narrows it. */
  token(capability?: string | CapabilityAsk): Promise<CapabilityToken>;
  checkpoint(data: CheckpointData, options?: { readonly safe?: boolean }): Promise<'continue' | 'yield'>;
  publishArtifact(content: string | Uint8Array, options: PublishOptions): Promise<{ readonly contentHash: string; readonly name?: string }>;
  submit(result?: SubmitResult): Promise<void>;
  fail(reason: string): Promise<void>;
}

export type JobHandler = (job: Job) => Promise<unknown> | unknown;

/** What the job's actions do, supplied by the host for one run. */
export interface JobActions {
  readonly token: (ask: CapabilityAsk) => Promise<CapabilityToken>;
  readonly checkpoint: (text: string, safe: boolean) => Promise<'continue' | 'yield'>;
  readonly publishArtifact: (content: Uint8Array, options: PublishOptions) => Promise<{ readonly contentHash: string }>;
  readonly submit: (result: SubmitResult) => Promise<void>;
  readonly fail: (reason: string) => Promise<void>;
}

export interface JobInit {
  readonly groupId: string;
  readonly workItemId: string;
  readonly contract: WorkItemDocument['contract'];
  readonly packages: readonly VerifiedContextPackage[];
  readonly resumeText: string | undefined;
  readonly signal: AbortSignal;
  readonly actions: JobActions;
}

function jsonText(data: CheckpointData): string {
  const text = JSON.stringify(data);
  if (text === undefined) throw new AgentClientError('INVALID_ARGUMENT', 'checkpoint data must be a JSON value');
  return text;
}

/** Builds the job of one run: everything in it is scoped to `init.groupId`. */
export function createJob(init: JobInit): Job {
  const { groupId, actions } = init;
  const packages = init.packages.filter((p) => p.document.groupId === groupId);
  return Object.freeze({
    groupId,
    workItemId: init.workItemId,
    contract: init.contract,
    context: Object.freeze({ packages: Object.freeze(packages) }),
    resumeFrom: init.resumeText === undefined ? undefined : (JSON.parse(init.resumeText) as CheckpointData),
    signal: init.signal,
    token(capability?: string | CapabilityAsk): Promise<CapabilityToken> {
      const ask: CapabilityAsk = typeof capability === 'string' ? { tools: [capability] } : (capability ?? {});
      if (ask.groupId !== undefined && ask.groupId !== groupId) {
        return Promise.reject(new AgentClientError('INVALID_ARGUMENT', `this job's tokens are for Group ${groupId} only`, { groupId }));
      }
      return actions.token(ask);
    },
    async checkpoint(data: CheckpointData, options: { readonly safe?: boolean } = {}): Promise<'continue' | 'yield'> {
      return actions.checkpoint(jsonText(data), options.safe ?? true);
    },
    async publishArtifact(content: string | Uint8Array, options: PublishOptions): Promise<{ readonly contentHash: string; readonly name?: string }> {
      const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      const published = await actions.publishArtifact(bytes, options);
      return options.name === undefined ? { contentHash: published.contentHash } : { contentHash: published.contentHash, name: options.name };
    },
    submit(result: SubmitResult = {}): Promise<void> {
      return actions.submit(result);
    },
    fail(reason: string): Promise<void> {
      return actions.fail(reason);
    },
  });
}
