/**
 * One run of one WorkItem in the runtime host: the handler gets a Job (job.ts) built from this
 * execution only, and the run ends in exactly one way, each recorded in the runtime (one
 * projection transaction) after the Authority accepted it:
 *
 * - `submit` / `fail`: `work.submit` / `work.fail`, then `runtime.end` (the row goes);
 * - a safe checkpoint answered `yield` (preemption, §11.3, or shutdown): the checkpoint is
 *   durable first, then `work.checkpoint` releases the Execution Lease, so renewal stops;
 * - anything else — the handler threw, returned without an outcome, or ran past its bound —
 *   `work.block` with a clear reason (the lease released, the Coordinator told, ownership and
 *   the last checkpoint kept), then `runtime.end(…, 'blocked')`. A lost lease is not reported
 *   (the Authority already knows); the host re-checks the WorkItem with the Authority instead.
 */

import type { MissionWeaveAgent } from '../agent.js';
import type { CommandOptions } from '../commands.js';
import type { VerifiedContextPackage } from '../contextPackages.js';
import { isAgentError } from '../errors.js';
import type { WorkExecution } from '../workExecution.js';
import type { EvidenceDraft } from '../workDocuments.js';
import type { WorkAgent } from '../workEvidence.js';
import { publishOnce, type PublishedOfGroup } from './hostArtifacts.js';
import { createJob, type JobActions, type JobHandler, type SubmitResult } from './job.js';
import { BLOCKED_LEASE_SECONDS, JOB_ABORT_GRACE_MS } from './hostLimits.js';
import { authorityArtifact } from './hostReads.js';
import type { AgentRuntime } from './runtime.js';
import type { SchedulerEvent } from './schedulerTypes.js';

export type RunEnd = 'submitted' | 'failed' | 'yielded' | 'blocked' | 'lease-lost';

export interface RunInit {
  readonly agent: MissionWeaveAgent;
  /** What signs and sends `work.block` (the host's outbox, outboxCommands.ts); the Agent otherwise. */
  readonly commands?: WorkAgent;
  readonly runtime: AgentRuntime;
  readonly execution: WorkExecution;
  readonly handler: JobHandler;
  readonly packages: readonly VerifiedContextPackage[];
  readonly resumeText: string | undefined;
  readonly timeoutMs: number;
  readonly options: CommandOptions;
  /** Scheduler Events a decision of this run produced (a slot handed over on a yield). */
  readonly scheduled: (events: readonly SchedulerEvent[]) => void;
  readonly log: (line: string) => void;
  /** The Group's published Artifact with a content hash (default: read from the Authority's view of the Group). */
  readonly lookupArtifact?: (contentHash: string) => Promise<PublishedOfGroup | undefined>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Sent, or kept in the outbox while the Authority cannot be reached (COMMAND_QUEUED): sent on reconnect, the run ends here. */
async function kept(sending: Promise<unknown>, log: (line: string) => void): Promise<void> {
  await sending.catch((error: unknown) => {
    if (!isAgentError(error) || error.code !== 'COMMAND_QUEUED') throw error;
    log(error.message);
  });
}

export class HostRun {
  private readonly controller = new AbortController();
  private ended: RunEnd | undefined;
  private preemptAsked = false;
  private stopAsked = false;
  /** This run's result Artifacts in order: published now, or adopted from an earlier run (hostArtifacts.ts). */
  private readonly results: string[] = [];
  private progressed = false;

  constructor(private readonly init: RunInit) {
    const lost = init.execution.signal;
    lost.addEventListener('abort', () => this.abort(lost.reason), { once: true });
  }

  get workItemId(): string {
    return this.init.execution.workItemId;
  }

  get groupId(): string {
    return this.init.execution.groupId;
  }

  /** True once this run took a safe checkpoint beyond the one it resumed from, or ended the work. */
  get madeProgress(): boolean {
    return this.progressed;
  }

  /** The scheduler asked this run to yield at its next safe checkpoint. */
  preempt(): void {
    this.preemptAsked = true;
  }

  /** The host is stopping: the next safe checkpoint yields; `abortNow` aborts the signal. */
  stop(abortNow = false): void {
    this.stopAsked = true;
    if (abortNow) this.abort(new Error('the runtime host is shutting down'));
  }

  /** Runs the handler to its end; never rejects. */
  async run(): Promise<RunEnd> {
    const { execution } = this.init;
    const job = createJob({
      groupId: execution.groupId,
      workItemId: execution.workItemId,
      contract: execution.workItem.contract,
      packages: this.init.packages,
      resumeText: this.init.resumeText,
      signal: this.controller.signal,
      actions: this.actions(),
    });
    const outcome = await this.settle(Promise.resolve().then(() => this.init.handler(job)));
    if (this.ended !== undefined) return this.ended;
    if (execution.leaseStatus === 'lost') return this.finish('lease-lost', `the Execution Lease was lost: ${messageOf(execution.signal.reason)}`);
    const reason =
      outcome.kind === 'threw' ? `the job handler threw: ${messageOf(outcome.error)}`
      : outcome.kind === 'hung' ? `the job handler ran past its bound of ${this.init.timeoutMs} ms and was aborted`
      : 'the job handler returned without submit, fail or a yield';
    return this.block(reason);
  }

  private async settle(done: Promise<unknown>): Promise<{ kind: 'returned' } | { kind: 'threw'; error: unknown } | { kind: 'hung' }> {
    const settled = done.then(
      () => ({ kind: 'returned' as const }),
      (error: unknown) => ({ kind: 'threw' as const, error }),
    );
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.init.timeoutMs)));
    const first = await Promise.race([settled, bound]);
    clearTimeout(timer);
    if (first !== 'timeout') return first;
    this.abort(new Error(`the job ran past its bound of ${this.init.timeoutMs} ms`));
    const grace = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), JOB_ABORT_GRACE_MS)));
    const late = await Promise.race([settled, grace]);
    clearTimeout(timer);
    // A handler that ended in time on its own outcome keeps it; otherwise it hung.
    return late === 'hung' || this.ended === undefined ? { kind: 'hung' } : late;
  }

  private abort(reason: unknown): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  private finish(end: RunEnd, reason?: string): RunEnd {
    const { runtime, execution } = this.init;
    this.ended = end;
    if (end === 'submitted' || end === 'failed') this.progressed = true;
    execution.stop();
    if (end === 'submitted' || end === 'failed') runtime.end(execution.workItemId, end);
    if (end === 'blocked' || end === 'lease-lost') runtime.end(execution.workItemId, 'blocked', reason);
    this.init.log(`${end} ${execution.workItemId}${reason === undefined ? '' : `: ${reason}`}`);
    return end;
  }

  /**
   * `work.block` with `reason` (the lease is released and the Coordinator told), then blocked
   * here. Not accepted — the Authority already took the lease back (a replaced Session: the
   * handler failed on the lost connection before the lease's loss reached this process) or could
   * not be reached — the run ends `lease-lost`, so the host re-checks the WorkItem with the
   * Authority instead of holding it blocked where nobody would unblock it.
   */
  private async block(reason: string): Promise<RunEnd> {
    const { agent, execution } = this.init;
    const commands = this.init.commands ?? agent;
    const checkpoint = { phase: 'blocked by the runtime host', createdAt: new Date().toISOString() };
    const payload = { workItemId: execution.workItemId, ownershipEpoch: execution.ownershipEpoch, executionLeaseId: execution.leaseId, reason: reason.slice(0, 1000), checkpoint, blockedLeaseSeconds: BLOCKED_LEASE_SECONDS };
    try {
      await commands.command('work.block', payload, this.init.options);
    } catch (error) {
      this.init.log(`work.block of ${execution.workItemId} was not accepted: ${messageOf(error)}`);
      return this.finish('lease-lost', `${reason}; work.block was not accepted: ${messageOf(error)}`);
    }
    return this.finish('blocked', reason);
  }

  private defaultEvidence(result: SubmitResult): EvidenceDraft[] {
    const { execution } = this.init;
    return execution.workItem.contract.acceptanceCriteria.map((criterion) => ({
      type: criterion.evidenceRequired[0] ?? 'deterministic_test',
      criterionIds: [criterion.criterionId],
      method: 'Reported by the job handler of the runtime host.',
      result: 'passed',
      artifactHashes: [...(result.artifactHashes ?? this.results)],
      ...(result.summary === undefined ? {} : { details: { summary: result.summary } }),
    }));
  }

  private actions(): JobActions {
    const { agent, runtime, execution } = this.init;
    return {
      token: (ask) =>
        agent.capabilities().request({
          groupId: execution.groupId,
          workItemId: execution.workItemId,
          ownershipEpoch: execution.ownershipEpoch,
          executionLeaseId: execution.leaseId,
          ...(ask.tools === undefined ? {} : { tools: ask.tools }),
          ...(ask.expiresInSeconds === undefined ? {} : { expiresInSeconds: ask.expiresInSeconds }),
        }),
      checkpoint: async (text, safe) => {
        if (this.ended !== undefined) return 'yield';
        const decided = runtime.checkpoint(execution.workItemId, execution.leaseId, text, safe);
        if (decided.ok && safe && text !== this.init.resumeText) this.progressed = true;
        const events = decided.ok ? decided.events : [];
        const yielded = events.some((e) => e.type === 'run.yielded');
        if (!yielded && !(safe && this.stopAsked)) return 'continue';
        // Durable here first; then the Authority releases the lease and the WorkItem waits, owned.
        this.ended = 'yielded';
        const phase = yielded ? 'yielded at a safe checkpoint (preempted)' : 'yielded at a safe checkpoint (runtime stopping)';
        await execution.checkpoint({ phase, createdAt: new Date().toISOString() }).catch((error: unknown) => this.init.log(`work.checkpoint of ${execution.workItemId} was not accepted: ${messageOf(error)}`));
        execution.stop();
        this.init.log(`yielded ${execution.workItemId}${this.preemptAsked ? ' (preempted)' : ''}`);
        this.init.scheduled(events);
        return 'yield';
      },
      publishArtifact: async (bytes, options) => {
        const details = { mediaType: options.mediaType, schemaUri: options.schemaUri ?? 'urn:missionweave:schema:opaque' };
        const done = await publishOnce(
          {
            workItemId: execution.workItemId,
            agentId: agent.agentId,
            publish: (content) => execution.publishArtifact({ bytes: content }, details),
            lookup: this.init.lookupArtifact ?? ((contentHash) => authorityArtifact(agent, execution.groupId, contentHash)),
          },
          bytes,
        );
        if (done.adopted) this.init.log(`adopted ${done.contentHash} for ${execution.workItemId}: an earlier run of it published the same content`);
        if (!this.results.includes(done.contentHash)) this.results.push(done.contentHash);
        return { contentHash: done.contentHash };
      },
      submit: async (result) => {
        const drafts = result.evidence ?? this.defaultEvidence(result);
        const evidence = await Promise.all(drafts.map((draft) => execution.evidence(draft)));
        await kept(execution.submit({ evidence, artifactHashes: result.artifactHashes ?? this.results }), this.init.log);
        this.finish('submitted');
      },
      fail: async (reason) => {
        await kept(execution.fail(reason), this.init.log);
        this.finish('failed', reason);
      },
    };
  }
}
