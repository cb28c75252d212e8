/**
 * Cumulative allocation (§12 "the Coordinator allocates no more than those limits", §4.11): what
 * a Mission or WorkItem has allocated, together, never exceeds its own budget in any dimension,
 * money only in its own currency, and a dimension it leaves unset cannot be allocated at all.
 *
 * The account tree is the reference runtime's: a top-level WorkItem is allocated from its
 * Mission; a delegated sub-WorkItem (`parentWorkItemId`) and a child Mission promoted from a
 * WorkItem (§14) are allocated from that WorkItem. A child Mission's budget is recorded on its
 * parent WorkItem's account (`childBudgetOf`) when it is created, so the parent Group judges it
 * without reading the child's.
 *
 * What a finished WorkItem holds: a `verified`, `failed` or `cancelled` WorkItem can spend
 * nothing more (no lease is granted on it again), so it holds only what it used and releases the
 * rest of its allocation for the Coordinator to allocate elsewhere; its usage stays counted, as
 * money once spent is. A child Mission that has ended and been settled on its parent WorkItem
 * likewise holds nothing more of the WorkItem's allocation: what it used is already in the
 * WorkItem's own cumulative usage, which the ledger checks against the WorkItem's budget at every
 * charge, so a replacement child is bounded by what the WorkItem has left in fact.
 */

import type { Budget } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { refuse, type Refusal } from '../model.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { childBudgetOf, usageOf } from './usageAccount.js';
import { linksOf } from './workItemDocuments.js';
import { allocationProblem, fromMicrounits } from '../budgetMath.js';
import type { WorkRecord } from './workRecord.js';

const FINISHED: readonly WorkRecord['state'][] = ['verified', 'failed', 'cancelled'];

/** Only what a finished WorkItem used, as a budget in its own currency. */
function usedAsBudget(workItem: WorkRecord): Budget {
  const usage = usageOf(workItem);
  const { currency } = workItem.contract.budget;
  return {
    ...(usage.financialMicrounits > 0 && currency !== undefined ? { currency, financialLimit: fromMicrounits(usage.financialMicrounits) } : {}),
    ...(usage.modelTokens > 0 ? { modelTokenLimit: usage.modelTokens } : {}),
    ...(usage.toolCalls > 0 ? { toolCallLimit: usage.toolCalls } : {}),
    ...(usage.computeSeconds > 0 ? { computeSecondsLimit: usage.computeSeconds } : {}),
    ...(usage.wallClockSeconds > 0 ? { wallClockSecondsLimit: usage.wallClockSeconds } : {}),
    ...(usage.externalActions > 0 ? { externalSideEffectLimit: usage.externalActions } : {}),
  };
}

/** What a WorkItem holds of its parent's budget now. */
export function heldBy(workItem: WorkRecord): Budget {
  return FINISHED.includes(workItem.state) ? usedAsBudget(workItem) : workItem.contract.budget;
}

/** Where an allocation comes from: the Mission, or the WorkItem it is made under. */
export type AllocationSource = { readonly kind: 'mission' } | { readonly kind: 'work-item'; readonly workItem: WorkRecord };

/**
 * What `source` has allocated besides `except` (the WorkItem whose allocation is being made or
 * changed): its WorkItems' holdings and, under a WorkItem, its running child Mission's budget
 * unless `replacingChild`.
 */
export function allocatedFrom(state: GroupState, source: AllocationSource, except?: { readonly workItemId?: string; readonly replacingChild?: boolean }): Budget[] {
  const parentId = source.kind === 'work-item' ? source.workItem.workItemId : undefined;
  const held: Budget[] = [];
  for (const workItem of state.workItems.values()) {
    if (workItem.workItemId === except?.workItemId || linksOf(workItem).parentWorkItemId !== parentId) continue;
    held.push(heldBy(workItem));
  }
  if (source.kind === 'work-item' && except?.replacingChild !== true) {
    const child = linksOf(source.workItem).childMission;
    const childBudget = childBudgetOf(source.workItem);
    if (child !== undefined && child.outcome === undefined && childBudget !== undefined) held.push(childBudget);
  }
  return held;
}

/**
 * BUDGET_EXCEEDED when `added` does not fit beside what `source` already allocated; `null` when
 * it does.
 */
export function checkAllocation(state: GroupState, source: AllocationSource, added: Budget, except?: { readonly workItemId?: string; readonly replacingChild?: boolean }): Refusal | null {
  const parent = source.kind === 'mission' ? state.mission.budget : source.workItem.contract.budget;
  const problem = allocationProblem([...allocatedFrom(state, source, except), added], parent);
  if (problem === undefined) return null;
  const from: JsonObject = source.kind === 'mission' ? { missionId: state.mission.missionId } : { workItemId: source.workItem.workItemId };
  const what = source.kind === 'mission' ? 'the Mission' : 'the parent WorkItem';
  const message =
    problem.reason === 'currency'
      ? `money is allocated only in the currency of ${what}`
      : problem.reason === 'not-granted'
        ? `${what} grants no ${problem.dimension}, so none can be allocated`
        : `the allocations would exceed the ${problem.dimension} budget of ${what}`;
  const amounts: JsonObject = problem.reason === 'currency' ? {} : { allocated: problem.allocated, limit: problem.limit };
  return refuse('BUDGET_EXCEEDED', `allocation-${problem.reason}`, message, { ...from, dimension: problem.dimension, ...amounts });
}

/** The source a WorkItem with parent `parentWorkItemId` is allocated from. */
export function sourceOf(state: GroupState, parentWorkItemId: string | undefined): AllocationSource {
  const parent = parentWorkItemId === undefined ? undefined : state.workItems.get(parentWorkItemId);
  return parent === undefined ? { kind: 'mission' } : { kind: 'work-item', workItem: parent };
}
