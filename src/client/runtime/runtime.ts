/**
 * The Agent runtime (§11.1, §11.5): one per Agent, serving many Groups. It joins the pure
 * Scheduler (scheduler.ts) to the durable local projection (projection.ts):
 *
 * - every decision is taken on the in-memory scheduler state, then saved in ONE projection
 *   transaction together with the WorkItem rows it changes (the scheduler snapshot and the
 *   `work` table never disagree on disk); a write that fails leaves the previous state in force;
 * - the projection's Cursors are the Agent's CursorStore (`runtime.cursorStore`);
 * - `openAgentRuntime` restores the scheduler from its snapshot and settles the restart
 *   (runtimeRecovery.ts): the same queues and the same held work come back, work that ran
 *   without a safe durable checkpoint is blocked with `runtime-session-lost`.
 *
 * The runtime itself does no I/O with the Authority: it hands its caller what to do
 * (`recovery.resumable`, `recovery.lost`, the runs `schedule` starts) and records what the caller
 * reports back. The runtime host (hostRuntime.ts) is that caller: Execution Leases and their
 * renewal, the restart's re-checks with the Authority, lost work reported, the outbox sent.
 */

import type { CursorStore } from '../cursorStore.js';
import { AgentClientError } from '../errors.js';
import { openProjection, type LocalProjection, type ProjectionOptions } from './projection.js';
import type { ProjectedWork } from './projectionWork.js';
import { settleRestart, type RuntimeRecovery } from './runtimeRecovery.js';
import { apply } from './scheduler.js';
import { snapshotScheduler } from './schedulerSnapshot.js';
import type { GroupPolicy, RunOutcome, SchedulerCommand, SchedulerEvent, SchedulerRefusal, SchedulerState, WorkRequest } from './schedulerTypes.js';

export interface AgentRuntimeOptions extends ProjectionOptions {
  /** Execution slots; fixed when the projection is first created, checked on every later open. */
  readonly slots: number;
}

/** A WorkItem this Agent accepted, with the Ownership Epoch it holds it under. */
export interface AdmitRequest extends WorkRequest {
  readonly ownershipEpoch: number;
}

export type RuntimeResult = { readonly ok: true; readonly events: readonly SchedulerEvent[] } | { readonly ok: false; readonly refusal: SchedulerRefusal };

export class AgentRuntime {
  private current: SchedulerState;

  /** Use openAgentRuntime. */
  constructor(
    readonly projection: LocalProjection,
    state: SchedulerState,
    /** What the restart found and settled. */
    readonly recovery: RuntimeRecovery,
    private readonly clock: () => number,
  ) {
    this.current = state;
  }

  /** The projection's Cursors: pass as the Agent's `cursorStore`. */
  get cursorStore(): CursorStore {
    return this.projection.cursors;
  }

  /** The scheduler state in force (as saved). */
  get state(): SchedulerState {
    return this.current;
  }

  setGroupPolicy(groupId: string, policy: GroupPolicy): RuntimeResult {
    return this.decide({ type: 'setGroupPolicy', nowMs: this.clock(), groupId, policy });
  }

  /** Takes an accepted WorkItem into its Group's ready queue, or refuses it with a typed reason. */
  admit(request: AdmitRequest): RuntimeResult {
    const { ownershipEpoch, ...work } = request;
    return this.decide({ type: 'admit', nowMs: this.clock(), work }, () => {
      this.projection.work.own(work.groupId, work.workItemId, ownershipEpoch);
    });
  }

  /** Why `admit` would refuse `request` now, or null: a dry run on the state in force, nothing saved. */
  refusalOf(request: AdmitRequest): SchedulerRefusal | null {
    const { ownershipEpoch: _epoch, ...work } = request;
    const result = apply(this.current, { type: 'admit', nowMs: this.clock(), work });
    return result.ok ? null : result.refusal;
  }

  /** Fills free slots; the caller starts each `run.started` under an Execution Lease (`start`). */
  schedule(): readonly SchedulerEvent[] {
    const result = this.decide({ type: 'schedule', nowMs: this.clock() });
    return result.ok ? result.events : [];
  }

  /** Records the Execution Lease a run the scheduler started now runs under. */
  start(workItemId: string, executionLeaseId: string): ProjectedWork {
    const held = this.running(workItemId);
    const row = this.row(held.groupId, workItemId);
    return this.projection.work.start(held.groupId, workItemId, { ownershipEpoch: row.ownershipEpoch, executionLeaseId });
  }

  /**
   * A directed start (`missionweave mcp`: the model picks the WorkItem): ready work goes into a
   * free slot and its row runs under `executionLeaseId`, in one transaction; refused with a typed
   * reason (`not-ready`, `no-free-slot`, `group-at-quota`) when it cannot.
   */
  startChosen(workItemId: string, executionLeaseId: string): RuntimeResult {
    const held = this.current.work[workItemId];
    return this.decide({ type: 'startRun', nowMs: this.clock(), workItemId }, () => {
      if (held === undefined) return;
      const row = this.row(held.groupId, workItemId);
      this.projection.work.start(held.groupId, workItemId, { ownershipEpoch: row.ownershipEpoch, executionLeaseId });
    });
  }

  /**
   * A directed yield: the run leaves its slot at the safe checkpoint it took under
   * `executionLeaseId` (see `checkpoint`), its row paused, in one transaction.
   */
  yieldChosen(workItemId: string, executionLeaseId: string): RuntimeResult {
    const held = this.current.work[workItemId];
    return this.decide({ type: 'yieldRun', nowMs: this.clock(), workItemId }, () => {
      if (held === undefined) return;
      this.projection.work.pause(held.groupId, workItemId, { ownershipEpoch: this.row(held.groupId, workItemId).ownershipEpoch, executionLeaseId });
    });
  }

  /**
   * A checkpoint of a run. A safe one is kept in the projection (durable) before the scheduler
   * hears of it, in the same transaction; if the scheduler had asked the run to yield, it then
   * yields, its row is paused, and the slot may pass on (a `run.started` in the result).
   * An unsafe one is only reported: nothing can resume from it.
   */
  checkpoint(workItemId: string, executionLeaseId: string, data: string | Uint8Array, safe: boolean): RuntimeResult {
    const held = this.running(workItemId);
    const claim = { ownershipEpoch: this.row(held.groupId, workItemId).ownershipEpoch, executionLeaseId };
    return this.decide({ type: 'reportCheckpoint', nowMs: this.clock(), workItemId, safe, durable: safe }, (events) => {
      if (safe) this.projection.work.checkpoint(held.groupId, workItemId, claim, data);
      if (events.some((e) => e.type === 'run.yielded')) this.projection.work.pause(held.groupId, workItemId, claim);
    });
  }

  /** A run ended: submitted, failed or cancelled forget the WorkItem; blocked keeps it with `reason`. */
  end(workItemId: string, outcome: RunOutcome, reason = 'blocked'): RuntimeResult {
    const held = this.running(workItemId);
    return this.decide({ type: 'endRun', nowMs: this.clock(), workItemId, outcome }, () => {
      if (outcome === 'blocked') this.projection.work.block(held.groupId, workItemId, reason);
      else this.projection.work.finish(held.groupId, workItemId);
    });
  }

  /** Blocked work is ready again (its Coordinator resolved what blocked it). */
  unblock(workItemId: string): RuntimeResult {
    const held = this.current.work[workItemId];
    return this.decide({ type: 'unblock', nowMs: this.clock(), workItemId }, () => {
      if (held !== undefined) this.projection.work.requeue(held.groupId, workItemId);
    });
  }

  /** The WorkItem is no longer this Agent's (reassigned, cancelled, its epoch gone). */
  withdraw(workItemId: string): RuntimeResult {
    const held = this.current.work[workItemId];
    return this.decide({ type: 'withdraw', nowMs: this.clock(), workItemId }, () => {
      if (held !== undefined) this.projection.work.finish(held.groupId, workItemId);
    });
  }

  /** Closes the projection; the runtime is unusable afterwards. */
  close(): void {
    this.projection.close();
  }

  /** Decides on the state in force; saves the new state and `write`'s rows in one transaction, then adopts it. */
  private decide(command: SchedulerCommand, write?: (events: readonly SchedulerEvent[]) => void): RuntimeResult {
    const result = apply(this.current, command);
    if (!result.ok) return result;
    if (result.events.length === 0) return { ok: true, events: [] };
    this.projection.atomically(() => {
      write?.(result.events);
      this.projection.state.saveSchedulerSnapshot(snapshotScheduler(result.state));
    });
    this.current = result.state;
    return { ok: true, events: result.events };
  }

  private running(workItemId: string): { readonly groupId: string } {
    const held = this.current.work[workItemId];
    if (held?.status !== 'running') throw new AgentClientError('INVALID_ARGUMENT', `WorkItem ${workItemId} is not running in this runtime`);
    return held;
  }

  private row(groupId: string, workItemId: string): ProjectedWork {
    const row = this.projection.work.get(groupId, workItemId);
    if (row === undefined) throw new AgentClientError('INVALID_ARGUMENT', `WorkItem ${workItemId} is not owned here`, { groupId });
    return row;
  }
}

/**
 * Opens the Agent's runtime on its projection file and settles a restart: the scheduler comes
 * back from its snapshot, no run survives, and the projection's WorkItems are settled with it in
 * one transaction (runtimeRecovery.ts). A second open without anything in between finds the same.
 */
export function openAgentRuntime(options: AgentRuntimeOptions): AgentRuntime {
  const clock = options.clock ?? Date.now;
  const projection = openProjection(options);
  try {
    const { state, recovery } = settleRestart(projection, options.slots, clock());
    return new AgentRuntime(projection, state, recovery, clock);
  } catch (error) {
    projection.close();
    throw error;
  }
}
