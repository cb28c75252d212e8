/**
 * The execution half of the WorkItem state machine (§10.2, §11.3), one given/when/then per row
 * and per refusal: `work.start` under a fresh Execution Lease and its renewal
 * (`ext.missionweaveprotocol.core.work_execution_lease_renew`). The fencing rule is shown on a
 * real history: an owner fenced and re-owned under a higher Ownership Epoch, so that an older
 * epoch with the current Lease ID, and an older Lease ID with the current epoch, are each refused.
 */

import { describe, expect, it } from 'vitest';
import {
  CONTRACT,
  COORD,
  RUNNABLE_CONTRACT,
  T0,
  WORK,
  WORKER,
  WORKER2,
  activeWork,
  at,
  command,
  expectStateValid,
  groupSpec,
  history,
  queuedWork,
  stateOf,
  steps,
  workGroup,
} from './fixtures.js';
import { executionLease, expectedRenewed, expectedStarted, leasesIn } from './expectedOwnership.js';
import { ID, RENEW, currentLeaseId, longCoordinator, offer, patched, renew, start, thenAt } from './ownershipCommands.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';
import { workItemIn } from './workDocuments.js';

const DEP = 'urn:missionweave:work-item:w-dep';

describe('work.start (§10.2: queued → active under an Execution Lease)', () => {
  const queued = queuedWork();
  const s = stateOf(queued);
  const ownership = leasesIn(s)['ownership'] as Record<string, unknown>;

  it('starts under a fresh Execution Lease bound to the Agent, Session Epoch, WorkItem and Ownership Epoch', () => {
    const lease = executionLease({ leaseId: `${ID}1`, holder: WORKER, ownershipEpoch: 1, seconds: 300 });
    groupSpec.given(queued).when(start(s)).then([expectedStarted(s, lease)], (afterState) => expectStateValid(afterState!));
  });

  it('extends the ownership lease to the Execution Lease’s expiry when it would lapse first', () => {
    const lease = executionLease({ leaseId: `${ID}1`, holder: WORKER, ownershipEpoch: 1, seconds: 1200 });
    const extended = { ...ownership, expiresAt: at(1200), renewalCount: 1, lastRenewedAt: T0 };
    groupSpec.given(queued).when(start(s, WORKER, 1, { executionLeaseSeconds: 1200 })).then([expectedStarted(s, lease, extended)]);
  });

  it('refuses an Ownership Epoch that is not the current one (WORK_STALE_OWNERSHIP) and another Worker (AUTH_FORBIDDEN)', () => {
    groupSpec.given(queued).when(start(s, WORKER, 2)).thenFails('WORK_STALE_OWNERSHIP', 'ownership-epoch-stale');
    groupSpec.given(queued).when(start(s, WORKER2, 1)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notTheOwner);
    groupSpec.given(queued).when(start(s, COORD, 1)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notAWorker);
  });

  it('refuses an owner whose ownership lease has lapsed, by the Authority’s clock (WORK_LEASE_EXPIRED)', () => {
    const events = longCoordinator(queued);
    groupSpec.given(events).when(start(stateOf(events)), { now: at(900) }).thenFails('WORK_LEASE_EXPIRED', WORK_REASONS.ownershipLeaseExpired);
    const lease = executionLease({ leaseId: `${ID}1`, holder: WORKER, ownershipEpoch: 1, seconds: 300, now: at(899) });
    const extended = { ...ownership, expiresAt: at(1199), renewalCount: 1, lastRenewedAt: at(899) };
    groupSpec.given(events).when(start(stateOf(events)), { now: at(899) }).then([expectedStarted(stateOf(events), lease, extended, at(899))]);
  });

  it('refuses a WorkItem that is not queued (INVALID_STATE_TRANSITION)', () => {
    const events = activeWork();
    groupSpec.given(events).when(start(stateOf(events))).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
  });

  it('refuses a WorkItem whose dependencies are not met (INVALID_STATE_TRANSITION)', () => {
    const events = history(
      [steps.authorize(DEP, { ...RUNNABLE_CONTRACT, dependencyWorkItemIds: [WORK] }), steps.offer([WORKER], DEP), steps.acceptOffer(WORKER, DEP)],
      workGroup(),
    );
    groupSpec.given(events).when(command(stateOf(events), WORKER, 'work.start', { workItemId: DEP, ownershipEpoch: 1 })).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.dependenciesUnmet);
  });

  it('refuses a contract that requires an Execution Approval while none is recorded (APPROVAL_REQUIRED; executionApproval.unit has the gate)', () => {
    const events = history([steps.create, steps.addMember(WORKER), steps.authorize(WORK, CONTRACT), steps.offer([WORKER]), steps.acceptOffer(WORKER)]);
    groupSpec.given(events).when(start(stateOf(events))).thenFails('APPROVAL_REQUIRED', 'execution-approval-required');
  });

  it('refuses an Execution Lease longer than the limit, and a Command without a Session Epoch (INVALID_COMMAND)', () => {
    groupSpec.given(queued).when(start(s, WORKER, 1, { executionLeaseSeconds: 3601 })).thenFails('INVALID_COMMAND', WORK_REASONS.executionLeaseTooLong);
    groupSpec.given(queued).when(start(s, WORKER, 1, {}, { sessionEpoch: undefined })).thenFails('INVALID_COMMAND', WORK_REASONS.sessionEpochRequired);
    groupSpec.given(queued).when(command(s, WORKER, 'work.start', { workItemId: 'urn:x:none', ownershipEpoch: 1 })).thenFails('INVALID_COMMAND', 'work-item-unknown');
  });
});

// §11.3: the same Lease ID, a later expiry.
describe('ext.missionweaveprotocol.core.work_execution_lease_renew', () => {
  const active = activeWork();
  const s = stateOf(active);
  const ownership = leasesIn(s)['ownership'] as Record<string, unknown>;

  it('renews the current Execution Lease from the Authority’s acceptance time, keeping its Lease ID', () => {
    groupSpec.given(active).when(renew(s), { now: at(200) }).then([expectedRenewed(s, 300, at(200))], (afterState) => {
      expectStateValid(afterState!);
      expect(currentLeaseId(afterState!)).toBe(currentLeaseId(s));
    });
  });

  it('extends the ownership lease to cover the renewed Execution Lease', () => {
    const extended = { ...ownership, expiresAt: at(1150), renewalCount: 1, lastRenewedAt: at(250) };
    groupSpec.given(active).when(renew(s, { leaseSeconds: 900 }), { now: at(250) }).then([expectedRenewed(s, 900, at(250), extended)]);
  });

  it('refuses an Execution Lease that has expired, or is cited from another Session (WORK_LEASE_EXPIRED)', () => {
    groupSpec.given(active).when(renew(s), { now: at(300) }).thenFails('WORK_LEASE_EXPIRED', 'execution-lease-expired');
    groupSpec.given(active).when(renew(s, {}, WORKER, { sessionEpoch: 2 })).thenFails('WORK_LEASE_EXPIRED', WORK_REASONS.executionLeaseOtherSession);
  });

  it('refuses another Worker, a member that is not a Worker and an overlong lease', () => {
    groupSpec.given(active).when(renew(s, {}, WORKER2)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notTheOwner);
    groupSpec.given(active).when(renew(s, {}, COORD)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notAWorker);
    groupSpec.given(active).when(renew(s, { leaseSeconds: 3601 })).thenFails('INVALID_COMMAND', WORK_REASONS.executionLeaseTooLong);
    groupSpec.given(active).when(command(s, WORKER, RENEW, { workItemId: 'urn:x:none', ownershipEpoch: 1, executionLeaseId: 'urn:x:l' })).thenFails('INVALID_COMMAND', 'work-item-unknown');
  });

  it('refuses a WorkItem that is no longer active (INVALID_STATE_TRANSITION)', () => {
    const events = patched(active, { state: 'blocked' });
    groupSpec.given(events).when(renew(stateOf(events))).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
  });
});

describe('fencing (§11.3, §11.5): an older Ownership Epoch or an older Lease ID is refused even when the other matches', () => {
  // worker-7 owns w1 under epoch 1 and starts lease L1; both lapse; the Coordinator re-offers w1
  // (fencing epoch 1) to worker-7 again, which accepts under epoch 2 and starts lease L2.
  const first = longCoordinator(activeWork());
  const leaseOne = currentLeaseId(stateOf(first));
  const refenced = thenAt(first, at(901), (st) => offer(st!, [WORKER]));
  const reowned = thenAt(thenAt(refenced, at(902), steps.acceptOffer(WORKER)), at(903), steps.startWork(WORKER, 2));
  const s = stateOf(reowned);
  const leaseTwo = currentLeaseId(s);

  it('re-owns under a strictly higher Ownership Epoch', () => {
    expect(workItemIn(s, WORK).owner?.ownershipEpoch).toBe(2);
    expect(leaseTwo).not.toBe(leaseOne);
    const closed = leasesIn(s)['closed'] as { leaseId: string; state: string }[];
    expect(closed.map((l) => [l.leaseId, l.state])).toEqual([[leaseOne, 'expired']]);
  });

  it('refuses the current Lease ID under the older epoch (WORK_STALE_OWNERSHIP)', () => {
    groupSpec.given(reowned).when(renew(s, { ownershipEpoch: 1, executionLeaseId: leaseTwo }), { now: at(904) }).thenFails('WORK_STALE_OWNERSHIP', 'ownership-epoch-stale');
  });

  it('refuses the older Lease ID under the current epoch (WORK_LEASE_EXPIRED)', () => {
    groupSpec.given(reowned).when(renew(s, { ownershipEpoch: 2, executionLeaseId: leaseOne }), { now: at(904) }).thenFails('WORK_LEASE_EXPIRED', 'execution-lease-not-current');
  });

  it('accepts the current pair', () => {
    groupSpec.given(reowned).when(renew(s, { ownershipEpoch: 2, executionLeaseId: leaseTwo }), { now: at(904) }).then([expectedRenewed(s, 300, at(904))]);
  });

  it('refuses the fenced epoch’s start too (WORK_STALE_OWNERSHIP)', () => {
    const events = thenAt(refenced, at(902), steps.acceptOffer(WORKER));
    groupSpec.given(events).when(start(stateOf(events), WORKER, 1), { now: at(903) }).thenFails('WORK_STALE_OWNERSHIP', 'ownership-epoch-stale');
    const lease = executionLease({ leaseId: `${ID}1`, holder: WORKER, ownershipEpoch: 2, seconds: 300, now: at(903) });
    groupSpec.given(events).when(start(stateOf(events), WORKER, 2), { now: at(903) }).then([expectedStarted(stateOf(events), lease, undefined, at(903))]);
  });
});

