/**
 * Questions the Group deciders ask of a state, answered in one place so that "who is the
 * MissionOwner" or "is this Mission over" means the same thing in every rule.
 */

import { principalKey, samePrincipal, type Principal } from '../protocol/principal.js';
import { TERMINAL_MISSION_STATES, type Lease, type Membership, type Mission } from './documents.js';
import { refuse, type AgentFacts, type CommandEnvelope, type Decision, type DecisionContext } from './model.js';
import { isAfterNow } from './rules.js';
import type { GroupState } from './kinds/groupState.js';
import { COMMON_REASONS } from './commonReasons.js';

export function membershipOf(state: GroupState, principal: Principal): Membership | undefined {
  return state.memberships.get(principalKey(principal));
}

export function isTerminal(mission: Mission): boolean {
  return (TERMINAL_MISSION_STATES as readonly string[]).includes(mission.state);
}

/** The MissionOwner acts as such only while holding the `mission_owner` Membership (§7.1). */
export function isMissionOwner(state: GroupState, actor: Principal): boolean {
  return samePrincipal(actor, state.mission.missionOwner) && membershipOf(state, actor)?.role === 'mission_owner';
}

/** The Agent named by the current Coordinator lease, whether or not the lease is still live. */
export function holdsCoordinatorLease(state: GroupState, actor: Principal): boolean {
  return actor.type === 'agent' && actor.id === state.coordinatorLease.holderAgentId;
}

/** A lease still in force at the acceptance time. */
export function isLeaseLive(lease: Lease, ctx: DecisionContext): boolean {
  return lease.state === 'active' && isAfterNow(lease.expiresAt, ctx);
}

export function coordinatorPrincipal(state: GroupState): Principal {
  return { type: 'agent', id: state.coordinatorLease.holderAgentId };
}

/** An Agent whose latest Agent Card is `active`; any other card cannot take on new work. */
export function activeAgent(ctx: DecisionContext, agentId: string): AgentFacts | undefined {
  const facts = ctx.agent(agentId);
  return facts?.status === 'active' ? facts : undefined;
}

/** The identifiers every document of the Group repeats. */
export function groupRef(state: GroupState): { missionId: string; groupId: string } {
  return { missionId: state.mission.missionId, groupId: state.groupId };
}

/** The current Coordinator acts under its current epoch and a live lease (§7.2). */
export function checkCoordinatorLease(state: GroupState, command: Pick<CommandEnvelope, 'coordinatorEpoch'>, ctx: DecisionContext): Decision | null {
  if (command.coordinatorEpoch !== state.mission.coordinator.coordinatorEpoch) {
    return refuse('AUTH_STALE_COORDINATOR', COMMON_REASONS.coordinatorEpochStale, 'the Coordinator Epoch is no longer current');
  }
  if (!isLeaseLive(state.coordinatorLease, ctx)) {
    return refuse('WORK_LEASE_EXPIRED', COMMON_REASONS.coordinatorLeaseExpired, 'the Coordinator lease has expired');
  }
  return null;
}
