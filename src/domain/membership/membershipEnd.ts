/** `membership.end` (§8): the MissionOwner, the Coordinator or the member itself ends a Membership. */

import type { MembershipEndedPayload } from '../groupEvents.js';
import { membershipOf } from '../stateQueries.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideMembershipEnd, withMembership } from './decideMembership.js';
import { MEMBERSHIP_EXAMPLES } from './membershipExamples.js';

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
