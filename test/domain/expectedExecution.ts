/**
 * The Events of the execution half of §10.2 (checkpoint … cancel), stated whole from the state
 * before: w1 after one transition, its lease record read back as data, never through the deciders'
 * lease or progress builders.
 */

import type { GroupState } from '../../src/domain/kinds/groupState.js';

import type { ExpectedEvent } from '../support/specification.js';
import { WORK_LEASES_EXTENSION as WORK_LEASES } from '../../src/domain/workItem/workLeases.js';
import { T0, WORK, at, CONTRACT } from './fixtures.js';
import { workItemIn } from './workDocuments.js';

type Data = Record<string, unknown>;

/** w1's lease record (`urn:missionweave:extension:work-leases` data) in `s`. */
export function execLeases(s: GroupState): Data {
  const workItem = workItemIn(s, WORK) as unknown as Data;
  const extensions = (workItem['extensions'] ?? {}) as Record<string, { data: Data }>;
  return extensions[WORK_LEASES]?.data ?? {};
}

/** A lease closed at `T0` as `state` with `reason`. */
export function execClosed(lease: unknown, state: string, reason: string): Data {
  return { ...(lease as Data), state, closedAt: T0, closureReason: reason };
}

/** w1 after a transition at `T0`: `change` applied, revision + 1, and its lease record `leases` when given. */
export function expectedWork(s: GroupState, change: Data, leases?: Data): Data {
  const workItem = workItemIn(s, WORK) as unknown as Data;
  const next: Data = { ...workItem, ...change, revision: (workItem['revision'] as number) + 1, updatedAt: T0 };
  if (leases === undefined) return next;
  const extensions = (workItem['extensions'] ?? {}) as Data;
  return { ...next, extensions: { ...extensions, [WORK_LEASES]: { version: '0.1.0', critical: false, data: leases } } };
}

/** Progress as a checkpoint reports it, with nothing reported before. */
export function expectedProgress(phase: string, extra: Data = {}): Data {
  return { currentPhase: phase, completedMilestones: [], nextCheckpoint: phase, blockers: [], updatedCompletionEstimate: CONTRACT.deadline, evidenceIds: [], ...extra };
}

/** The `work.checkpointed` of `checkpoint`, resuming within `seconds`. */
export function expectedCheckpointed(s: GroupState, checkpoint: Data, seconds = 900): ExpectedEvent {
  const leases = execLeases(s);
  const ownership = leases['ownership'] as Data;
  const renewed = { ...ownership, expiresAt: at(seconds), renewalCount: (ownership['renewalCount'] as number) + 1, lastRenewedAt: T0 };
  const released = execClosed(leases['execution'], 'released', 'checkpointed');
  const progress = expectedProgress(checkpoint['phase'] as string, {
    completedMilestones: checkpoint['completedMilestones'] ?? [],
    nextCheckpoint: checkpoint['nextStep'] ?? checkpoint['phase'],
  });
  const workItem = expectedWork(s, { state: 'queued', progress }, { ownership: renewed, closed: [...(leases['closed'] as Data[]), released], checkpoint });
  return {
    kind: 'work.checkpointed',
    payload: { workItemId: WORK, workItem, checkpoint, ownershipLeaseExpiresAt: at(seconds), releasedExecutionLease: released },
    aggregate: { type: 'work-item', id: WORK, revision: workItem['revision'] as number },
  };
}

/** The `work.cancelled` / `work.failed` of w1 with every lease revoked and pending offers withdrawn. */
export function expectedEnded(s: GroupState, kind: 'work.cancelled' | 'work.failed', reason: string, extra: Data = {}, change: Data = {}): ExpectedEvent {
  const leases = execLeases(s);
  const closure = kind === 'work.cancelled' ? 'WorkItem cancelled' : 'WorkItem failed';
  const revokedLeases = [leases['ownership'], leases['execution']].filter((l) => l !== undefined).map((l) => execClosed(l, 'revoked', closure));
  const workItem = workItemIn(s, WORK);
  const offers = workItem.offers?.map((o) => (o.status === 'pending' ? { ...o, status: 'withdrawn' } : o));
  const state = kind === 'work.cancelled' ? 'cancelled' : 'failed';
  const owned = leases['ownership'] !== undefined || leases['closed'] !== undefined;
  const { ownership, execution, ...rest } = leases;
  void ownership;
  void execution;
  const ended = expectedWork(s, { state, ...(offers === undefined ? {} : { offers }), ...change }, owned ? { ...rest, closed: [...((leases['closed'] ?? []) as Data[]), ...(leases['execution'] === undefined ? [] : [execClosed(leases['execution'], 'revoked', closure)])] } : undefined);
  return {
    kind,
    payload: { workItemId: WORK, workItem: ended, reason, ...extra, revokedLeases },
    aggregate: { type: 'work-item', id: WORK, revision: ended['revision'] as number },
  };
}

/** The `work.blocked` of `checkpoint` for `reason`, the blocked lease held `seconds`. */
export function expectedBlocked(s: GroupState, reason: string, checkpoint: Data, seconds = 900): ExpectedEvent {
  const leases = execLeases(s);
  const ownership = leases['ownership'] as Data;
  const blocked = { ...ownership, leaseType: 'blocked', expiresAt: at(seconds), renewalCount: (ownership['renewalCount'] as number) + 1, lastRenewedAt: T0 };
  const released = execClosed(leases['execution'], 'released', 'blocked');
  const progress = expectedProgress(checkpoint['phase'] as string, {
    completedMilestones: checkpoint['completedMilestones'] ?? [],
    nextCheckpoint: checkpoint['nextStep'] ?? checkpoint['phase'],
    blockers: [reason],
  });
  const workItem = expectedWork(s, { state: 'blocked', progress }, { ownership: blocked, closed: [...(leases['closed'] as Data[]), released], checkpoint });
  return { kind: 'work.blocked', payload: { workItemId: WORK, workItem, reason, checkpoint, blockedLeaseExpiresAt: at(seconds), ownershipLeaseExpiresAt: at(seconds), releasedExecutionLease: released } };
}
