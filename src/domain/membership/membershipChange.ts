/** `membership.change` (§8): the MissionOwner or Coordinator grants or changes a Membership. */

import type { MembershipChangedPayload } from '../groupEvents.js';
import { membershipOf } from '../stateQueries.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideMembershipChange, withMembership } from './decideMembership.js';
import { MEMBERSHIP_EXAMPLES } from './membershipExamples.js';

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
