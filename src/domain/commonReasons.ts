/**
 * The refusal reasons of the checks every kind shares (the Group decider, state queries), by name: a decider refuses with
 * `refuse(code, COMMON_REASONS.someReason, message)` and a test expects the same constant, so a
 * renamed or mistyped reason fails to compile rather than at run time.
 */

export const COMMON_REASONS = {
  coordinatorEpochStale: 'coordinator-epoch-stale',
  coordinatorLeaseExpired: 'coordinator-lease-expired',
  creatorNotHuman: 'creator-not-human',
  groupNotFound: 'group-not-found',
  kindNotSupported: 'kind-not-supported',
} as const;

export type CommonReason = (typeof COMMON_REASONS)[keyof typeof COMMON_REASONS];
