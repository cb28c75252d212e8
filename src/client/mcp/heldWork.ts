/**
 * The WorkItems `missionweave mcp`'s work tools hold for their Agent (issue 31 item 6), kept in
 * the Agent runtime (src/client/runtime/runtime.ts) and its SQLite projection, the same file
 * `missionweave worker` uses: what the model accepted, started and checkpointed survives a
 * restart of the MCP server.
 *
 * The model is the runtime's scheduler here: `work_start` is a directed pick of the WorkItem it
 * names into a free slot (`startChosen`), and `work_checkpoint` keeps the checkpoint durable,
 * then releases the Execution Lease at the Authority, then yields the slot (`yieldChosen`). While
 * a WorkItem runs, its WorkExecution's LeaseKeeper renews the lease between the model's calls
 * (§11.3); a lease lost blocks the run here and re-checks it with the Authority, unless the
 * Command ending the run was in flight and accepted (`ending`: its receipt, or rebased).
 *
 * On start (`recover`, heldWorkRecovery.ts) the outbox is sent, held work is re-checked with the
 * Authority as the runtime host does (§11.5): work whose Ownership Epoch moved, that another Agent
 * owns or that ended is withdrawn, and the model is told (`notices`); work that ran without a
 * durable checkpoint is reported to its Coordinator (`runtime-session-lost`) and stays blocked
 * until its Coordinator unblocks it. Work that ended in this process stays listed (bounded by
 * MAX_HELD_WORK) so `work_status` can say how it ended.
 */

import type { MissionWeaveAgent } from '../agent.js';
import type { GroupEvent } from '../documents.js';
import { isAgentError } from '../errors.js';
import { MAX_HELD_WORK } from '../limits.js';
import type { MissionWeaveWorker, OwnedWork } from '../worker.js';
import type { WorkExecution } from '../workExecution.js';
import { workItemOf, type WorkItemDocument } from '../workDocuments.js';
import { ownedQueued, release, requestOf } from '../runtime/hostAdmission.js';
import { authorityWorkItem } from '../runtime/hostReads.js';
import { recheckWork, type HeldRow, type RecoveryContext } from '../runtime/hostRecovery.js';
import type { OutboxCommand } from '../runtime/projectionOutbox.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import { apply } from '../runtime/scheduler.js';
import type { SchedulerRefusal } from '../runtime/schedulerTypes.js';

export { ownershipExpiresAt, runtimeRefusal, type HeldEntry, type HeldNotice } from './heldEntries.js';
import { MAX_HELD_NOTICES } from './mcpLimits.js';
import { heldEntry, outboxNotice, runtimeRefusal, type HeldEntry, type HeldNotice } from './heldEntries.js';
import { ToolRefusal } from './toolSpec.js';

export interface HeldWorkInit {
  readonly agent: MissionWeaveAgent;
  readonly worker: MissionWeaveWorker;
  readonly runtime: AgentRuntime;
  readonly log?: (line: string) => void;
}

/** Refusals of `work.start` that say the WorkItem is no longer this Agent's. */
const NOT_MINE = new Set(['WORK_STALE_OWNERSHIP', 'WORK_LEASE_EXPIRED', 'AUTH_FORBIDDEN', 'WORK_NOT_FOUND']);

export class HeldWork {
  readonly worker: MissionWeaveWorker;
  readonly runtime: AgentRuntime;
  private readonly documents = new Map<string, WorkItemDocument>();
  private readonly executions = new Map<string, WorkExecution>();
  private readonly ended = new Map<string, HeldEntry>();
  private readonly told: HeldNotice[] = [];
  private readonly busy = new Set<string>();
  /** Executions whose ending Command (checkpoint, submit, fail) is in flight. */
  private readonly endingNow = new Set<WorkExecution>();
  private settled: Promise<void> = Promise.resolve();
  private recovering = false;
  readonly log: (line: string) => void;

  constructor(private readonly init: HeldWorkInit) {
    this.worker = init.worker;
    this.runtime = init.runtime;
    this.log = init.log ?? (() => undefined);
  }

  get agent(): MissionWeaveAgent {
    return this.init.agent;
  }

  /** True while a restart's re-checks run; the work tools wait for them. */
  get isRecovering(): boolean {
    return this.recovering;
  }

  /** Resolves once the restart is settled (at once when there was none). */
  ready(): Promise<void> {
    return this.settled;
  }

  /** Runs `recover` (heldWorkRecovery.ts) in the background; `ready()` waits for it. */
  recoverWith(recover: (held: HeldWork) => Promise<void>): Promise<void> {
    this.recovering = true;
    this.settled = recover(this)
      .catch((error: unknown) => this.log(`recovery: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (this.recovering = false));
    return this.settled;
  }

  /** What the runtime host's recovery (hostRecovery.ts) needs, reporting to the model. */
  recoveryContext(): RecoveryContext {
    return {
      agent: this.init.agent,
      runtime: this.runtime,
      worker: this.worker,
      documents: this.documents,
      log: this.log,
      pump: () => undefined,
      withdrawn: (row, why) => this.notice(row, 'withdrawn', why),
      reported: (row, reason) => this.notice(row, 'blocked', reason),
    };
  }

  /** Why the runtime would refuse to take `owned` now, or null (a dry run: nothing saved). */
  refusalOf(groupId: string, workItem: WorkItemDocument): SchedulerRefusal | null {
    return this.runtime.refusalOf(requestOf(groupId, workItem, 0, 'unknown'));
  }

  /** Accepted at the Authority: held in the runtime; refused there, it is released at once and the model told why. */
  async accepted(owned: OwnedWork): Promise<void> {
    this.documents.set(owned.workItemId, owned.workItem);
    this.ended.delete(owned.workItemId);
    const before = this.runtime.state.work[owned.workItemId];
    const row = before === undefined ? undefined : this.runtime.projection.work.get(before.groupId, owned.workItemId);
    // Reassigned back to this Agent under a newer Ownership Epoch: the old hold goes first.
    if (before !== undefined && row !== undefined && row.ownershipEpoch < owned.ownershipEpoch && before.status !== 'running') this.runtime.withdraw(owned.workItemId);
    const admitted = this.runtime.admit(requestOf(owned.groupId, owned.workItem, owned.ownershipEpoch, 'unknown'));
    if (admitted.ok) return;
    this.documents.delete(owned.workItemId);
    const ctx = { ...this.recoveryContext(), effort: 'unknown' as const };
    await release(ctx, owned, admitted.refusal);
    throw runtimeRefusal(admitted.refusal, owned.workItemId);
  }

  /** Starts held work under a new Execution Lease, in a slot of the runtime. */
  async start(workItemId: string, options: { readonly executionLeaseSeconds?: number }): Promise<WorkExecution> {
    const held = this.runtime.state.work[workItemId];
    if (held === undefined) throw new ToolRefusal('INVALID_ARGUMENT', 'not_owned', `WorkItem ${workItemId} is not held here: accept it with work_accept first`);
    const running = this.executions.get(workItemId);
    if (held.status === 'running' && running !== undefined) throw new ToolRefusal('INVALID_ARGUMENT', 'already_running', `WorkItem ${workItemId} is already running under lease ${running.leaseId}`);
    const row = this.runtime.projection.work.get(held.groupId, workItemId);
    if (held.status === 'blocked' || row === undefined) {
      throw new ToolRefusal('INVALID_ARGUMENT', 'blocked', `WorkItem ${workItemId} is blocked (${row?.blockedReason ?? 'blocked'}); its Coordinator unblocks it`);
    }
    const dry = apply(this.runtime.state, { type: 'startRun', nowMs: Date.now(), workItemId });
    if (!dry.ok) throw runtimeRefusal(dry.refusal, workItemId);
    if (this.busy.has(workItemId)) throw new ToolRefusal('INVALID_ARGUMENT', 'already_running', `WorkItem ${workItemId} is being started`);
    this.busy.add(workItemId);
    try {
      const document = this.documents.get(workItemId) ?? (await authorityWorkItem(this.init.agent, held.groupId, workItemId))?.document;
      if (document === undefined) {
        this.withdraw({ groupId: held.groupId, workItemId, ownershipEpoch: row.ownershipEpoch }, 'the Authority has no such WorkItem');
        throw new ToolRefusal('INVALID_ARGUMENT', 'withdrawn', `WorkItem ${workItemId} is gone at the Authority; it is no longer held`);
      }
      let execution: WorkExecution;
      try {
        execution = await this.worker.start({ groupId: held.groupId, workItemId, ownershipEpoch: row.ownershipEpoch, workItem: document }, options);
      } catch (error) {
        if (isAgentError(error) && NOT_MINE.has(error.code)) this.withdraw({ groupId: held.groupId, workItemId, ownershipEpoch: row.ownershipEpoch }, `work.start was refused ${error.code}`);
        throw error;
      }
      const started = this.runtime.startChosen(workItemId, execution.leaseId);
      if (!started.ok) {
        execution.stop();
        throw runtimeRefusal(started.refusal, workItemId);
      }
      this.documents.set(workItemId, execution.workItem);
      this.executions.set(workItemId, execution);
      execution.signal.addEventListener('abort', () => void this.leaseEnded(execution), { once: true });
      return execution;
    } finally {
      this.busy.delete(workItemId);
    }
  }

  /** The running execution of `workItemId`, or a refusal saying it is not running. */
  running(workItemId: string): WorkExecution {
    const execution = this.executions.get(workItemId);
    if (execution === undefined || execution.leaseStatus !== 'keeping' || this.runtime.state.work[workItemId]?.status !== 'running') {
      throw new ToolRefusal('INVALID_ARGUMENT', 'not_running', `WorkItem ${workItemId} is not running here: start it with work_start`);
    }
    return execution;
  }

  /**
   * Sends the Command that ends `execution`'s run. A lease lost meanwhile (the Session replaced
   * with it in flight; the outbox rebases it) is acted on only if the Command was not accepted.
   */
  async ending<T>(execution: WorkExecution, send: () => Promise<T>): Promise<T> {
    this.endingNow.add(execution);
    let accepted = false;
    try {
      const answer = await send();
      accepted = true;
      return answer;
    } finally {
      this.endingNow.delete(execution);
      if (!accepted) void this.leaseEnded(execution);
    }
  }

  /**
   * The model's checkpoint: `data` durable in the projection first (a safe checkpoint), then
   * `release` (the Authority's `work.checkpoint`, which ends the lease), then the slot yielded.
   */
  async checkpoint<T>(execution: WorkExecution, data: unknown, releaseLease: () => Promise<T>): Promise<T> {
    const { workItemId, leaseId } = execution;
    this.runtime.checkpoint(workItemId, leaseId, JSON.stringify(data), true);
    const answer = await this.ending(execution, releaseLease);
    const yielded = this.runtime.yieldChosen(workItemId, leaseId);
    if (!yielded.ok) this.log(`checkpoint of ${workItemId}: the runtime did not yield (${yielded.refusal.code})`);
    this.documents.set(workItemId, execution.workItem);
    return answer;
  }

  /** Submitted or failed at the Authority: the runtime forgets it; it stays listed as ended. */
  finished(execution: WorkExecution, outcome: 'submitted' | 'failed'): void {
    const { workItemId } = execution;
    const entry = this.entryOf(workItemId);
    if (this.runtime.state.work[workItemId]?.status === 'running') this.runtime.end(workItemId, outcome);
    this.executions.delete(workItemId);
    this.documents.delete(workItemId);
    if (entry !== undefined) this.remember({ ...entry, held: 'ended', workItem: execution.workItem, execution });
  }

  /** Held blocked work its Coordinator unblocked (`work.unblocked`): ready again, or withdrawn if re-offered. */
  observe(event: GroupEvent): void {
    const workItem = workItemOf(event);
    const held = workItem === undefined ? undefined : this.runtime.state.work[workItem.workItemId];
    if (event.kind !== 'work.unblocked' || held?.status !== 'blocked' || workItem === undefined) return;
    this.documents.set(workItem.workItemId, workItem);
    if (ownedQueued(event.groupId, workItem, this.init.agent.agentId) === undefined) {
      const row = this.runtime.projection.work.get(held.groupId, held.workItemId);
      this.withdraw({ groupId: held.groupId, workItemId: held.workItemId, ownershipEpoch: row?.ownershipEpoch ?? 0 }, 'unblocked to be offered again');
    } else {
      this.runtime.unblock(workItem.workItemId);
    }
  }

  /** A Command sent again from the outbox (a restart or reconnect came between) was answered: the model is told. */
  outboxAnswered(command: OutboxCommand): void {
    const notice = outboxNotice(command);
    if (notice === undefined) return;
    this.told.push(notice);
    while (this.told.length > MAX_HELD_NOTICES) this.told.shift();
  }

  /** Held work, per the runtime (oldest Group first), then what ended here. */
  list(): readonly HeldEntry[] {
    const held = this.runtime.projection.work.list().flatMap((row) => this.entryOf(row.workItemId, row.groupId) ?? []);
    return [...held, ...this.ended.values()];
  }

  get(workItemId: string): HeldEntry | undefined {
    return this.entryOf(workItemId) ?? this.ended.get(workItemId);
  }

  /** Work withdrawn or reported since this process started, oldest first; the latest MAX_HELD_NOTICES. */
  notices(): readonly HeldNotice[] {
    return [...this.told];
  }

  /** Learns a WorkItem's document (from a re-check, an offer or an Event). */
  learn(workItem: WorkItemDocument): void {
    if (this.runtime.state.work[workItem.workItemId] !== undefined) this.documents.set(workItem.workItemId, workItem);
  }

  /** Stops renewing every lease (the MCP server is closing); the projection keeps the work. */
  close(): void {
    for (const execution of this.executions.values()) execution.stop();
  }

  private entryOf(workItemId: string, groupId?: string): HeldEntry | undefined {
    return heldEntry(this.runtime, workItemId, groupId, this.executions.get(workItemId), this.documents.get(workItemId));
  }

  /** A lease lost while the model worked: the run is blocked here, then re-checked with the Authority. */
  private async leaseEnded(execution: WorkExecution): Promise<void> {
    if (execution.leaseStatus !== 'lost' || this.executions.get(execution.workItemId) !== execution || this.endingNow.has(execution)) return;
    const { groupId, workItemId, ownershipEpoch } = execution;
    const row = this.runtime.projection.work.get(groupId, workItemId);
    if (row?.status !== 'running' || row.executionLeaseId !== execution.leaseId) return;
    const why = (execution.signal.reason as Error | undefined)?.message ?? 'the Execution Lease was lost';
    this.runtime.end(workItemId, 'blocked', `lease lost: ${why}`);
    await recheckWork(this.recoveryContext(), { groupId, workItemId, ownershipEpoch }).catch((error: unknown) => this.log(`re-check of ${workItemId}: ${String(error)}`));
  }

  private withdraw(row: HeldRow, why: string): void {
    if (this.runtime.state.work[row.workItemId] !== undefined) this.runtime.withdraw(row.workItemId);
    this.executions.get(row.workItemId)?.stop();
    this.executions.delete(row.workItemId);
    this.notice(row, 'withdrawn', why);
  }

  private notice(row: HeldRow, what: HeldNotice['what'], why: string): void {
    this.told.push({ groupId: row.groupId, workItemId: row.workItemId, what, why, at: new Date().toISOString() });
    while (this.told.length > MAX_HELD_NOTICES) this.told.shift();
  }

  private remember(entry: HeldEntry): void {
    this.ended.delete(entry.workItemId);
    this.ended.set(entry.workItemId, entry);
    while (this.ended.size > MAX_HELD_WORK) this.ended.delete(this.ended.keys().next().value as string);
  }
}
