/**
 * A WorkItem's budget account (§12): its cumulative usage (its own and that of everything
 * allocated from it, see `resourceUsage.ts`), the budget it allocated to a child Mission, and
 * whether exhaustion paused it. It is the typed `account` field of the work slice's WorkItem
 * record (`workRecord.ts`), which travels and is stored as one non-critical WorkItem extension.
 */

import type { Budget } from '../documents.js';
import { NO_USAGE, type ResourceUsage, type UsageDimension } from '../budgetMath.js';

export const RESOURCE_USAGE_EXTENSION = 'urn:missionweave:extension:resource-usage';
export const RESOURCE_USAGE_VERSION = '0.1.0';

/** Why the WorkItem's work is paused: a granted dimension of its ancestry has nothing left (§12). */
export interface BudgetPause {
  readonly dimension: UsageDimension;
  /** The account that ran out: this WorkItem, an ancestor WorkItem, or a Mission. */
  readonly accountId: string;
  readonly since: string;
}

export interface UsageAccount {
  readonly usage?: ResourceUsage;
  /** The budget allocated to the child Mission promoted from this WorkItem (§14). */
  readonly childBudget?: Budget;
  readonly paused?: BudgetPause;
}

/** The part of a WorkItem record (`workRecord.ts`) that holds its budget account. */
export interface WithAccount {
  readonly account: UsageAccount | undefined;
}

const NO_ACCOUNT: UsageAccount = {};

function accountOf(record: WithAccount): UsageAccount {
  return record.account ?? NO_ACCOUNT;
}

export function usageOf(record: WithAccount): ResourceUsage {
  return accountOf(record).usage ?? NO_USAGE;
}

export function withUsage<R extends WithAccount>(record: R, usage: ResourceUsage): R {
  return { ...record, account: { ...accountOf(record), usage } };
}

export function childBudgetOf(record: WithAccount): Budget | undefined {
  return accountOf(record).childBudget;
}

export function withChildBudget<R extends WithAccount>(record: R, childBudget: Budget): R {
  return { ...record, account: { ...accountOf(record), childBudget } };
}

export function budgetPauseOf(record: WithAccount): BudgetPause | undefined {
  return accountOf(record).paused;
}

/** The WorkItem paused by `pause`, or resumed when `pause` is undefined. */
export function withBudgetPause<R extends WithAccount>(record: R, pause: BudgetPause | undefined): R {
  const { paused: _lifted, ...rest } = accountOf(record);
  return { ...record, account: pause === undefined ? rest : { ...rest, paused: pause } };
}
