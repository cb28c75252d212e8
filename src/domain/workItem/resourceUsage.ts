/**
 * The resources a WorkItem has used (§12), as far as offline reconciliation (§11.5) charges them:
 * the WorkItem's cumulative usage in a non-critical WorkItem extension, the Mission's as the sum
 * over its WorkItems, and the `ext.missionweaveprotocol.core.resource_usage_recorded` Event that
 * records one charge. Deliberately minimal: the full six-dimensional ledger over the complete
 * WorkItem/Mission ancestry (child Missions in other Groups) is issue 12's; this keeps the same
 * Event kind and payload members so that ledger can take over the history.
 */

import type { Budget, Extension, WorkItem } from '../documents.js';
import type { GroupState } from '../group/groupState.js';
import { workItemEvent, type WorkItemEventPayload } from './workEvents.js';
import { addUsage, NO_USAGE, USAGE_DIMENSIONS, type ResourceUsage } from './offlineBinding.js';

export const RESOURCE_USAGE_EXTENSION = 'urn:missionweave:extension:resource-usage';
const RESOURCE_USAGE_VERSION = '0.1.0';

/** Money limits are in currency units; usage in millionths of one (the reference's unit). */
const MICROUNITS_PER_UNIT = 1_000_000;

export function usageOf(workItem: WorkItem): ResourceUsage {
  const data = workItem.extensions?.[RESOURCE_USAGE_EXTENSION]?.data as { usage?: ResourceUsage } | undefined;
  return data?.usage ?? NO_USAGE;
}

export function withUsage(workItem: WorkItem, usage: ResourceUsage): WorkItem {
  const extension = { version: RESOURCE_USAGE_VERSION, critical: false, data: { usage } } as unknown as Extension;
  return { ...workItem, extensions: { ...workItem.extensions, [RESOURCE_USAGE_EXTENSION]: extension } };
}

/** The Mission's usage: every charge in this Group is a WorkItem's, so the sum of theirs. */
export function missionUsageOf(state: GroupState): ResourceUsage {
  let total = NO_USAGE;
  for (const workItem of state.workItems.values()) total = addUsage(total, usageOf(workItem));
  return total;
}

/** Each dimension's limit in usage units; `undefined` where the budget sets none (unbounded). */
function limitsOf(budget: Budget): Partial<Record<keyof ResourceUsage, number>> {
  const limits: Partial<Record<keyof ResourceUsage, number>> = {
    modelTokens: budget.modelTokenLimit,
    toolCalls: budget.toolCallLimit,
    computeSeconds: budget.computeSecondsLimit,
    wallClockSeconds: budget.wallClockSecondsLimit,
    externalActions: budget.externalSideEffectLimit,
  };
  if (budget.financialLimit !== undefined) limits.financialMicrounits = Math.round(budget.financialLimit * MICROUNITS_PER_UNIT);
  return limits;
}

/** The first dimension `usage` takes past `budget`, or `undefined` when it stays within (§12). */
export function overflowOf(usage: ResourceUsage, budget: Budget): keyof ResourceUsage | undefined {
  const limits = limitsOf(budget);
  return USAGE_DIMENSIONS.find((dimension) => {
    const limit = limits[dimension];
    return limit !== undefined && usage[dimension] > limit;
  });
}

/** What is left of each limited dimension after `usage`. */
export function remainingOf(usage: ResourceUsage, budget: Budget): Partial<ResourceUsage> {
  const limits = limitsOf(budget);
  const remaining: Partial<Record<keyof ResourceUsage, number>> = {};
  for (const dimension of USAGE_DIMENSIONS) {
    const limit = limits[dimension];
    if (limit !== undefined) remaining[dimension] = limit - usage[dimension];
  }
  return remaining;
}

/** How a charge came about: the historical execution and the session that reconciled it (§11.5). */
export interface OfflineReconciliation {
  readonly disconnectedAt: string;
  readonly bufferedAt: string;
  readonly graceDeadline: string;
  readonly executionSessionEpoch: number;
  readonly reconciliationSessionEpoch: number;
  readonly reconciledAt: string;
  readonly progressActionId: string;
  readonly progressKind: string;
}

/** `ext.missionweaveprotocol.core.resource_usage_recorded`: one charge, WorkItem and Mission. */
export interface ResourceUsageRecordedPayload extends WorkItemEventPayload {
  readonly ownershipEpoch: number;
  readonly executionLeaseId: string;
  readonly usageDelta: ResourceUsage;
  readonly cumulativeUsage: ResourceUsage;
  readonly remainingBudget: Partial<ResourceUsage>;
  readonly missionUsage: {
    readonly missionId: string;
    readonly cumulativeUsage: ResourceUsage;
    readonly remainingBudget: Partial<ResourceUsage>;
  };
  readonly offlineReconciliation: OfflineReconciliation;
}

export const resourceUsageRecorded = workItemEvent<ResourceUsageRecordedPayload>()('ext.missionweaveprotocol.core.resource_usage_recorded');
