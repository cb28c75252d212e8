/**
 * Sequences, revisions, epochs and budgets are non-negative safe JSON integers (§2).
 */

/** True for 0 … 2^53 − 1. */
export function isNonNegativeSafeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** True for 1 … 2^53 − 1 (Group sequences and epochs start at 1). */
export function isPositiveSafeInteger(value: unknown): value is number {
  return isNonNegativeSafeInteger(value) && value >= 1;
}
