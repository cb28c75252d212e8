/**
 * `membership.change` and `membership.end` (docs/transitions.md, §8).
 */

import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import { principalKey } from '../../src/protocol/principal.js';
import type { ExpectedEvent } from '../support/specification.js';
import {
  AUTHORITY,
  COORD,
  COORD2,
  OWNER,
  REVIEWER,
  REVOKED,
  STRANGER,
  WORKER,
  at,
  command,
  envelope,
  expectStateValid,
  GROUP,
  MISSION,
  groupSpec,
  history,
  stateOf,
  steps,
} from './fixtures.js';
import { ROLE_SCOPES, expectedMembership } from './expectedEvents.js';
import { MEMBERSHIP_REASONS } from '../../src/domain/membership/membershipReasons.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';
import { COMMON_REASONS } from '../../src/domain/commonReasons.js';

const created = history([steps.create, steps.addMember(WORKER)]);
const state = stateOf(created);

function change(payload: object, actor = OWNER, from: GroupState = state, extra: object = {}) {
  return command(from, actor, 'membership.change', payload, extra);
}

function end(principal: object, actor = OWNER, from: GroupState = state, extra: object = {}) {
  return command(from, actor, 'membership.end', { principal }, extra);
}

const ID = 'urn:test:id:when-';
const worker = state.memberships.get(principalKey(WORKER))!;

function changed(membership: object, aggregate?: ExpectedEvent['aggregate']): ExpectedEvent {
  return { kind: 'membership.changed', payload: { membership }, ...(aggregate === undefined ? {} : { aggregate }) };
}

describe('membership.change', () => {
  it('adds a new member at epoch 1, visible from this Event on, with its role’s default scopes', () => {
    const after = groupSpec
      .given(created)
      .when(change({ principal: REVIEWER, roles: ['reviewer'] }, OWNER, state, { expectedRevision: 0 }))
      .then([
        changed(expectedMembership(`${ID}1`, REVIEWER, 'reviewer', { visibilityStartSequence: 3 }), { type: 'membership', id: `${ID}1`, revision: 1 }),
      ]) as GroupState;
    expect(after.memberships.get(principalKey(REVIEWER))?.membershipEpoch).toBe(1);
    expectStateValid(after);
  });

  it('starts visibility after visibilityAfterSequence and keeps explicit scopes', () => {
    const after = groupSpec
      .given(created)
      .when(change({ principal: REVIEWER, roles: ['reviewer'], visibilityAfterSequence: 0, scopes: ['message.post'] }))
      .then([changed(expectedMembership(`${ID}1`, REVIEWER, 'reviewer', { visibilityStartSequence: 1, scopes: ['message.post'] }))]) as GroupState;
    expect(after.memberships.get(principalKey(REVIEWER))).toMatchObject({ visibilityStartSequence: 1, scopes: ['message.post'] });
  });

  it('changes an existing Membership at the next epoch, keeping its ID and visibility', () => {
    const before = state.memberships.get(principalKey(WORKER));
    const after = groupSpec
      .given(created)
      .when(change({ principal: WORKER, roles: ['reviewer'] }, COORD, state, { expectedRevision: 1 }))
      .then([
        changed(
          { ...worker, role: 'reviewer', membershipEpoch: 2, scopes: ROLE_SCOPES.reviewer, grantedAt: at(0) },
          { type: 'membership', id: worker.membershipId, revision: 2 },
        ),
      ]) as GroupState;
    expect(after.memberships.get(principalKey(WORKER))).toMatchObject({
      membershipId: before?.membershipId,
      role: 'reviewer',
      membershipEpoch: 2,
      visibilityStartSequence: before?.visibilityStartSequence,
      activatedAt: before?.activatedAt,
    });
    expectStateValid(after);
  });

  it('re-activates an ended Membership', () => {
    const ended = history([(s) => end(WORKER, OWNER, s!)], created);
    const after = groupSpec
      .given(ended)
      .when(change({ principal: WORKER, roles: ['worker'] }, OWNER, stateOf(ended)), { now: at(60) })
      .then([changed({ ...worker, membershipEpoch: 3, grantedAt: at(60), activatedAt: at(60) })]) as GroupState;
    const reactivated = after.memberships.get(principalKey(WORKER));
    expect(reactivated).toMatchObject({ state: 'active', membershipEpoch: 3, activatedAt: at(60) });
    expect(reactivated?.endedAt).toBeUndefined();
    expectStateValid(after);
  });

  it('grants a provisional Membership with its Context Package and expiry', () => {
    const after = groupSpec
      .given(created)
      .when(change({ principal: REVIEWER, roles: ['worker'], provisional: true, contextPackageId: 'urn:missionweave:context-package:c1', provisionalExpiresAt: at(3600) }))
      .then([
        changed({
          membershipId: `${ID}1`,
          missionId: MISSION,
          groupId: GROUP,
          member: REVIEWER,
          role: 'worker',
          state: 'provisional',
          contextPackageId: 'urn:missionweave:context-package:c1',
          provisionalExpiresAt: at(3600),
          membershipEpoch: 1,
          scopes: ROLE_SCOPES.worker,
          visibilityStartSequence: 3,
          grantedAt: at(0),
        }),
      ]) as GroupState;
    const reviewer = after.memberships.get(principalKey(REVIEWER));
    expect(reviewer).toMatchObject({ state: 'provisional', contextPackageId: 'urn:missionweave:context-package:c1', provisionalExpiresAt: at(3600) });
    expect(reviewer?.activatedAt).toBeUndefined();
    expectStateValid(after);
    groupSpec
      .given(created)
      .when(change({ principal: REVIEWER, roles: ['worker'], provisional: true, contextPackageId: 'urn:x:c', provisionalExpiresAt: at(0) }))
      .thenFails('INVALID_COMMAND', MEMBERSHIP_REASONS.provisionalTerms);
  });

  describe('activating a provisional Membership (§8 step 3)', () => {
    const provisional = history(
      [(s) => change({ principal: REVIEWER, roles: ['worker'], provisional: true, contextPackageId: 'urn:missionweave:context-package:c1', provisionalExpiresAt: at(3600) }, COORD, s!)],
      created,
    );
    const granted = stateOf(provisional).memberships.get(principalKey(REVIEWER))!;

    it('the Coordinator or MissionOwner activates it: active, next epoch, same ID and visibility, its provisional terms gone', () => {
      for (const actor of [COORD, OWNER]) {
        const after = groupSpec
          .given(provisional)
          .when(change({ principal: REVIEWER, roles: ['worker'] }, actor, stateOf(provisional), { expectedRevision: 1 }), { now: at(60) })
          .then([
            changed(
              {
                membershipId: granted.membershipId,
                missionId: MISSION,
                groupId: GROUP,
                member: REVIEWER,
                role: 'worker',
                state: 'active',
                membershipEpoch: 2,
                scopes: ROLE_SCOPES.worker,
                visibilityStartSequence: granted.visibilityStartSequence,
                grantedAt: at(60),
                activatedAt: at(60),
              },
              { type: 'membership', id: granted.membershipId, revision: 2 },
            ),
          ]) as GroupState;
        const activated = after.memberships.get(principalKey(REVIEWER));
        expect(activated?.contextPackageId).toBeUndefined();
        expect(activated?.provisionalExpiresAt).toBeUndefined();
        expectStateValid(after);
      }
    });

    it('refuses to activate a lapsed one, which may be granted again', () => {
      groupSpec
        .given(provisional)
        .when(change({ principal: REVIEWER, roles: ['worker'] }, OWNER, stateOf(provisional)), { now: at(3600) })
        .thenFails('INVALID_STATE_TRANSITION', MEMBERSHIP_REASONS.provisionalLapsed);
      groupSpec
        .given(provisional)
        .when(change({ principal: REVIEWER, roles: ['worker'], provisional: true, contextPackageId: 'urn:x:c2', provisionalExpiresAt: at(7200) }, OWNER, stateOf(provisional)), { now: at(3600) })
        .then([changed({ ...granted, membershipEpoch: 2, contextPackageId: 'urn:x:c2', provisionalExpiresAt: at(7200), grantedAt: at(3600) })]);
    });

    it('a provisional member cannot act before it is activated', () => {
      groupSpec
        .given(provisional)
        .when(command(stateOf(provisional), REVIEWER, 'message.post', { messageId: 'urn:x:m', conversationId: stateOf(provisional).group.mainConversationId, content: 'hi' }))
        .thenFails('MEMBERSHIP_REQUIRED', 'membership-provisional');
    });
  });

  it('lets the MissionOwner and Coordinator restate their own Membership', () => {
    const owner = state.memberships.get(principalKey(OWNER));
    const coordinator = state.memberships.get(principalKey(COORD));
    groupSpec
      .given(created)
      .when(change({ principal: OWNER, roles: ['mission_owner'], scopes: ['group:read'] }))
      .then([changed({ ...owner, membershipEpoch: 2, scopes: ['group:read'] })]);
    groupSpec.given(created).when(change({ principal: COORD, roles: ['coordinator'] }, COORD)).then([changed({ ...coordinator, membershipEpoch: 2 })]);
  });

  it('is the MissionOwner’s or the Coordinator’s (AUTH_FORBIDDEN)', () => {
    groupSpec.given(created).when(change({ principal: REVIEWER, roles: ['worker'] }, WORKER)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(created).when(envelope('membership.change', AUTHORITY, { principal: REVIEWER, roles: ['worker'] })).thenFails('AUTH_FORBIDDEN', GROUP_REASONS.serviceNotAuthorized);
    groupSpec.given(created).when(change({ principal: REVIEWER, roles: ['worker'] }, COORD, state, { coordinatorEpoch: 9 })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
    groupSpec.given(created).when(change({ principal: REVIEWER, roles: ['worker'] }, COORD), { now: at(601) }).thenFails('WORK_LEASE_EXPIRED', COMMON_REASONS.coordinatorLeaseExpired);
  });

  it('needs exactly one role (INVALID_COMMAND)', () => {
    groupSpec.given(created).when(change({ principal: REVIEWER, roles: ['worker', 'reviewer'] })).thenFails('INVALID_COMMAND', MEMBERSHIP_REASONS.oneRolePerMembership);
  });

  it('gives mission_owner only to the MissionOwner and coordinator only to the Coordinator (AUTH_FORBIDDEN)', () => {
    groupSpec.given(created).when(change({ principal: WORKER, roles: ['mission_owner'] })).thenFails('AUTH_FORBIDDEN', MEMBERSHIP_REASONS.reservedRole);
    groupSpec.given(created).when(change({ principal: COORD2, roles: ['coordinator'] })).thenFails('AUTH_FORBIDDEN', MEMBERSHIP_REASONS.reservedRole);
    groupSpec.given(created).when(change({ principal: OWNER, roles: ['coordinator'] })).thenFails('AUTH_FORBIDDEN', MEMBERSHIP_REASONS.reservedRole);
  });

  it('needs an active Agent Card for an Agent, and no service (INVALID_COMMAND)', () => {
    groupSpec.given(created).when(change({ principal: REVOKED, roles: ['worker'] })).thenFails('INVALID_COMMAND', 'agent-card-inactive');
    groupSpec.given(created).when(change({ principal: AUTHORITY, roles: ['observer'] })).thenFails('INVALID_COMMAND', MEMBERSHIP_REASONS.serviceMembership);
    groupSpec
      .given(created)
      .when(change({ principal: STRANGER, roles: ['observer'] }))
      .then([changed(expectedMembership(`${ID}1`, STRANGER, 'observer', { visibilityStartSequence: 3 }))]);
  });

  it('keeps the MissionOwner and Coordinator active, fully visible and in their role (INVALID_COMMAND)', () => {
    groupSpec.given(created).when(change({ principal: COORD, roles: ['worker'] })).thenFails('INVALID_COMMAND', MEMBERSHIP_REASONS.authorityMembershipFixed);
    groupSpec.given(created).when(change({ principal: OWNER, roles: ['observer'] })).thenFails('INVALID_COMMAND', MEMBERSHIP_REASONS.authorityMembershipFixed);
    groupSpec.given(created).when(change({ principal: OWNER, roles: ['mission_owner'], visibilityAfterSequence: 1 })).thenFails('INVALID_COMMAND', MEMBERSHIP_REASONS.authorityMembershipFixed);
    groupSpec
      .given(created)
      .when(change({ principal: COORD, roles: ['coordinator'], provisional: true, contextPackageId: 'urn:x:c', provisionalExpiresAt: at(60) }))
      .thenFails('INVALID_COMMAND', MEMBERSHIP_REASONS.authorityMembershipFixed);
  });

  it('checks expectedRevision against the target Membership (REVISION_CONFLICT)', () => {
    groupSpec.given(created).when(change({ principal: WORKER, roles: ['worker'] }, OWNER, state, { expectedRevision: 2 })).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
    groupSpec.given(created).when(change({ principal: REVIEWER, roles: ['worker'] }, OWNER, state, { expectedRevision: 1 })).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
  });

  it('refuses a terminal Mission (INVALID_STATE_TRANSITION)', () => {
    const cancelled = history([steps.cancel()], created);
    groupSpec.given(cancelled).when(change({ principal: REVIEWER, roles: ['worker'] }, OWNER, stateOf(cancelled))).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionTerminal);
  });
});

describe('membership.end', () => {
  for (const [who, actor] of [
    ['the MissionOwner', OWNER],
    ['the Coordinator', COORD],
    ['the member itself', WORKER],
  ] as const) {
    it(`ends a Membership at the next epoch, by ${who}`, () => {
      const after = groupSpec
        .given(created)
        .when(end(WORKER, actor, state, { expectedRevision: 1 }))
        .then([
          {
            kind: 'membership.ended',
            payload: { principal: WORKER, membership: { ...worker, state: 'ended', membershipEpoch: 2, endedAt: at(0) } },
            aggregate: { type: 'membership', id: worker.membershipId, revision: 2 },
          },
        ]) as GroupState;
      expect(after.memberships.get(principalKey(WORKER))).toMatchObject({ state: 'ended', membershipEpoch: 2, endedAt: at(0), role: 'worker' });
      expectStateValid(after);
    });
  }

  it('is the MissionOwner’s, the Coordinator’s or the member’s own (AUTH_FORBIDDEN)', () => {
    const withReviewer = history([steps.addMember(REVIEWER, 'reviewer')], created);
    groupSpec.given(withReviewer).when(end(WORKER, REVIEWER, stateOf(withReviewer))).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(created).when(envelope('membership.end', AUTHORITY, { principal: WORKER })).thenFails('AUTH_FORBIDDEN', GROUP_REASONS.serviceNotAuthorized);
    groupSpec.given(created).when(end(WORKER, COORD, state, { coordinatorEpoch: 3 })).thenFails('AUTH_STALE_COORDINATOR', 'coordinator-epoch-stale');
  });

  it('cannot end the MissionOwner’s or the Coordinator’s Membership (INVALID_COMMAND)', () => {
    groupSpec.given(created).when(end(OWNER)).thenFails('INVALID_COMMAND', MEMBERSHIP_REASONS.authorityMembershipFixed);
    groupSpec.given(created).when(end(COORD)).thenFails('INVALID_COMMAND', MEMBERSHIP_REASONS.authorityMembershipFixed);
    groupSpec.given(created).when(end(COORD, COORD)).thenFails('INVALID_COMMAND', MEMBERSHIP_REASONS.authorityMembershipFixed);
  });

  it('needs a Membership that exists and is not ended (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(created).when(end(REVIEWER)).thenFails('INVALID_STATE_TRANSITION', MEMBERSHIP_REASONS.membershipNotCurrent);
    const ended = history([(s) => end(WORKER, OWNER, s!)], created);
    groupSpec.given(ended).when(end(WORKER, OWNER, stateOf(ended))).thenFails('INVALID_STATE_TRANSITION', MEMBERSHIP_REASONS.membershipNotCurrent);
  });

  it('checks expectedRevision against the target (REVISION_CONFLICT) and refuses terminal Missions', () => {
    groupSpec.given(created).when(end(WORKER, OWNER, state, { expectedRevision: 3 })).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
    const failed = history([steps.terminate()], created);
    groupSpec.given(failed).when(end(WORKER, OWNER, stateOf(failed))).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionTerminal);
  });

  it('fences the ended member: its next Command is refused (MEMBERSHIP_REQUIRED)', () => {
    const ended = history([(s) => end(WORKER, OWNER, s!)], created);
    const endedState = stateOf(ended);
    groupSpec
      .given(ended)
      .when(command(endedState, WORKER, 'message.post', { messageId: 'urn:x:m', conversationId: endedState.group.mainConversationId, content: 'hi' }))
      .thenFails('MEMBERSHIP_REQUIRED', 'membership-ended');
  });
});
