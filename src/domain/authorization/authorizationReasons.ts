/**
 * The refusal reasons of the authorization module, by name: a decider refuses with
 * `refuse(code, AUTHORIZATION_REASONS.someReason, message)` and a test expects the same constant, so a
 * renamed or mistyped reason fails to compile rather than at run time.
 */

export const AUTHORIZATION_REASONS = {
  budgetExhausted: 'budget-exhausted',
  capabilityExpired: 'capability-expired',
  capabilityGrantsPerLease: 'capability-grants-per-lease',
  capabilityLimit: 'capability-limit',
  capabilityMismatch: 'capability-mismatch',
  capabilityOverBudget: 'capability-over-budget',
  capabilityRevoked: 'capability-revoked',
  capabilityUnknown: 'capability-unknown',
  executionApprovalRequired: 'execution-approval-required',
  operationNotAllowed: 'operation-not-allowed',
  resourceNotAllowed: 'resource-not-allowed',
  sessionNotCurrent: 'session-not-current',
  toolNotAllowed: 'tool-not-allowed',
} as const;

export type AuthorizationReason = (typeof AUTHORIZATION_REASONS)[keyof typeof AUTHORIZATION_REASONS];
