/**
 * The Coordinator lease (§7.2): `mission.assign_coordinator` appoints a Coordinator under the
 * next Coordinator Epoch, fencing the former one; `mission.renew_coordinator` extends the
 * current lease. One lease per epoch: appointing closes the replaced one.
 */

import { samePrincipal, type Principal } from '../../protocol/principal.js';
import type { Lease, Membership } from '../documents.js';
import type { CoordinatorAssignedPayload, CoordinatorRenewedPayload } from '../groupEvents.js';
import type { CommandOf } from '../kinds/kindTypes.js';
import { leaseRevision } from './missionSlice.js';
import type { GroupState } from '../kinds/groupState.js';
import { activeAgent, groupRef, isLeaseLive, membershipOf } from '../stateQueries.js';
import { endMembership, FULL_VISIBILITY, grantMembership } from '../membership/membershipDocuments.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft } from '../model.js';
import { DEFAULT_LEASE_SECONDS, isAfterNow, nowPlusSeconds } from '../rules.js';
import { coordinatorLease } from './newMission.js';
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

export function decideRenewCoordinator(
  state: GroupState,
  command: CommandOf<'mission.renew_coordinator'>,
  ctx: DecisionContext,
): Decision<EventDraft<'mission.coordinator.renewed', CoordinatorRenewedPayload>> {
  const { payload } = command;
  const current = state.coordinatorLease;
  const lease: Lease = {
    ...current,
    // The renewing Command proves which session now holds the lease.
    sessionEpoch: command.sessionEpoch ?? current.sessionEpoch,
    expiresAt: nowPlusSeconds(ctx, payload.leaseSeconds ?? DEFAULT_LEASE_SECONDS),
    renewalCount: current.renewalCount + 1,
    lastRenewedAt: ctx.now,
  };
  return accept({
    kind: 'mission.coordinator.renewed',
    payload: { coordinatorEpoch: state.mission.coordinator.coordinatorEpoch, leaseExpiresAt: lease.expiresAt, coordinatorLease: lease },
    aggregate: { type: 'coordinator-lease', id: lease.leaseId, revision: leaseRevision(lease) },
  });
}
