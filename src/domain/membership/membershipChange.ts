/** `membership.change` (§8): the MissionOwner or Coordinator grants or changes a Membership. */

import { samePrincipal } from '../../protocol/principal.js';
import type { MembershipRole, Principal } from '../documents.js';
import type { MembershipChangedPayload } from '../groupEvents.js';
import type { GroupState } from '../kinds/groupState.js';
import { activeAgent, coordinatorPrincipal, groupRef, membershipOf } from '../stateQueries.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft } from '../model.js';
import { isAfterNow } from '../rules.js';
import { grantMembership, type MembershipGrant } from './membershipDocuments.js';
import { MEMBERSHIP_EXAMPLES } from './membershipExamples.js';
import { isOwnerOrCoordinator, withMembership } from './membershipHolders.js';
import { MEMBERSHIP_REASONS } from './membershipReasons.js';

/** The roles only one Principal of the Group may hold, and who that is. */
function reservedHolder(state: GroupState, role: MembershipRole): Principal | undefined {
  if (role === 'mission_owner') return state.mission.missionOwner;
  if (role === 'coordinator') return coordinatorPrincipal(state);
  return undefined;
}

export function decideMembershipChange(
  state: GroupState,
  command: CommandOf<'membership.change'>,
  ctx: DecisionContext,
): Decision<EventDraft<'membership.changed', MembershipChangedPayload>> {
  const { payload } = command;
  const [role, ...more] = payload.roles;
  if (role === undefined || more.length > 0) {
    return refuse('INVALID_COMMAND', MEMBERSHIP_REASONS.oneRolePerMembership, 'a Membership holds exactly one role');
  }
  const { principal } = payload;
  const holder = reservedHolder(state, role);
  if (holder !== undefined && !samePrincipal(holder, principal)) {
    return refuse('AUTH_FORBIDDEN', MEMBERSHIP_REASONS.reservedRole, `only the current holder may have the ${role} role`);
  }
  if (principal.type === 'service') {
    return refuse('INVALID_COMMAND', MEMBERSHIP_REASONS.serviceMembership, 'Organization services carry no Membership');
  }
  if (principal.type === 'agent' && activeAgent(ctx, principal.id) === undefined) {
    return refuse('INVALID_COMMAND', MEMBERSHIP_REASONS.agentCardInactive, 'the Agent has no active Agent Card');
  }
  const provisional = payload.provisional === true;
  // A reserved role reaching here is the holder's own; any other role would strip its authority.
  if (isOwnerOrCoordinator(state, principal) && (holder === undefined || provisional || (payload.visibilityAfterSequence ?? 0) > 0)) {
    return refuse('INVALID_COMMAND', MEMBERSHIP_REASONS.authorityMembershipFixed, 'the MissionOwner and Coordinator keep an active, fully visible role');
  }
  let provisionalGrant: MembershipGrant['provisional'];
  if (provisional) {
    const { contextPackageId, provisionalExpiresAt } = payload;
    if (contextPackageId === undefined || provisionalExpiresAt === undefined || !isAfterNow(provisionalExpiresAt, ctx)) {
      return refuse('INVALID_COMMAND', MEMBERSHIP_REASONS.provisionalTerms, 'a provisional Membership needs a Context Package and a future expiry');
    }
    provisionalGrant = { contextPackageId, expiresAt: provisionalExpiresAt };
  }

  const existing = membershipOf(state, principal);
  // Activation (§8 step 3): a provisional Membership becomes active, keeping its ID and visibility,
  // only while its terms stand; a lapsed one must be granted again before it can be activated.
  if (existing?.state === 'provisional' && !provisional && existing.provisionalExpiresAt !== undefined && !isAfterNow(existing.provisionalExpiresAt, ctx)) {
    return refuse('INVALID_STATE_TRANSITION', MEMBERSHIP_REASONS.provisionalLapsed, 'the provisional Membership lapsed; grant it again before activating it', {
      provisionalExpiresAt: existing.provisionalExpiresAt,
    });
  }
  const visibilityStartSequence =
    payload.visibilityAfterSequence !== undefined
      ? payload.visibilityAfterSequence + 1
      : existing === undefined
        ? state.lastSequence + 1
        : undefined;
  const grant: MembershipGrant = {
    role,
    ...(payload.scopes === undefined ? {} : { scopes: payload.scopes }),
    ...(visibilityStartSequence === undefined ? {} : { visibilityStartSequence }),
    ...(provisionalGrant === undefined ? {} : { provisional: provisionalGrant }),
  };
  const membership = grantMembership(groupRef(state), principal, existing, grant, ctx);
  return accept({
    kind: 'membership.changed',
    payload: { membership },
    aggregate: { type: 'membership', id: membership.membershipId, revision: membership.membershipEpoch },
  });
}

export const membershipChanged = defineEvent<MembershipChangedPayload>()({
  kind: 'membership.changed',
  changesMembership: true,
  evolve: withMembership,
});

export const membershipChange = defineKind({
  kind: 'membership.change',
  examples: MEMBERSHIP_EXAMPLES['membership.change'],
  scope: 'group',
  authority: ['mission-owner', 'coordinator'],
  events: [membershipChanged],
  target: (state, command) => membershipOf(state, command.payload.principal)?.membershipEpoch ?? 0,
  decide: decideMembershipChange,
});
