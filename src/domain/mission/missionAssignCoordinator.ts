/**
 * `mission.assign_coordinator` (§7.2): the MissionOwner or policy appoints a Coordinator under the
 * next Coordinator Epoch, fencing the former one. One lease per epoch: appointing closes the
 * replaced one.
 */

import { principalKey, samePrincipal, type Principal } from '../../protocol/principal.js';
import type { Lease, Membership } from '../documents.js';
import type { CoordinatorAssignedPayload } from '../groupEvents.js';
import { withEntry, type GroupState } from '../kinds/groupState.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { activeAgent, groupRef, isLeaseLive, membershipOf } from '../stateQueries.js';
import { endMembership, FULL_VISIBILITY, grantMembership } from '../membership/membershipDocuments.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft } from '../model.js';
import { DEFAULT_LEASE_SECONDS, isAfterNow } from '../rules.js';
import { coordinatorLease } from './newMission.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workAddressees } from '../workItem/workAddressees.js';
import { MISSION_REASONS } from './missionReasons.js';

/** The replaced lease, closed when the next epoch begins (or when it ran out, if earlier). */
function closeReplaced(lease: Lease, coordinatorEpoch: number, ctx: DecisionContext): Lease {
  const ranOut = !isAfterNow(lease.expiresAt, ctx);
  return {
    ...lease,
    state: ranOut ? 'expired' : 'revoked',
    closedAt: ranOut ? lease.expiresAt : ctx.now,
    closureReason: `Replaced by Coordinator Epoch ${coordinatorEpoch}`,
  };
}

export function decideAssignCoordinator(
  state: GroupState,
  command: CommandOf<'mission.assign_coordinator'>,
  ctx: DecisionContext,
): Decision<EventDraft<'mission.coordinator.assigned', CoordinatorAssignedPayload>> {
  const { payload } = command;
  const { mission, coordinatorLease: current } = state;
  const agent = activeAgent(ctx, payload.coordinatorId);
  if (agent === undefined) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.coordinatorCardInactive, 'the new Coordinator has no active Agent Card');
  }
  const reappointed = agent.agentId === current.holderAgentId;
  if (reappointed && isLeaseLive(current, ctx)) {
    return refuse('INVALID_STATE_TRANSITION', MISSION_REASONS.coordinatorUnchanged, 'the Agent already holds a live Coordinator lease');
  }
  const appointee: Principal = { type: 'agent', id: agent.agentId };
  // One Membership per Principal: a child Mission's owning Agent cannot also coordinate it.
  if (samePrincipal(appointee, mission.missionOwner)) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.coordinatorIsOwner, 'the MissionOwner cannot be the Coordinator');
  }

  const coordinatorEpoch = mission.coordinator.coordinatorEpoch + 1;
  const lease = coordinatorLease(
    mission,
    ctx.newId(),
    agent,
    coordinatorEpoch,
    payload.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
    ctx,
  );
  const memberships: Membership[] = [];
  const former = membershipOf(state, { type: 'agent', id: current.holderAgentId });
  if (!reappointed && former !== undefined && former.state !== 'ended') {
    memberships.push(endMembership(former, ctx));
  }
  memberships.push(
    grantMembership(
      groupRef(state),
      appointee,
      membershipOf(state, appointee),
      { role: 'coordinator', visibilityStartSequence: FULL_VISIBILITY },
      ctx,
    ),
  );
  const next = {
    ...mission,
    revision: mission.revision + 1,
    coordinator: { agentId: agent.agentId, agentCardVersion: agent.cardVersion, coordinatorEpoch, leaseId: lease.leaseId },
  };
  return accept({
    kind: 'mission.coordinator.assigned',
    payload: {
      previousCoordinatorId: current.holderAgentId,
      coordinatorId: agent.agentId,
      coordinatorEpoch,
      leaseExpiresAt: lease.expiresAt,
      coordinatorLease: lease,
      previousCoordinatorLease: closeReplaced(current, coordinatorEpoch, ctx),
      memberships,
      mission: next,
    },
    aggregate: { type: 'mission', id: next.missionId, revision: next.revision },
  });
}

export const missionCoordinatorAssigned = defineEvent<CoordinatorAssignedPayload>()({
  kind: 'mission.coordinator.assigned',
  addressees: workAddressees,
  changesMembership: true,
  evolve: (state, payload) => {
    const memberships = new Map(state.memberships);
    for (const m of payload.memberships) memberships.set(principalKey(m.member), m);
    const previous = payload.previousCoordinatorLease;
    return {
      ...state,
      mission: payload.mission,
      coordinatorLease: payload.coordinatorLease,
      formerCoordinatorLeases: withEntry(state.formerCoordinatorLeases, previous.leaseId, previous),
      memberships,
    };
  },
});

export const missionAssignCoordinator = defineKind({
  kind: 'mission.assign_coordinator',
  examples: MISSION_EXAMPLES['mission.assign_coordinator'],
  scope: 'group',
  authority: ['mission-owner', 'organization-authority'],
  events: [missionCoordinatorAssigned],
  preload: { agents: (command) => [command.payload.coordinatorId] },
  target: (state) => state.mission.revision,
  decide: decideAssignCoordinator,
});
