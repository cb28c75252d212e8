/**
 * Usage charged to WorkItems (§12). A WorkItem's account (`usageAccount.ts`) holds its cumulative
 * usage — its own and that of everything allocated from it (delegated sub-WorkItems, a child
 * Mission), as in the reference runtime's account tree. The Mission's usage is the sum over its
 * top-level WorkItems (those without a parent WorkItem), which already hold their descendants'.
 *
 * The `ext.missionweaveprotocol.core.resource_usage_recorded` Event records one charge in the
 * Group of the charged WorkItem (`ledger.ts` decides it); its evolve also applies the parent
 * WorkItems in the same Group that the charge rolled up into.
 */

import { withEntry, type GroupState } from '../kinds/groupState.js';
import { defineEvent } from '../kinds/kindTypes.js';
import type { GroupEventType } from '../kinds/kindTypes.js';
import type { WorkItemEventPayload } from './workEvents.js';
import { linksOf } from './workItemDocuments.js';
import { addUsage, NO_USAGE, type ResourceUsage } from '../budgetMath.js';
import { usageOf, type BudgetPause } from './usageAccount.js';
import { workAddressees } from './workAddressees.js';
import { workRecordOf, type WorkItemDocument, type WorkRecord } from './workRecord.js';

/** The Mission's usage: the sum over its top-level WorkItems, which hold their descendants'. */
export function missionUsageOf(state: GroupState): ResourceUsage {
  let total = NO_USAGE;
  for (const workItem of state.workItems.values()) {
    if (linksOf(workItem).parentWorkItemId === undefined) total = addUsage(total, usageOf(workItem));
  }
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
  /** Present when the charge left nothing of a granted dimension: the WorkItem is paused. */
  readonly budgetPause?: BudgetPause;
  /** The parent WorkItems in this Group the charge rolled up into, nearest first. */
  readonly parentWorkItems?: readonly WorkItemDocument[];
}

/** Folds a charge: the charged WorkItem and the parent WorkItems it rolled up into. */
export function withCharged(state: GroupState, workItems: readonly WorkRecord[]): GroupState {
  let items = state.workItems;
  for (const workItem of workItems) items = withEntry(items, workItem.workItemId, workItem);
  return { ...state, workItems: items };
}

export const resourceUsageRecorded: GroupEventType<'ext.missionweaveprotocol.core.resource_usage_recorded', ResourceUsageRecordedPayload> = defineEvent<ResourceUsageRecordedPayload>()({
  kind: 'ext.missionweaveprotocol.core.resource_usage_recorded',
  addressees: workAddressees,
  evolve: (state, payload) => withCharged(state, [payload.workItem, ...(payload.parentWorkItems ?? [])].map(workRecordOf)),
}) as GroupEventType<'ext.missionweaveprotocol.core.resource_usage_recorded', ResourceUsageRecordedPayload>;
