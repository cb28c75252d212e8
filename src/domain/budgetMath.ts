/**
 * The arithmetic of the six-dimensional budget ledger (§12, §4.11): what a normative Budget
 * grants in each dimension, usage against it, what is left, and whether a set of allocations
 * fits inside a parent budget. Pure functions over plain numbers; the ledger (`ledger.ts`)
 * decides with them.
 *
 * A dimension a Budget leaves unset grants nothing, as in the reference runtime: nothing can be
 * allocated from it and no usage can be charged to it (`BUDGET_EXCEEDED`). A budget names the
 * dimensions it governs (the schema requires at least one), and an Agent never spends silently
 * in a dimension nobody granted (§12 "Agents MUST NOT silently exceed a limit").
 *
 * Money. Usage is counted in integer microunits (millionths of the budget's currency unit, the
 * reference runtime's `financialMicrounits`); a Budget states `financialLimit` as a decimal
 * amount of its `currency`. The rounding rule, one way and exact:
 *
 * - amount → microunits: the amount's shortest decimal representation (what JSON carries) is read
 *   digit by digit, and digits beyond the sixth decimal are dropped (truncation toward zero), so
 *   a limit never grants more than it states: 0.0000019 EUR grants 1 microunit, 0.29 grants
 *   exactly 290,000 (never 289,999 from binary floating point);
 * - microunits → amount: microunits / 10^6, which as a JSON number prints exactly as the decimal
 *   (every integer up to 2^53 divided by 10^6 round-trips through its shortest representation);
 * - an amount of 2^53 microunits or more (about 9.0 × 10^9 currency units) is capped at
 *   `Number.MAX_SAFE_INTEGER` microunits: beyond exact integer arithmetic, effectively unlimited.
 *
 * Allocation in money needs the same currency: an allocation in another currency is refused,
 * never converted.
 */

import type { Budget } from './documents.js';
import { NO_USAGE, type ResourceUsage } from '../protocol/offlineExecution.js';

export type { ResourceUsage };
export { NO_USAGE };

/** The six dimensions, with the reference runtime's usage names (§12). */
export const USAGE_DIMENSIONS = ['financialMicrounits', 'modelTokens', 'toolCalls', 'computeSeconds', 'wallClockSeconds', 'externalActions'] as const;
export type UsageDimension = (typeof USAGE_DIMENSIONS)[number];

/** What a budget grants per dimension, in usage units; an absent dimension is not granted. */
export type BudgetLimits = Partial<Record<UsageDimension, number>>;

export const MICROUNITS_PER_UNIT = 1_000_000;
const MICRO_DIGITS = 6;

/** A currency amount in microunits, truncated beyond the sixth decimal (see the rounding rule). */
export function toMicrounits(amount: number): number {
  if (!Number.isFinite(amount) || amount <= 0) return 0;
  if (amount >= Number.MAX_SAFE_INTEGER / MICROUNITS_PER_UNIT) return Number.MAX_SAFE_INTEGER;
  const text = String(amount);
  if (text.includes('e')) {
    // Exponent form below 2^53 / 10^6 is only ever a tiny amount (< 10^-6): it truncates to 0.
    return 0;
  }
  const [whole = '0', fraction = ''] = text.split('.');
  const micro = Number(whole) * MICROUNITS_PER_UNIT + Number(fraction.padEnd(MICRO_DIGITS, '0').slice(0, MICRO_DIGITS));
  return Math.min(micro, Number.MAX_SAFE_INTEGER);
}

/** Microunits as a currency amount (exact as a JSON number). */
export function fromMicrounits(microunits: number): number {
  return microunits / MICROUNITS_PER_UNIT;
}

/** The dimensions `budget` grants, in usage units. */
export function limitsOf(budget: Budget): BudgetLimits {
  const limits: BudgetLimits = {};
  if (budget.financialLimit !== undefined && budget.currency !== undefined) limits.financialMicrounits = toMicrounits(budget.financialLimit);
  if (budget.modelTokenLimit !== undefined) limits.modelTokens = budget.modelTokenLimit;
  if (budget.toolCallLimit !== undefined) limits.toolCalls = budget.toolCallLimit;
  if (budget.computeSecondsLimit !== undefined) limits.computeSeconds = budget.computeSecondsLimit;
  if (budget.wallClockSecondsLimit !== undefined) limits.wallClockSeconds = budget.wallClockSecondsLimit;
  if (budget.externalSideEffectLimit !== undefined) limits.externalActions = budget.externalSideEffectLimit;
  return limits;
}

export function addUsage(a: ResourceUsage, b: ResourceUsage): ResourceUsage {
  return {
    financialMicrounits: a.financialMicrounits + b.financialMicrounits,
    modelTokens: a.modelTokens + b.modelTokens,
    toolCalls: a.toolCalls + b.toolCalls,
    computeSeconds: a.computeSeconds + b.computeSeconds,
    wallClockSeconds: a.wallClockSeconds + b.wallClockSeconds,
    externalActions: a.externalActions + b.externalActions,
  };
}

export function isZeroUsage(usage: ResourceUsage): boolean {
  return USAGE_DIMENSIONS.every((dimension) => usage[dimension] === 0);
}

/** The first dimension in which `usage` exceeds `limits` (an ungranted dimension allows 0). */
export function usageOverflow(usage: ResourceUsage, limits: BudgetLimits): UsageDimension | undefined {
  return USAGE_DIMENSIONS.find((dimension) => usage[dimension] > (limits[dimension] ?? 0));
}

/** What is left of each granted dimension after `usage` (never below 0). */
export function remainingOf(usage: ResourceUsage, limits: BudgetLimits): BudgetLimits {
  const remaining: BudgetLimits = {};
  for (const dimension of USAGE_DIMENSIONS) {
    const limit = limits[dimension];
    if (limit !== undefined) remaining[dimension] = Math.max(0, limit - usage[dimension]);
  }
  return remaining;
}

/** The tighter of two grants: a dimension is granted only where both grant it. */
export function minLimits(a: BudgetLimits, b: BudgetLimits): BudgetLimits {
  const both: BudgetLimits = {};
  for (const dimension of USAGE_DIMENSIONS) {
    const left = a[dimension];
    const right = b[dimension];
    if (left !== undefined && right !== undefined) both[dimension] = Math.min(left, right);
  }
  return both;
}

/** True when a granted dimension has nothing left: the work it funds is paused (§12). */
export function exhaustedDimension(remaining: BudgetLimits): UsageDimension | undefined {
  return USAGE_DIMENSIONS.find((dimension) => remaining[dimension] === 0);
}

export type AllocationProblem =
  | { readonly reason: 'currency'; readonly dimension: 'financialMicrounits' }
  | { readonly reason: 'not-granted' | 'exceeds'; readonly dimension: UsageDimension; readonly allocated: number; readonly limit: number };

/**
 * Whether `allocations` together fit in `parent` (§12 "the Coordinator allocates no more than
 * those limits"): in every dimension their sum stays within the parent's grant, a dimension the
 * parent does not grant cannot be allocated, and money is allocated in the parent's currency.
 */
export function allocationProblem(allocations: readonly Budget[], parent: Budget): AllocationProblem | undefined {
  for (const allocation of allocations) {
    if (allocation.financialLimit !== undefined && allocation.currency !== parent.currency) return { reason: 'currency', dimension: 'financialMicrounits' };
  }
  const limits = limitsOf(parent);
  const sums = allocations.map(limitsOf);
  for (const dimension of USAGE_DIMENSIONS) {
    const allocated = sums.reduce((sum, granted) => sum + (granted[dimension] ?? 0), 0);
    const limit = limits[dimension];
    if (limit === undefined && allocated > 0) return { reason: 'not-granted', dimension, allocated, limit: 0 };
    if (limit !== undefined && allocated > limit) return { reason: 'exceeds', dimension, allocated, limit };
  }
  return undefined;
}
