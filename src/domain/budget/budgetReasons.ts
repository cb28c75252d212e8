/**
 * The refusal reasons of the budget module, by name: a decider refuses with
 * `refuse(code, BUDGET_REASONS.someReason, message)` and a test expects the same constant, so a
 * renamed or mistyped reason fails to compile rather than at run time.
 */

export const BUDGET_REASONS = {
  ancestryMismatch: 'ancestry-mismatch',
  budgetCurrencyChange: 'budget-currency-change',
  capabilityChargeNotAuthority: 'capability-charge-not-authority',
  coordinatorRequired: 'coordinator-required',
  executionLeaseExpired: 'execution-lease-expired',
  executionLeaseNotCurrent: 'execution-lease-not-current',
  missionOwnerRequired: 'mission-owner-required',
  ownershipEpochStale: 'ownership-epoch-stale',
  revisionBelowAllocations: 'revision-below-allocations',
  revisionBelowUsage: 'revision-below-usage',
} as const;

export type BudgetReason = (typeof BUDGET_REASONS)[keyof typeof BUDGET_REASONS];
