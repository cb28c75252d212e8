/**
 * The refusal reasons of the policy module, by name: a decider refuses with
 * `refuse(code, POLICY_REASONS.someReason, message)` and a test expects the same constant, so a
 * renamed or mistyped reason fails to compile rather than at run time.
 */

export const POLICY_REASONS = {
  beneficiaryNotMember: 'beneficiary-not-member',
  grantConsumed: 'grant-consumed',
  grantExpired: 'grant-expired',
  grantExpiryOutsideMission: 'grant-expiry-outside-mission',
  grantIdTaken: 'grant-id-taken',
  grantLimit: 'grant-limit',
  grantOtherAction: 'grant-other-action',
  grantOtherBeneficiary: 'grant-other-beneficiary',
  grantOtherKind: 'grant-other-kind',
  grantOtherMission: 'grant-other-mission',
  grantOtherPolicy: 'grant-other-policy',
  grantUnknown: 'grant-unknown',
  noLimitExceeded: 'no-limit-exceeded',
  policyNotForKind: 'policy-not-for-kind',
} as const;

export type PolicyReason = (typeof POLICY_REASONS)[keyof typeof POLICY_REASONS];
