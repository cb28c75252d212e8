/**
 * The runtime's side of a restart (§11.5), in one projection transaction:
 *
 * 1. the projection settles its WorkItems (`recover`): what ran with a checkpoint under its
 *    current Ownership Epoch is paused (resumable), what ran without one is blocked with
 *    `runtime-session-lost`;
 * 2. the scheduler comes back from its snapshot (`restoreScheduler`, checked field by field) and
 *    `recoverRuns` empties every slot: a run with a safe durable checkpoint is ready again, one
 *    without is blocked;
 * 3. a run the scheduler had picked but that never started under a lease (its row still
 *    `queued`) did not run at all, so it is made ready again (`unblock`);
 * 4. the two must then agree WorkItem by WorkItem (ready ↔ queued or paused, blocked ↔ blocked);
 *    they do when every decision was saved together with its rows (runtime.ts). If they do not,
 *    or the snapshot does not restore, the open fails as `corrupt`, naming the file, and the
 *    transaction is rolled back: nothing is overwritten and no acknowledged work is dropped.
 *
 * Re-checking the resumable work's Ownership Epoch and Execution Lease with the Authority, and
 * reporting the lost work to its Coordinator, is the caller's (see runtime.ts).
 */

import { AgentClientError } from '../errors.js';
import type { LocalProjection, ProjectionRecovery } from './projection.js';
import { ProjectionError } from './projectionErrors.js';
import type { ProjectedWork } from './projectionWork.js';
import { apply, initialSchedulerState } from './scheduler.js';
import { restoreScheduler, snapshotScheduler } from './schedulerSnapshot.js';
import type { SchedulerCommand, SchedulerEvent, SchedulerState } from './schedulerTypes.js';

export interface RuntimeRecovery extends ProjectionRecovery {
  /** The scheduler's Events of the restart: `run.interrupted` per emptied slot, then any `work.unblocked`. */
  readonly interrupted: readonly SchedulerEvent[];
}

function corrupt(projection: LocalProjection, why: string): ProjectionError {
  return new ProjectionError('corrupt', projection.path, why);
}

function restored(projection: LocalProjection, snapshot: string | undefined, slots: number): SchedulerState {
  if (snapshot === undefined) return initialSchedulerState(slots);
  const result = restoreScheduler(snapshot);
  if (!result.ok) throw corrupt(projection, `the scheduler snapshot cannot be restored: ${result.problem}`);
  if (result.state.slots.length !== slots) {
    throw new AgentClientError('INVALID_ARGUMENT', `${projection.path}: this runtime was created with ${result.state.slots.length} slots, not ${slots}`);
  }
  return result.state;
}

/** The first disagreement between the scheduler's held work and the projection's rows, or null. */
function disagreement(state: SchedulerState, rows: readonly ProjectedWork[]): string | null {
  const byId = new Map(rows.map((row) => [row.workItemId, row]));
  for (const held of Object.values(state.work)) {
    const row = byId.get(held.workItemId);
    if (row?.groupId !== held.groupId) return `the scheduler holds WorkItem ${held.workItemId} of Group ${held.groupId}, which the projection does not own`;
    const agrees = held.status === 'blocked' ? row.status === 'blocked' : row.status === 'queued' || row.status === 'paused';
    if (!agrees) return `WorkItem ${held.workItemId} is ${held.status} in the scheduler but ${row.status} in the projection`;
    byId.delete(held.workItemId);
  }
  const orphan = [...byId.values()][0];
  return orphan === undefined ? null : `the projection owns WorkItem ${orphan.workItemId} of Group ${orphan.groupId}, which the scheduler does not hold`;
}

export function settleRestart(projection: LocalProjection, slots: number, nowMs: number): { state: SchedulerState; recovery: RuntimeRecovery } {
  return projection.atomically(() => {
    const recovered = projection.recover();
    let state = restored(projection, recovered.schedulerSnapshot?.snapshot, slots);
    const events: SchedulerEvent[] = [];
    const step = (command: SchedulerCommand): void => {
      const result = apply(state, command);
      if (!result.ok) throw corrupt(projection, `the scheduler refused ${command.type} while recovering: ${result.refusal.code}`);
      state = result.state;
      events.push(...result.events);
    };
    step({ type: 'recoverRuns', nowMs });
    const rows = projection.work.list();
    for (const row of rows) {
      const held = state.work[row.workItemId];
      if (held?.status === 'blocked' && (row.status === 'queued' || row.status === 'paused')) step({ type: 'unblock', nowMs, workItemId: row.workItemId });
    }
    const problem = disagreement(state, rows);
    if (problem !== null) throw corrupt(projection, problem);
    projection.state.saveSchedulerSnapshot(snapshotScheduler(state));
    return { state, recovery: { ...recovered, interrupted: events } };
  });
}
