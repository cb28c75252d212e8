/**
 * `mission.assign_coordinator` and `mission.renew_coordinator` (docs/transitions.md, §7.2).
 */

import { describe, expect, it } from 'vitest';
import { decideGroupCommand } from '../support/coreDecider.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import { principalKey } from '../../src/protocol/principal.js';
import {
  AUTHORITY,
  CONTRACT,
  COORD,
  COORD2,
  MISSION,
  OWNER,
  REGISTRY,
  REVOKED,
  SELECTION,
  WORK,
  WORKER,
  WORLD,
  at,
  command,
  envelope,
  expectStateValid,
  groupSpec,
  history,
  stateOf,
  steps,
  verifiedWorkHistory,
} from './fixtures.js';
import { ROLE_SCOPES, expectedMembership } from './expectedEvents.js';
import { testContext } from '../support/specification.js';
import { MISSION_REASONS } from '../../src/domain/mission/missionReasons.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';
import { COMMON_REASONS } from '../../src/domain/commonReasons.js';

const created = history([steps.create, steps.addMember(WORKER)]);
const state = stateOf(created);

function assign(coordinatorId: string, extra: object = {}, actor = OWNER, from: GroupState = state) {
  return command(from, actor, 'mission.assign_coordinator', { coordinatorId, leaseSeconds: 900 }, extra);
}

const ID = 'urn:test:id:when-';

/** The lease a new Coordinator gets: `when-1`, issued at `now`, bound to session 1. */
function newLease(holder: string, coordinatorEpoch: number, seconds: number, now = 0) {
  return {
    ...state.coordinatorLease,
    leaseId: `${ID}1`,
    holderAgentId: holder,
    coordinatorEpoch,
    issuedAt: at(now),
    startsAt: at(now),
    expiresAt: at(now + seconds),
  };
}

/** `mission.coordinator.assigned` from coord-1 (epoch 1) to `holder` at epoch 2. */
function assigned(holder: string, seconds: number, memberships: object[], previousLease: object = { state: 'revoked', closedAt: at(0) }, now = 0) {
  const lease = newLease(holder, 2, seconds, now);
  return {
    kind: 'mission.coordinator.assigned',
    payload: {
      previousCoordinatorId: COORD.id,
      coordinatorId: holder,
      coordinatorEpoch: 2,
      leaseExpiresAt: lease.expiresAt,
      coordinatorLease: lease,
      previousCoordinatorLease: { ...state.coordinatorLease, ...previousLease, closureReason: 'Replaced by Coordinator Epoch 2' },
      memberships,
      mission: { ...state.mission, revision: 2, coordinator: { agentId: holder, agentCardVersion: 3, coordinatorEpoch: 2, leaseId: lease.leaseId } },
    },
    aggregate: { type: 'mission', id: MISSION, revision: 2 },
  };
}

/** coord-1's Membership, ended by the appointment. */
const endedCoordinator = { ...state.memberships.get(principalKey(COORD)), state: 'ended', membershipEpoch: 2, endedAt: at(0) };

describe('mission.assign_coordinator', () => {
  it('appoints a new Coordinator under the next epoch and ends the former one’s Membership', () => {
    const after = groupSpec
      .given(created)
      .when(assign(COORD2.id, { expectedRevision: 1 }))
      .then([assigned(COORD2.id, 900, [endedCoordinator, expectedMembership(`${ID}2`, COORD2, 'coordinator')])]) as GroupState;
    expect(after.mission).toMatchObject({ revision: 2, coordinator: { agentId: COORD2.id, coordinatorEpoch: 2, leaseId: after.coordinatorLease.leaseId } });
    expect(after.coordinatorLease).toMatchObject({ holderAgentId: COORD2.id, coordinatorEpoch: 2, renewalCount: 0, state: 'active', expiresAt: at(900) });
    expect(after.coordinatorLease.leaseId).not.toBe(state.coordinatorLease.leaseId);
    expect(after.memberships.get(principalKey(COORD))).toMatchObject({ state: 'ended', membershipEpoch: 2, endedAt: at(0), role: 'coordinator' });
    expect(after.memberships.get(principalKey(COORD2))).toMatchObject({ state: 'active', role: 'coordinator', membershipEpoch: 1, visibilityStartSequence: 0 });
    expectStateValid(after);
  });

  it('may be sent by the Organization authority service', () => {
    groupSpec.given(created).when(envelope('mission.assign_coordinator', AUTHORITY, { coordinatorId: COORD2.id }))
      .then([assigned(COORD2.id, 300, [endedCoordinator, expectedMembership(`${ID}2`, COORD2, 'coordinator')])]);
  });

  it('promotes an existing member to Coordinator at its next epoch', () => {
    const worker = state.memberships.get(principalKey(WORKER));
    const promoted = { ...worker, role: 'coordinator', membershipEpoch: 2, scopes: ROLE_SCOPES.coordinator, visibilityStartSequence: 0 };
    const after = groupSpec.given(created).when(assign(WORKER.id)).then([assigned(WORKER.id, 900, [endedCoordinator, promoted])]) as GroupState;
    expect(after.memberships.get(principalKey(WORKER))).toMatchObject({ role: 'coordinator', membershipEpoch: 2, visibilityStartSequence: 0, state: 'active' });
    expectStateValid(after);
  });

  it('re-appoints the same Agent once its lease has expired, without ending its Membership', () => {
    const regranted = { ...state.memberships.get(principalKey(COORD)), membershipEpoch: 2, grantedAt: at(601) };
    const after = groupSpec
      .given(created)
      .when(assign(COORD.id), { now: at(601) })
      .then([assigned(COORD.id, 900, [regranted], { state: 'expired', closedAt: at(600) }, 601)]) as GroupState;
    expect(after.memberships.get(principalKey(COORD))).toMatchObject({ state: 'active', role: 'coordinator', membershipEpoch: 2 });
    expect(after.mission.coordinator.coordinatorEpoch).toBe(2);
    expectStateValid(after);
  });

  it('refuses the current Coordinator while its lease is live (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(created).when(assign(COORD.id)).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.coordinatorUnchanged);
  });

  it('needs an active Agent Card (INVALID_COMMAND)', () => {
    groupSpec.given(created).when(assign(REVOKED.id)).thenFails('INVALID_COMMAND', MISSION_REASONS.coordinatorCardInactive);
  });

  it('is the MissionOwner’s or the authority service’s (AUTH_FORBIDDEN)', () => {
    groupSpec.given(created).when(assign(COORD2.id, {}, COORD)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(created).when(assign(COORD2.id, {}, WORKER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(created).when(envelope('mission.assign_coordinator', REGISTRY, { coordinatorId: COORD2.id })).thenFails('AUTH_FORBIDDEN', GROUP_REASONS.serviceNotAuthorized);
  });

  it('refuses a terminal Mission (INVALID_STATE_TRANSITION) and a stale expectedRevision (REVISION_CONFLICT)', () => {
    const cancelled = history([steps.cancel()], created);
    groupSpec.given(cancelled).when(assign(COORD2.id, {}, OWNER, stateOf(cancelled))).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionTerminal);
    groupSpec.given(created).when(assign(COORD2.id, { expectedRevision: 5 })).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
  });

  it('fences the former Coordinator: its delayed Commands are stale, and re-admitted it holds no authority', () => {
    const replaced = history([(s) => assign(COORD2.id, {}, OWNER, s!)], created);
    const replacedState = stateOf(replaced);
    groupSpec.given(replaced).when(command(replacedState, COORD, 'mission.renew_coordinator', {}, { coordinatorEpoch: 1 })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
    groupSpec.given(replaced).when(command(replacedState, COORD, 'mission.renew_coordinator', {}, { coordinatorEpoch: 2 })).thenFails('MEMBERSHIP_REQUIRED', 'membership-ended');
    const readmitted = history([steps.addMember(COORD)], replaced);
    const readmittedState = stateOf(readmitted);
    groupSpec.given(readmitted).when(command(readmittedState, COORD, 'mission.renew_coordinator', {}, { coordinatorEpoch: 2 })).thenFails('AUTH_FORBIDDEN', 'not-authorized');
  });

  it('answers a delayed Command of an earlier epoch with AUTH_STALE_COORDINATOR (A → B → A)', () => {
    const back = history([(s) => assign(COORD2.id, {}, OWNER, s!), (s) => assign(COORD.id, {}, OWNER, s!)], created);
    const backState = stateOf(back);
    expect(backState.mission.coordinator.coordinatorEpoch).toBe(3);
    groupSpec.given(back).when(command(backState, COORD, 'mission.renew_coordinator', {}, { coordinatorEpoch: 1 })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
    const renewed = { ...backState.coordinatorLease, expiresAt: at(300), renewalCount: 1, lastRenewedAt: at(0) };
    groupSpec
      .given(back)
      .when(command(backState, COORD, 'mission.renew_coordinator', {}))
      .then([{ kind: 'mission.coordinator.renewed', payload: { coordinatorEpoch: 3, leaseExpiresAt: at(300), coordinatorLease: renewed } }]);
  });
});

describe('mission.renew_coordinator', () => {
  it('extends the lease from now, counts the renewal and binds the renewing session', () => {
    const after = groupSpec
      .given(created)
      .when(command(state, COORD, 'mission.renew_coordinator', { leaseSeconds: 120 }, { sessionEpoch: 4, expectedRevision: 1 }), { now: at(200) })
      .then([
        {
          kind: 'mission.coordinator.renewed',
          payload: {
            coordinatorEpoch: 1,
            leaseExpiresAt: at(320),
            coordinatorLease: { ...state.coordinatorLease, sessionEpoch: 4, expiresAt: at(320), renewalCount: 1, lastRenewedAt: at(200) },
          },
          aggregate: { type: 'coordinator-lease', id: state.coordinatorLease.leaseId, revision: 2 },
        },
      ]) as GroupState;
    expect(after.coordinatorLease).toMatchObject({ expiresAt: at(320), renewalCount: 1, lastRenewedAt: at(200), sessionEpoch: 4, state: 'active' });
    expect(after.mission).toBe(state.mission);
    expectStateValid(after);
  });

  it('defaults to 300 seconds', () => {
    const renewed = { ...state.coordinatorLease, expiresAt: at(300), renewalCount: 1, lastRenewedAt: at(0) };
    const after = groupSpec
      .given(created)
      .when(command(state, COORD, 'mission.renew_coordinator', {}))
      .then([{ kind: 'mission.coordinator.renewed', payload: { coordinatorEpoch: 1, leaseExpiresAt: at(300), coordinatorLease: renewed } }]) as GroupState;
    expect(after.coordinatorLease.expiresAt).toBe(at(300));
  });

  it('needs Coordinator authority (AUTH_FORBIDDEN, AUTH_STALE_COORDINATOR, WORK_LEASE_EXPIRED)', () => {
    groupSpec.given(created).when(command(state, OWNER, 'mission.renew_coordinator', {})).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(created).when(command(state, WORKER, 'mission.renew_coordinator', {})).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(created).when(command(state, COORD, 'mission.renew_coordinator', {}, { coordinatorEpoch: 2 })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
    groupSpec.given(created).when(command(state, COORD, 'mission.renew_coordinator', {}), { now: at(600) }).thenFails('WORK_LEASE_EXPIRED', COMMON_REASONS.coordinatorLeaseExpired);
  });

  it('refuses a terminal Mission (INVALID_STATE_TRANSITION) and a stale expectedRevision (REVISION_CONFLICT)', () => {
    const approved = history([steps.submit(), steps.approve()], verifiedWorkHistory(history([steps.authorize()], created)));
    groupSpec.given(approved).when(command(stateOf(approved), COORD, 'mission.renew_coordinator', {})).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionTerminal);
    groupSpec.given(created).when(command(state, COORD, 'mission.renew_coordinator', {}, { expectedRevision: 2 })).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
  });
});

describe('a replacement Coordinator’s assignments (§7.2, §13.3)', () => {
  const authorized = history([steps.authorize()], created);
  const replaced = history([(s) => assign(COORD2.id, {}, OWNER, s!)], authorized);
  const replacedState = stateOf(replaced);
  const assignments = [
    command(replacedState, COORD2, 'work.authorize', { workItemId: 'urn:missionweave:work-item:w9', contract: CONTRACT }),
    command(replacedState, COORD2, 'work.offer', { workItemId: WORK, candidateAgentIds: [WORKER.id], selectionBasis: SELECTION }),
    command(replacedState, COORD2, 'work.accept_result', { workItemId: WORK, evidence: [] }),
  ];

  it('are held, retryably, until its Context Package for the epoch is stored', () => {
    for (const assignment of assignments) {
      groupSpec.given(replaced).when(assignment, { coordinatorPackages: [] }).thenFails('BACKPRESSURE', GROUP_REASONS.contextPackagePending);
      const refusal = decideGroupCommand(replacedState, assignment, testContext({ ...WORLD, coordinatorPackages: [] }));
      expect(refusal.ok ? undefined : refusal.error).toMatchObject({ details: { coordinatorEpoch: 2, coordinatorId: COORD2.id } });
      expect(refusal.ok ? '' : refusal.error.message).toContain('Context Package');
    }
  });

  it('go ahead once it is stored, and hold nothing for the first Coordinator or where no packages are issued', () => {
    const authorize = assignments[0]!;
    expect(decideGroupCommand(replacedState, authorize, testContext({ ...WORLD, coordinatorPackages: [2] })).ok).toBe(true);
    expect(decideGroupCommand(replacedState, authorize, testContext(WORLD)).ok).toBe(true);
    const first = command(stateOf(created), COORD, 'work.authorize', { workItemId: 'urn:missionweave:work-item:w9', contract: CONTRACT });
    expect(decideGroupCommand(stateOf(created), first, testContext({ ...WORLD, coordinatorPackages: [] })).ok).toBe(true);
  });

  it('hold nothing but the Coordinator’s assignments: the MissionOwner’s work.cancel goes ahead', () => {
    const cancel = command(replacedState, OWNER, 'work.cancel', { workItemId: WORK, reason: 'dropped' });
    expect(decideGroupCommand(replacedState, cancel, testContext({ ...WORLD, coordinatorPackages: [] })).ok).toBe(true);
  });
});
