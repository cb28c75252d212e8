/**
 * The refusal reasons of the membership module, by name: a decider refuses with
 * `refuse(code, MEMBERSHIP_REASONS.someReason, message)` and a test expects the same constant, so a
 * renamed or mistyped reason fails to compile rather than at run time.
 */

export const MEMBERSHIP_REASONS = {
  agentCardInactive: 'agent-card-inactive',
  authorityMembershipFixed: 'authority-membership-fixed',
  membershipNotCurrent: 'membership-not-current',
  oneRolePerMembership: 'one-role-per-membership',
  provisionalLapsed: 'provisional-lapsed',
  provisionalTerms: 'provisional-terms',
  reservedRole: 'reserved-role',
  serviceMembership: 'service-membership',
} as const;

export type MembershipReason = (typeof MEMBERSHIP_REASONS)[keyof typeof MEMBERSHIP_REASONS];
