/**
 * `mission.create` and `mission.create_follow_up` (docs/transitions.md, Mission lifecycle).
 */

import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import {
  AUTHORITY,
  COORD,
  CREATE_PAYLOAD,
  GROUP,
  MAIN,
  MISSION,
  OWNER,
  REVOKED,
  STRANGER,
  T0,
  at,
  createCommand,
  envelope,
  expectStateValid,
  groupSpec,
  history,
  steps,
} from './fixtures.js';
import { expectedCreatedPayload } from './expectedEvents.js';
import { COMMON_REASONS } from '../../src/domain/commonReasons.js';
import { MISSION_REASONS } from '../../src/domain/mission/missionReasons.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';

const SOURCE = { missionId: 'urn:missionweave:mission:m0', groupId: 'urn:missionweave:group:g0', state: 'approved', missionOwner: OWNER };
const FOLLOW_UP = { ...CREATE_PAYLOAD, followUpOfMissionId: SOURCE.missionId };

function followUp(payload: object = FOLLOW_UP, actor = OWNER) {
  return envelope('mission.create_follow_up', actor, payload);
}

describe('mission.create', () => {
  it('creates the Mission, its Group, Conversation, two Memberships and the Coordinator lease as sequence 1', () => {
    const state = groupSpec
      .given([])
      .when(createCommand())
      .then([{ kind: 'mission.created', payload: expectedCreatedPayload(), aggregate: { type: 'mission', id: MISSION, revision: 1 } }]) as GroupState;
    expect(state.lastSequence).toBe(1);
    expect(state.mission).toMatchObject({ state: 'active', revision: 1, missionOwner: OWNER, coordinator: { agentId: COORD.id, coordinatorEpoch: 1, agentCardVersion: 3 } });
    expect(state.mission.approvalPolicy).toEqual(CREATE_PAYLOAD.approvalPolicy);
    expect(state.group).toMatchObject({ groupId: GROUP, missionId: MISSION, state: 'active', mainConversationId: MAIN });
    expect(state.conversations.get(MAIN)).toMatchObject({ type: 'group', revision: 0, title: CREATE_PAYLOAD.title, access: { mode: 'group' } });
    const roles = [...state.memberships.values()].map((m) => [m.member.id, m.role, m.membershipEpoch, m.visibilityStartSequence, m.state]);
    expect(roles).toEqual([
      [OWNER.id, 'mission_owner', 1, 0, 'active'],
      [COORD.id, 'coordinator', 1, 0, 'active'],
    ]);
    expect(state.coordinatorLease).toMatchObject({
      leaseType: 'coordinator',
      holderAgentId: COORD.id,
      coordinatorEpoch: 1,
      sessionEpoch: 1,
      state: 'active',
      renewalCount: 0,
      expiresAt: at(600),
      leaseId: state.mission.coordinator.leaseId,
    });
    expect(state.missionNotes).toEqual({ title: CREATE_PAYLOAD.title, permissions: CREATE_PAYLOAD.permissions });
    expectStateValid(state);
  });

  it('defaults the approval policy, the lease length and the Conversation ID', () => {
    const { approvalPolicy: _p, coordinatorLeaseSeconds: _s, mainConversationId: _c, ...minimal } = CREATE_PAYLOAD;
    const state = groupSpec
      .given([])
      .when(createCommand(minimal))
      .then([
        {
          kind: 'mission.created',
          payload: expectedCreatedPayload({ payload: minimal, approvalPolicy: { finalHumanApproval: true, highRiskExecutionApproval: true } }),
        },
      ]) as GroupState;
    expect(state.mission.approvalPolicy).toEqual({ finalHumanApproval: true, highRiskExecutionApproval: true });
    expect(state.coordinatorLease.expiresAt).toBe(at(300));
    expect(state.group.mainConversationId).toMatch(/^urn:test:id:when-/);
    expect(state.conversations.has(state.group.mainConversationId)).toBe(true);
    expectStateValid(state);
  });

  it('binds the lease to the first session of a Coordinator that never opened one', () => {
    const state = groupSpec
      .given([])
      .when(createCommand(), { agents: [{ agentId: COORD.id, cardVersion: 1, status: 'active', capabilities: new Map() }] })
      .then([{ kind: 'mission.created', payload: expectedCreatedPayload({ agentCardVersion: 1 }) }]) as GroupState;
    expect(state.coordinatorLease.sessionEpoch).toBe(1);
  });

  it('refuses a non-human creator (AUTH_FORBIDDEN)', () => {
    groupSpec.given([]).when(envelope('mission.create', COORD, CREATE_PAYLOAD)).thenFails('AUTH_FORBIDDEN', COMMON_REASONS.creatorNotHuman);
    groupSpec.given([]).when(envelope('mission.create', AUTHORITY, CREATE_PAYLOAD)).thenFails('AUTH_FORBIDDEN', COMMON_REASONS.creatorNotHuman);
  });

  it('refuses an envelope Group that is not the payload Group (INVALID_COMMAND)', () => {
    groupSpec.given([]).when(createCommand(CREATE_PAYLOAD, { groupId: 'urn:missionweave:group:other' })).thenFails('INVALID_COMMAND', MISSION_REASONS.groupIdMismatch);
  });

  it('refuses a Group ID or Mission ID in use (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(history([steps.create])).when(createCommand()).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.groupIdTaken);
    groupSpec.given([]).when(createCommand(), { groups: [GROUP] }).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.groupIdTaken);
    groupSpec
      .given([])
      .when(createCommand(), { missions: [{ ...SOURCE, missionId: MISSION }] })
      .thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.missionIdTaken);
  });

  it('refuses a Coordinator without an active Agent Card (INVALID_COMMAND)', () => {
    groupSpec.given([]).when(createCommand({ ...CREATE_PAYLOAD, coordinatorId: REVOKED.id })).thenFails('INVALID_COMMAND', MISSION_REASONS.coordinatorCardInactive);
    groupSpec.given([]).when(createCommand({ ...CREATE_PAYLOAD, coordinatorId: 'urn:missionweave:agent:unknown' })).thenFails('INVALID_COMMAND', MISSION_REASONS.coordinatorCardInactive);
  });

  it('refuses a deadline that is not after now (INVALID_COMMAND)', () => {
    groupSpec.given([]).when(createCommand({ ...CREATE_PAYLOAD, deadline: T0 })).thenFails('INVALID_COMMAND', MISSION_REASONS.deadlinePassed);
    groupSpec.given([]).when(createCommand({ ...CREATE_PAYLOAD, deadline: '2026-08-01T00:00:00Z' })).thenFails('INVALID_COMMAND', MISSION_REASONS.deadlinePassed);
  });

  it('refuses an expectedRevision other than 0, and an envelope Conversation it does not create', () => {
    groupSpec.given([]).when(createCommand(CREATE_PAYLOAD, { expectedRevision: 1 })).thenFails('REVISION_CONFLICT', GROUP_REASONS.revisionConflict);
    groupSpec.given([]).when(createCommand(CREATE_PAYLOAD, { expectedRevision: 0 })).then([{ kind: 'mission.created', payload: expectedCreatedPayload() }]);
    groupSpec.given([]).when(createCommand(CREATE_PAYLOAD, { conversationId: 'urn:x:other' })).thenFails('INVALID_COMMAND', GROUP_REASONS.envelopeTargetMismatch);
    groupSpec.given([]).when(createCommand(CREATE_PAYLOAD, { conversationId: MAIN })).then([{ kind: 'mission.created', payload: expectedCreatedPayload() }]);
  });
});

describe('mission.create_follow_up', () => {
  const world = { missions: [SOURCE] };

  it('creates a new Group whose Mission follows up the approved one', () => {
    const state = groupSpec
      .given([])
      .when(followUp(), world)
      .then([
        {
          kind: 'mission.follow_up.created',
          payload: expectedCreatedPayload({ followUpOfMissionId: SOURCE.missionId }),
          aggregate: { type: 'mission', id: MISSION, revision: 1 },
        },
      ]) as GroupState;
    expect(state.mission.followUpToMissionId).toBe(SOURCE.missionId);
    expect(state.mission.missionOwner).toEqual(OWNER);
    expectStateValid(state);
  });

  it('refuses an unknown source Mission (INVALID_COMMAND)', () => {
    groupSpec.given([]).when(followUp()).thenFails('INVALID_COMMAND', MISSION_REASONS.followUpSourceUnknown);
  });

  it('refuses a source Mission owned by someone else (AUTH_FORBIDDEN)', () => {
    groupSpec.given([]).when(followUp(FOLLOW_UP, STRANGER), world).thenFails('AUTH_FORBIDDEN', MISSION_REASONS.notSourceMissionOwner);
  });

  it('refuses a source Mission that is not approved (INVALID_STATE_TRANSITION)', () => {
    for (const state of ['active', 'awaiting_approval', 'cancelled', 'failed']) {
      groupSpec.given([]).when(followUp(), { missions: [{ ...SOURCE, state }] }).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.followUpSourceNotApproved);
    }
  });

  it('applies the creation checks too', () => {
    groupSpec.given([]).when(envelope('mission.create_follow_up', COORD, FOLLOW_UP), world).thenFails('AUTH_FORBIDDEN', COMMON_REASONS.creatorNotHuman);
    groupSpec.given([]).when(followUp({ ...FOLLOW_UP, groupId: 'urn:x:g' }), world).thenFails('INVALID_COMMAND', MISSION_REASONS.groupIdMismatch);
    groupSpec.given([]).when(followUp(), { ...world, groups: [GROUP] }).thenFails('INVALID_STATE_TRANSITION', MISSION_REASONS.groupIdTaken);
    groupSpec.given([]).when(followUp({ ...FOLLOW_UP, coordinatorId: REVOKED.id }), world).thenFails('INVALID_COMMAND', MISSION_REASONS.coordinatorCardInactive);
    groupSpec.given([]).when(followUp({ ...FOLLOW_UP, deadline: T0 }), world).thenFails('INVALID_COMMAND', MISSION_REASONS.deadlinePassed);
  });
});
