/**
 * The resources a WorkItem has used (§12), as far as offline reconciliation (§11.5) charges them:
 * the WorkItem's cumulative usage in a non-critical WorkItem extension, the Mission's as the sum
 * over its WorkItems, and the `ext.missionweaveprotocol.core.resource_usage_recorded` Event that
 * records one charge. Deliberately minimal: the full six-dimensional ledger over the complete
 * WorkItem/Mission ancestry (child Missions in other Groups) is issue 12's; this keeps the same
 * Event kind and payload members so that ledger can take over the history.
 */

import type { Extension, WorkItem } from '../documents.js';
import type { GroupState } from '../group/groupState.js';
import { workItemEvent, type WorkItemEventPayload } from './workEvents.js';
import { addUsage, NO_USAGE, type ResourceUsage } from '../budget/budgetMath.js';

export const RESOURCE_USAGE_EXTENSION = 'urn:missionweave:extension:resource-usage';
const RESOURCE_USAGE_VERSION = '0.1.0';

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
  /** Present when the charge reconciles buffered offline progress (§11.5). */
  readonly offlineReconciliation?: OfflineReconciliation;
  /** Present when a tool host charged the call to a capability token (§12). */
  readonly capabilityTokenId?: string;
}

export const resourceUsageRecorded = workItemEvent<ResourceUsageRecordedPayload>()('ext.missionweaveprotocol.core.resource_usage_recorded');
