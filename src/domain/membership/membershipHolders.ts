/**
 * What both Membership kinds (§8) share. The MissionOwner's and the Coordinator's Memberships
 * carry their authority, so they keep their role, stay active and keep full visibility: those
 * change only through Mission creation and Coordinator assignment. A Membership Event replaces
 * the Principal's one Membership.
 */

import { principalKey, samePrincipal } from '../../protocol/principal.js';
import type { Principal } from '../documents.js';
import type { MembershipChangedPayload } from '../groupEvents.js';
import { withEntry, type GroupState } from '../kinds/groupState.js';
import { coordinatorPrincipal } from '../stateQueries.js';

/** Whether `principal` holds the Membership of the MissionOwner or of the Coordinator. */
export function isOwnerOrCoordinator(state: GroupState, principal: Principal): boolean {
  return samePrincipal(principal, state.mission.missionOwner) || samePrincipal(principal, coordinatorPrincipal(state));
}

/** A Membership Event replaces the Principal's one Membership. */
export function withMembership(state: GroupState, { membership }: MembershipChangedPayload): GroupState {
  return { ...state, memberships: withEntry(state.memberships, principalKey(membership.member), membership) };
}
