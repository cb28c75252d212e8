/**
 * The execution half of the WorkItem state machine (§10.2 rows `work.checkpoint` … `work.unblock`;
 * §11.3, §11.4, §13.2), given / when / then, one `describe` per row: the accepted transition, then
 * every refusal. The Worker kinds that cite the current Execution Lease share one fencing table:
 * an older Ownership Epoch is `WORK_STALE_OWNERSHIP` even with the current Lease ID, and an older
 * Lease ID is `WORK_LEASE_EXPIRED` even with the current epoch (§11.3).
 */

import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../src/domain/kinds/groupState.js';

import { leasesOf } from '../../src/domain/workItem/workLeases.js';

import type { ExpectedEvent } from '../support/specification.js';
import {
  CHILD_GROUP,
  CHILD_MISSION,
  COORD,
  OWNER,
  REVIEWER,
  T0,
  WORK,
  WORKER,
  at,
  command,
  expectStateValid,
  groupSpec,
  history,
  stateOf,
} from './fixtures.js';
import {
  EXEC_EPOCH,
  EXEC_OLD_RUN_LEASE,
  EXEC_OWN_LEASE,
  EXEC_RUN_LEASE,
  execGiven,
  EXEC_CHECKPOINT,
  EXEC_LEASED,
  execFailure,
  execState,
} from './execFixtures.js';
import {
  execClosed,
  execLeases,
  expectedBlocked,
  expectedCheckpointed,
  expectedEnded,
  expectedProgress,
  expectedWork,
} from './expectedExecution.js';
import { CASES } from './kindCases.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';

/** The Worker kinds that cite the current Execution Lease: a valid payload for w1 and what it appends. */
const LEASE_CITING: readonly [kind: string, payload: () => object, accepted: (s: GroupState) => ExpectedEvent[]][] = [
  ['work.checkpoint', () => CASES['work.checkpoint']!.payload(stateOf(execGiven({ state: 'active' }))), (s) => CASES['work.checkpoint']!.events(s)],
  ['work.block', () => CASES['work.block']!.payload(stateOf(execGiven({ state: 'active' }))), (s) => CASES['work.block']!.events(s)],
  ['work.submit', () => CASES['work.submit']!.payload(stateOf(execGiven({ state: 'active' }))), (s) => CASES['work.submit']!.events(s)],
  [
    'work.fail',
    () => ({ ...EXEC_LEASED, reason: 'the source table is corrupt', evidence: execFailure() }),
    (s) => [
      expectedEnded(s, 'work.failed', 'the source table is corrupt', { evidence: execFailure() }, {
        progress: expectedProgress('active', { nextCheckpoint: 'not reported', evidenceIds: ['urn:x:failure'] }),
      }),
    ],
  ],
];

describe.each(LEASE_CITING)('%s fencing (§11.3)', (kind, payload, accepted) => {
  const active = execState({ state: 'active' });

  it('is accepted from the owner under the current epoch and Lease ID', () => {
    const after = groupSpec.given(active.events).when(command(active.state, WORKER, kind, payload())).then(accepted(active.state)) as GroupState;
    expect(leasesOf(after.workItems.get(WORK)!).execution).toBeUndefined();
    expectStateValid(after);
  });

  it('refuses an older Ownership Epoch even with the current Lease ID (WORK_STALE_OWNERSHIP)', () => {
    groupSpec.given(active.events).when(command(active.state, WORKER, kind, { ...payload(), ownershipEpoch: EXEC_EPOCH - 1 })).thenFails('WORK_STALE_OWNERSHIP', 'ownership-epoch-stale');
  });

  it('refuses an older Lease ID even with the current epoch (WORK_LEASE_EXPIRED)', () => {
    groupSpec.given(active.events).when(command(active.state, WORKER, kind, { ...payload(), executionLeaseId: EXEC_OLD_RUN_LEASE })).thenFails('WORK_LEASE_EXPIRED', 'execution-lease-not-current');
    groupSpec.given(active.events).when(command(active.state, WORKER, kind, { ...payload(), executionLeaseId: EXEC_OWN_LEASE })).thenFails('WORK_LEASE_EXPIRED', 'execution-lease-not-current');
  });

  it('refuses an Execution Lease past its expiry, or held in a replaced Session (WORK_LEASE_EXPIRED)', () => {
    const short = execState({ state: 'active', executionSeconds: 60 });
    groupSpec.given(short.events).when(command(short.state, WORKER, kind, payload()), { now: at(61) }).thenFails('WORK_LEASE_EXPIRED', 'execution-lease-expired');
    groupSpec.given(active.events).when(command(active.state, WORKER, kind, payload(), { sessionEpoch: 2 })).thenFails('WORK_LEASE_EXPIRED', WORK_REASONS.executionLeaseOtherSession);
  });

  it('refuses a lapsed ownership lease (WORK_LEASE_EXPIRED)', () => {
    const lapsed = execState({ state: 'active', ownershipSeconds: 30 });
    groupSpec.given(lapsed.events).when(command(lapsed.state, WORKER, kind, payload()), { now: at(31) }).thenFails('WORK_LEASE_EXPIRED', WORK_REASONS.ownershipLeaseExpired);
  });

  it('refuses anyone but the owner, and a WorkItem that is not active', () => {
    groupSpec.given(active.events).when(command(active.state, REVIEWER, kind, payload())).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notTheOwner);
    for (const state of ['queued', 'blocked', 'submitted'] as const) {
      const other = execState({ state });
      groupSpec.given(other.events).when(command(other.state, WORKER, kind, payload())).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
    }
  });

  it('refuses a WorkItem the Group does not have, or an unowned one (INVALID_COMMAND, WORK_STALE_OWNERSHIP)', () => {
    groupSpec.given(active.events).when(command(active.state, WORKER, kind, { ...payload(), workItemId: 'urn:x:none' })).thenFails('INVALID_COMMAND', 'work-item-unknown');
    const open = execState({ state: 'open' });
    groupSpec.given(open.events).when(command(open.state, WORKER, kind, payload())).thenFails('WORK_STALE_OWNERSHIP', 'ownership-epoch-stale');
  });
});

describe('work.checkpoint: active → queued (§10.2, §11.4)', () => {
  const active = execState({ state: 'active' });

  it('releases the Execution Lease, renews ownership for resumeWithinSeconds and keeps the checkpoint as structured progress', () => {
    const after = groupSpec
      .given(active.events)
      .when(command(active.state, WORKER, 'work.checkpoint', { ...EXEC_LEASED, checkpoint: EXEC_CHECKPOINT, resumeWithinSeconds: 60 }))
      .then([expectedCheckpointed(active.state, EXEC_CHECKPOINT, 60)]) as GroupState;
    const workItem = after.workItems.get(WORK)!;
    expect(workItem).toMatchObject({ state: 'queued', revision: 5, owner: { ownershipEpoch: EXEC_EPOCH } });
    expect(workItem.progress).toMatchObject({ currentPhase: 'migrating', completedMilestones: ['schema copied'], nextCheckpoint: 'backfill', blockers: [] });
    const leases = leasesOf(workItem);
    expect(leases.execution).toBeUndefined();
    expect(leases.ownership).toMatchObject({ leaseId: EXEC_OWN_LEASE, state: 'active', expiresAt: at(60), renewalCount: 1 });
    expect(leases.closed?.map((l) => [l.leaseId, l.state])).toEqual([[EXEC_OLD_RUN_LEASE, 'released'], [EXEC_RUN_LEASE, 'released']]);
    expect(leases.checkpoint).toEqual(EXEC_CHECKPOINT);
    expectStateValid(after);
  });

  it('resumes within 900 seconds by default; a checkpoint without a next step names its phase as next', () => {
    const bare = { phase: 'analysing', createdAt: T0 };
    groupSpec.given(active.events).when(command(active.state, WORKER, 'work.checkpoint', { ...EXEC_LEASED, checkpoint: bare })).then([expectedCheckpointed(active.state, bare, 900)]);
  });

  it('refuses the same checkpoint delayed: the WorkItem is queued and the lease it cites released (INVALID_STATE_TRANSITION)', () => {
    const once = history([(s) => command(s!, WORKER, 'work.checkpoint', { ...EXEC_LEASED, checkpoint: EXEC_CHECKPOINT })], active.events);
    groupSpec.given(once).when(command(stateOf(once), WORKER, 'work.checkpoint', { ...EXEC_LEASED, checkpoint: EXEC_CHECKPOINT })).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
  });
});

describe('work.block: active → blocked (§10.2, §11.4)', () => {
  const active = execState({ state: 'active' });

  it('checkpoints, records the blocker and keeps ownership as a bounded blocked lease (same Lease ID)', () => {
    const payload = { ...EXEC_LEASED, reason: 'needs DBA approval', checkpoint: EXEC_CHECKPOINT, blockedLeaseSeconds: 120 };
    const after = groupSpec.given(active.events).when(command(active.state, WORKER, 'work.block', payload)).then([expectedBlocked(active.state, 'needs DBA approval', EXEC_CHECKPOINT, 120)]) as GroupState;
    const workItem = after.workItems.get(WORK)!;
    expect(workItem.state).toBe('blocked');
    expect(workItem.progress?.blockers).toEqual(['needs DBA approval']);
    expect(leasesOf(workItem).ownership).toMatchObject({ leaseId: EXEC_OWN_LEASE, leaseType: 'blocked', expiresAt: at(120) });
    expect(leasesOf(workItem).execution).toBeUndefined();
    expectStateValid(after);
  });

  it('holds the blocked lease 900 seconds by default', () => {
    const bare = { phase: 'waiting', createdAt: T0 };
    groupSpec.given(active.events).when(command(active.state, WORKER, 'work.block', { ...EXEC_LEASED, reason: 'waiting on a key', checkpoint: bare })).then([expectedBlocked(active.state, 'waiting on a key', bare)]);
  });
});

describe('work.unblock: blocked → queued or open (§10.2, §11.4)', () => {
  const blocked = execState({ state: 'blocked', ownershipSeconds: 120 });

  it('returns the WorkItem to its queue while the blocked lease holds; the lease is an ownership lease again', () => {
    const after = groupSpec.given(blocked.events).when(command(blocked.state, COORD, 'work.unblock', { workItemId: WORK })).then(CASES['work.unblock']!.events(blocked.state)) as GroupState;
    const workItem = after.workItems.get(WORK)!;
    expect(workItem).toMatchObject({ state: 'queued', owner: { agentId: WORKER.id, ownershipEpoch: EXEC_EPOCH } });
    expect(leasesOf(workItem).ownership).toMatchObject({ leaseId: EXEC_OWN_LEASE, leaseType: 'ownership', state: 'active', expiresAt: at(120) });
    expectStateValid(after);
  });

  it('reopens the WorkItem after the blocked lease lapsed, fencing the expired owner', () => {
    const leases = execLeases(blocked.state);
    const fenced = execClosed(leases['ownership'], 'expired', 'blocked lease lapsed');
    const workItem = { ...expectedWork(blocked.state, { state: 'open', progress: expectedProgress('blocked', { nextCheckpoint: 'not reported' }) }, { closed: leases['closed'] }) };
    delete workItem['owner'];
    delete workItem['selectionBasis'];
    const after = groupSpec
      .given(blocked.events)
      .when(command(blocked.state, COORD, 'work.unblock', { workItemId: WORK }), { now: at(121) })
      .then([{ kind: 'work.unblocked', payload: { workItemId: WORK, workItem: { ...workItem, updatedAt: at(121) }, state: 'open', status: 'open', fencedOwnershipLease: { ...fenced, closedAt: at(121) } } }]) as GroupState;
    const reopened = after.workItems.get(WORK)!;
    expect(reopened.owner).toBeUndefined();
    expect(leasesOf(reopened).ownership).toBeUndefined();
    expectStateValid(after);
  });

  it('is the Coordinator’s: the owner and other members are refused (AUTH_FORBIDDEN), a stale Coordinator Epoch too', () => {
    groupSpec.given(blocked.events).when(command(blocked.state, WORKER, 'work.unblock', { workItemId: WORK })).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(blocked.events).when(command(blocked.state, OWNER, 'work.unblock', { workItemId: WORK })).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(blocked.events).when(command(blocked.state, COORD, 'work.unblock', { workItemId: WORK }, { coordinatorEpoch: undefined })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
  });

  it('needs a blocked WorkItem of this Group in an active Mission', () => {
    for (const state of ['open', 'queued', 'active', 'submitted'] as const) {
      const other = execState({ state });
      groupSpec.given(other.events).when(command(other.state, COORD, 'work.unblock', { workItemId: WORK })).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
    }
    groupSpec.given(blocked.events).when(command(blocked.state, COORD, 'work.unblock', { workItemId: 'urn:x:none' })).thenFails('INVALID_COMMAND', 'work-item-unknown');
    // An `awaiting_approval` Mission has every required WorkItem verified (§7.3), so none is left
    // in this state to reach the Mission-state check; the common checks test that check per kind.
  });

  it('refuses a WorkItem blocked on its child Mission (§14)', () => {
    const child = execState({ state: 'blocked', childMission: { missionId: CHILD_MISSION, groupId: CHILD_GROUP, failurePolicy: 'block_parent_work_item' } });
    groupSpec.given(child.events).when(command(child.state, COORD, 'work.unblock', { workItemId: WORK })).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemAwaitingChild);
  });
});

