/**
 * The connected runtime host (§11.1, §11.3, §11.5): one Agent connection serving many Groups
 * through one AgentRuntime. It does what runtime.ts leaves to its caller:
 *
 * - offers to this Agent are accepted and admitted when the runtime would admit them, declined
 *   (not accepted) otherwise; work this Agent came to own another way is picked up from the
 *   Group's Events and, on start, its view; owned work the runtime refuses is released at once
 *   (`work.start` + `work.fail`, hostAdmission.ts) so its Coordinator may offer it again;
 * - every `run.started` of `schedule()` gets an Execution Lease (`work.start`) kept renewed by a
 *   LeaseKeeper while it runs, and is run by the job handler (hostRun.ts); a preempted or paused
 *   run releases its lease with `work.checkpoint`, which stops renewal;
 * - the Commands that end a run are kept in the durable outbox before they are sent (outboxCommands.ts),
 *   sent on start and on every reconnect, a kept Command a new Session fenced rebased (outboxRebase.ts);
 * - after a restart, before anything runs, each resumable, queued or blocked WorkItem is
 *   re-checked with the Authority (hostRecovery.ts) and each `runtime-session-lost` one reported
 *   to its Coordinator;
 * - a WorkItem whose runs end without progress is restarted with a bounded backoff, and after
 *   NO_PROGRESS_RUNS of them reported blocked (`runtime-no-progress`, hostRestartGuard.ts).
 *
 * Use (docs/sdk.md, examples/runtime-worker.mjs): `new RuntimeHost({ agent, runtime, handler })`
 * with the Agent's `cursorStore: runtime.cursorStore`; `start()` connects, sends the outbox,
 * subscribes, recovers and schedules; `stop()` yields runs at their next safe checkpoint.
 */

import type { MissionWeaveAgent } from '../agent.js';
import { isAgentError, MissionWeaveError } from '../errors.js';
import { MissionWeaveWorker } from '../worker.js';
import type { WorkItemDocument } from '../workDocuments.js';
import { ownedNow, type AdmissionContext } from './hostAdmission.js';
import { WorkIntake } from './hostIntake.js';
import type { JobHandler } from './job.js';
import { JOB_TIMEOUT_MS, START_ATTEMPTS, START_RETRY_MS, STOP_GRACE_MS } from './hostLimits.js';
import { authorityWorkItem, jobPackages, memberGroups } from './hostReads.js';
import { ENDED_WORK, recheckWork, reportBlocked, reportLost } from './hostRecovery.js';
import { RestartGuard, RUNTIME_NO_PROGRESS, type RestartVerdict } from './hostRestartGuard.js';
import { HostRun } from './hostRun.js';
import { OutboxCommands } from './outboxCommands.js';
import { outcomeText, sendOutbox } from './projectionSend.js';
import type { AgentRuntime } from './runtime.js';
import type { EffortBand, SchedulerEvent } from './schedulerTypes.js';

export interface RuntimeHostOptions {
  readonly agent: MissionWeaveAgent;
  readonly runtime: AgentRuntime;
  readonly handler: JobHandler;
  /** The Groups served; default: every Group `/v1/me` lists this Agent as an active worker in. */
  readonly groups?: readonly string[];
  readonly executionLeaseSeconds?: number;
  /** The ownership lease asked for when an offer is accepted (default: the Authority's). */
  readonly ownershipLeaseSeconds?: number;
  /** A job running longer is aborted, released and blocked (default JOB_TIMEOUT_MS). */
  readonly jobTimeoutMs?: number;
  /** The effort band new work is admitted with (default `m`). */
  readonly effort?: EffortBand;
  readonly log?: (line: string) => void;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Refusals of `work.start` that say the WorkItem is no longer this Agent's. */
const NOT_MINE = new Set(['WORK_STALE_OWNERSHIP', 'WORK_LEASE_EXPIRED', 'AUTH_FORBIDDEN']);

/** The ended state a `work.start` refusal (INVALID_STATE_TRANSITION) names, if it names one. */
function endedAt(error: unknown): string | undefined {
  if (!(error instanceof MissionWeaveError) || error.code !== 'INVALID_STATE_TRANSITION') return undefined;
  const state = error.details?.['state'];
  return typeof state === 'string' && ENDED_WORK.has(state) ? state : undefined;
}

export class RuntimeHost {
  readonly worker: MissionWeaveWorker;
  /** Signs the Commands that end a run, keeps them in the outbox, then sends those bytes (outboxCommands.ts). */
  readonly commands: OutboxCommands;
  private readonly runs = new Map<string, HostRun>();
  private readonly finished = new Set<Promise<unknown>>();
  private readonly documents = new Map<string, WorkItemDocument>();
  private readonly starts = new Map<string, number>();
  /** Runs in a row that ended without progress, per WorkItem: their restarts back off (hostRestartGuard.ts). */
  private readonly guard = new RestartGuard();
  private readonly intake: WorkIntake;
  private ready = false;
  private flushing: Promise<void> = Promise.resolve();
  private stopping = false;
  private readonly log: (line: string) => void;

  constructor(private readonly options: RuntimeHostOptions) {
    this.log = options.log ?? (() => undefined);
    this.commands = new OutboxCommands(options.agent, () => options.runtime.projection.outbox, (groupId) => this.worker.epochs.facts(groupId)?.membershipEpoch);
    this.worker = new MissionWeaveWorker(options.agent, {
      commands: this.commands,
      ...(options.executionLeaseSeconds === undefined ? {} : { executionLeaseSeconds: options.executionLeaseSeconds }),
      ...(options.ownershipLeaseSeconds === undefined ? {} : { ownershipLeaseSeconds: options.ownershipLeaseSeconds }),
    });
    this.intake = new WorkIntake({ context: () => this.admission(), open: () => this.ready && !this.stopping, pump: () => this.pump(), ownedNow: (groupId, workItemId) => ownedNow(options.agent, groupId, workItemId) });
    this.worker.onOffer((offer) => this.intake.take(offer));
    this.worker.onError((error, offer) => this.log(`offer ${offer.workItemId}: ${messageOf(error)}`));
    options.agent.onConnectionChange((change) => {
      // The first open is flushed by start(), before anything else is sent.
      if (change.state === 'open' && this.ready) void this.flushOutbox();
    });
    options.agent.onEvent((event) => this.track(this.intake.observe(event)));
  }

  get agent(): MissionWeaveAgent {
    return this.options.agent;
  }

  get runtime(): AgentRuntime {
    return this.options.runtime;
  }

  /** WorkItems running now. */
  get running(): readonly string[] {
    return [...this.runs.keys()];
  }

  /** Connects, sends the outbox, subscribes, settles the restart with the Authority, then schedules. */
  async start(): Promise<void> {
    const { agent, runtime } = this.options;
    await agent.connect();
    await this.flushOutbox();
    const members = await memberGroups(agent);
    for (const member of members) this.worker.epochs.set(member.groupId, { membershipEpoch: member.membershipEpoch });
    const groups = this.options.groups ?? members.map((m) => m.groupId);
    for (const groupId of groups) await agent.subscribe(groupId);
    const { work } = runtime.recovery;
    // Blocked here only (a start held back or refused): ready again when the Authority has it queued.
    for (const row of [...work.resumable, ...work.queued, ...work.blocked]) await recheckWork(this.recovery(), row);
    for (const row of work.lost) await reportLost(this.recovery(), row);
    this.ready = true;
    // Work owned at the Authority and not held here (accepted elsewhere, or before a crash).
    await this.intake.sweep(groups);
    this.pump();
  }

  /**
   * Stops: no new run starts; running jobs yield at their next safe checkpoint within
   * STOP_GRACE_MS, the rest are aborted and their leases released. Closes the Agent, not the
   * runtime (its owner closes it).
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.stopping = true;
    for (const run of this.runs.values()) run.stop();
    const all = Promise.allSettled([...this.finished]);
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    for (const run of this.runs.values()) run.stop(true);
    await Promise.race([Promise.allSettled([...this.finished]), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    this.worker.close();
    await this.options.agent.close();
  }

  /**
   * Sends the outbox's unanswered Commands, oldest first, with their bytes unchanged. One sending
   * at a time: a reconnect during a sending queues the next one behind it, so no Command is sent
   * twice at once.
   */
  flushOutbox(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (!this.options.runtime.projection.open) return;
      const outcomes = await sendOutbox(this.options.runtime.projection.outbox, this.options.agent, this.commands.inFlight, this.commands.rebase).catch((error: unknown) => (this.log(`outbox: ${messageOf(error)}`), []));
      for (const outcome of outcomes) this.log(`outbox ${outcomeText(outcome)}`);
    });
    return this.flushing;
  }

  /** Fills free slots and starts what the scheduler picked. */
  pump(): void {
    this.forget();
    if (!this.ready || this.stopping) return;
    this.scheduled(this.options.runtime.schedule());
  }

  /** WorkItem documents kept for jobs' contracts: never more than the runtime holds (MAX_HELD_WORK). */
  get knownDocuments(): number {
    return this.documents.size;
  }

  /** Drops what is kept of WorkItems the runtime no longer holds, so nothing here outgrows its bound. */
  private forget(): void {
    const held = this.options.runtime.state.work;
    for (const workItemId of this.documents.keys()) if (held[workItemId] === undefined) this.documents.delete(workItemId);
    for (const workItemId of this.starts.keys()) if (held[workItemId] === undefined) this.starts.delete(workItemId);
    this.guard.forget((workItemId) => held[workItemId] !== undefined);
  }

  private scheduled(events: readonly SchedulerEvent[]): void {
    for (const event of events) {
      if (event.type === 'run.started') this.track(this.launch(event.groupId, event.workItemId));
      if (event.type === 'preemption.requested') this.runs.get(event.workItemId)?.preempt();
    }
  }

  private track(promise: Promise<unknown>): void {
    const tracked = promise.catch((error: unknown) => this.log(`runtime host: ${messageOf(error)}`));
    this.finished.add(tracked);
    void tracked.finally(() => this.finished.delete(tracked));
  }

  private recovery(): Parameters<typeof recheckWork>[0] {
    return { agent: this.options.agent, runtime: this.options.runtime, worker: this.worker, documents: this.documents, log: this.log, pump: () => this.pump(), withdrawn: (row) => this.track(this.intake.retake(row.workItemId)) };
  }

  private admission(): AdmissionContext {
    return { agent: this.options.agent, runtime: this.options.runtime, worker: this.worker, documents: this.documents, effort: this.options.effort ?? 'm', log: this.log };
  }

  private async launch(groupId: string, workItemId: string): Promise<void> {
    const { agent, runtime } = this.options;
    const row = runtime.projection.work.get(groupId, workItemId);
    if (row === undefined) return;
    const document = this.documents.get(workItemId) ?? (await authorityWorkItem(agent, groupId, workItemId))?.document;
    if (document === undefined) return void runtime.withdraw(workItemId);
    const verdict = this.guard.verdict(workItemId, Date.now());
    if (verdict.kind !== 'start') return this.holdBack({ groupId, workItemId, ownershipEpoch: row.ownershipEpoch }, document, verdict);
    let execution;
    try {
      execution = await this.worker.start({ groupId, workItemId, ownershipEpoch: row.ownershipEpoch, workItem: document });
    } catch (error) {
      const code = isAgentError(error) ? error.code : 'UNKNOWN';
      const ended = endedAt(error);
      if (ended !== undefined) {
        // Held here after it ended there (a late pick-up): nothing to start, nothing to offer again.
        this.log(`withdrawn ${workItemId}: work.start refused, the WorkItem is ${ended}`);
        runtime.withdraw(workItemId);
      } else if (NOT_MINE.has(code)) {
        this.log(`withdrawn ${workItemId}: work.start refused ${code}`);
        runtime.withdraw(workItemId);
        this.track(this.intake.retake(workItemId));
      } else {
        this.retryStart(workItemId, `work.start refused ${code}`);
      }
      return this.pump();
    }
    this.starts.delete(workItemId);
    try {
      runtime.start(workItemId, execution.leaseId);
    } catch (error) {
      // Not recorded (the projection refused: full, closed): the lease is not kept; the Authority's clock ends it.
      execution.stop();
      this.log(`not started ${workItemId}: ${messageOf(error)}`);
      runtime.end(workItemId, 'blocked', `the projection refused the start: ${messageOf(error)}`);
      return this.pump();
    }
    this.log(`started ${workItemId} in ${groupId}${row.checkpoint === undefined ? '' : ' from its checkpoint'}`);
    const membershipEpoch = this.worker.epochs.facts(groupId)?.membershipEpoch;
    const run = new HostRun({
      agent,
      commands: this.commands,
      runtime,
      execution,
      handler: this.options.handler,
      packages: await jobPackages(agent, groupId, this.log),
      resumeText: row.checkpoint?.data.toString('utf8'),
      timeoutMs: this.options.jobTimeoutMs ?? JOB_TIMEOUT_MS,
      options: { groupId, workItemId, ...(membershipEpoch === undefined ? {} : { membershipEpoch }) },
      scheduled: (events) => this.scheduled(events),
      log: this.log,
    });
    this.runs.set(workItemId, run);
    if (this.stopping) run.stop();
    const end = await run.run();
    this.runs.delete(workItemId);
    if (end !== 'yielded') this.guard.ended(workItemId, run.madeProgress, end, Date.now());
    if (end === 'lease-lost' && !this.stopping) await recheckWork(this.recovery(), { groupId, workItemId, ownershipEpoch: row.ownershipEpoch });
    this.pump();
  }

  /**
   * A start the guard holds back (hostRestartGuard.ts): blocked here and ready again once its
   * backoff has passed; or, after NO_PROGRESS_RUNS runs without progress, blocked and reported to
   * its Coordinator with RUNTIME_NO_PROGRESS (its `work.unblock` makes it ready again here).
   */
  private async holdBack(row: { groupId: string; workItemId: string; ownershipEpoch: number }, document: WorkItemDocument, verdict: Exclude<RestartVerdict, { kind: 'start' }>): Promise<void> {
    const { runtime } = this.options;
    const { workItemId } = row;
    if (verdict.kind === 'wait') {
      const reason = `backing off ${verdict.ms} ms after ${verdict.runs} run(s) in a row without progress`;
      runtime.end(workItemId, 'blocked', reason);
      this.log(`${reason}: ${workItemId}`);
      setTimeout(() => {
        if (this.stopping || runtime.state.work[workItemId]?.status !== 'blocked') return;
        runtime.unblock(workItemId);
        this.pump();
      }, verdict.ms).unref();
      return this.pump();
    }
    const reason = `${RUNTIME_NO_PROGRESS}: ${verdict.runs} runs in a row ended without progress (the last ${verdict.last}); the Worker does not start it again on its own; work.unblock to try again`;
    runtime.end(workItemId, 'blocked', reason);
    this.guard.reported(workItemId);
    this.log(`blocked ${workItemId}: ${reason}`);
    await reportBlocked(this.recovery(), row, document, RUNTIME_NO_PROGRESS, reason).catch((error: unknown) => this.log(`report of ${workItemId} failed: ${messageOf(error)}`));
    this.pump();
  }

  /** A start refused for a passing reason: blocked now, ready again after START_RETRY_MS, a bounded number of times. */
  private retryStart(workItemId: string, reason: string): void {
    const { runtime } = this.options;
    const tries = (this.starts.get(workItemId) ?? 0) + 1;
    this.starts.set(workItemId, tries);
    runtime.end(workItemId, 'blocked', reason);
    if (tries >= START_ATTEMPTS) return this.log(`blocked ${workItemId}: ${reason} (${tries} tries)`);
    setTimeout(() => {
      if (this.stopping) return;
      runtime.unblock(workItemId);
      this.pump();
    }, START_RETRY_MS).unref();
  }
}
