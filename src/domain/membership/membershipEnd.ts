/** `membership.end` (§8): the MissionOwner, the Coordinator or the member itself ends a Membership. */

import type { MembershipEndedPayload } from '../groupEvents.js';
import type { GroupState } from '../kinds/groupState.js';
import { membershipOf } from '../stateQueries.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft } from '../model.js';
import { endMembership } from './membershipDocuments.js';
import { MEMBERSHIP_EXAMPLES } from './membershipExamples.js';
import { isOwnerOrCoordinator, withMembership } from './membershipHolders.js';
import { MEMBERSHIP_REASONS } from './membershipReasons.js';

export function decideMembershipEnd(
  state: GroupState,
  command: CommandOf<'membership.end'>,
  ctx: DecisionContext,
): Decision<EventDraft<'membership.ended', MembershipEndedPayload>> {
  const { principal } = command.payload;
  if (isOwnerOrCoordinator(state, principal)) {
    return refuse('INVALID_COMMAND', MEMBERSHIP_REASONS.authorityMembershipFixed, 'the MissionOwner and Coordinator Memberships cannot be ended this way');
  }
  const existing = membershipOf(state, principal);
  if (existing === undefined || existing.state === 'ended') {
    return refuse('INVALID_STATE_TRANSITION', MEMBERSHIP_REASONS.membershipNotCurrent, 'the Principal holds no current Membership');
  }
  const membership = endMembership(existing, ctx);
  return accept({
    kind: 'membership.ended',
    payload: { principal: { type: principal.type, id: principal.id }, membership },
    aggregate: { type: 'membership', id: membership.membershipId, revision: membership.membershipEpoch },
  });
}

export const membershipEnded = defineEvent<MembershipEndedPayload>()({
  kind: 'membership.ended',
  changesMembership: true,
  evolve: withMembership,
});

export const membershipEnd = defineKind({
  kind: 'membership.end',
  examples: MEMBERSHIP_EXAMPLES['membership.end'],
  scope: 'group',
  authority: ['mission-owner', 'coordinator', 'subject'],
  events: [membershipEnded],
  subject: (command) => command.payload.principal,
  target: (state, command) => membershipOf(state, command.payload.principal)?.membershipEpoch,
  decide: decideMembershipEnd,
});
