/**
 * Exhaustion pauses work until an explicit escalation (§12): a WorkItem whose charge left a
 * granted dimension of its ancestry with nothing remaining records a pause
 * (`resourceUsage.ts`), and nothing that spends more under it is accepted — `work.start`, an
 * Execution Lease renewal, a capability token (the Authorization Service calls this check) —
 * until a budget revision (`budgetRevise.ts`) leaves something again.
 */

import { refuse, type Refusal } from '../model.js';
import { budgetPauseOf } from './usageAccount.js';
import { WORK_REASONS } from './workReasons.js';
import type { WorkRecord } from './workRecord.js';

/** `null` when the WorkItem's work may spend; BUDGET_EXCEEDED 'budget-exhausted' while paused. */
export function checkBudgetPause(workItem: WorkRecord): Refusal | null {
  const pause = budgetPauseOf(workItem);
  if (pause === undefined) return null;
  return refuse('BUDGET_EXCEEDED', WORK_REASONS.budgetExhausted, `the work is paused: the budget of ${pause.accountId} has no ${pause.dimension} left`, {
    workItemId: workItem.workItemId,
    accountId: pause.accountId,
    dimension: pause.dimension,
  });
}
