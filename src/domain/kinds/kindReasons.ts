/**
 * The refusal reasons of the module framework, by name: a decider refuses with
 * `refuse(code, KIND_REASONS.someReason, message)` and a test expects the same constant, so a
 * renamed or mistyped reason fails to compile rather than at run time.
 */

export const KIND_REASONS = {
  profileUndeclaredEvent: 'profile-undeclared-event',
} as const;

export type KindReason = (typeof KIND_REASONS)[keyof typeof KIND_REASONS];
