/**
 * A WorkItem's budget account (§12), kept in a non-critical WorkItem extension: its cumulative
 * usage — its own and that of everything allocated from it (delegated sub-WorkItems, a child
 * Mission), as in the reference runtime's account tree — the budget it allocated to a child
 * Mission, and whether exhaustion paused it. The Mission's usage is the sum over its top-level
 * WorkItems (those without a parent WorkItem), which already hold their descendants'.
 *
 * The `ext.missionweaveprotocol.core.resource_usage_recorded` Event records one charge in the
 * Group of the charged WorkItem (`ledger.ts` decides it); its evolve also applies the parent
 * WorkItems in the same Group that the charge rolled up into.
 */

import type { Budget, Extension, WorkItem } from '../documents.js';
import { withEntry, type GroupState } from '../kinds/groupState.js';
import { defineEvent } from '../kinds/kindTypes.js';
import type { GroupEventType } from '../kinds/kindTypes.js';
import type { WorkItemEventPayload } from './workEvents.js';
import { linksOf } from './workItemDocuments.js';
import { addUsage, NO_USAGE, type ResourceUsage, type UsageDimension } from '../budgetMath.js';
import { workAddressees } from './workAddressees.js';
import { workRecordOf, type WorkItemDocument, type WorkRecord } from './workRecord.js';

export const RESOURCE_USAGE_EXTENSION = 'urn:missionweave:extension:resource-usage';
const RESOURCE_USAGE_VERSION = '0.1.0';

/** Why the WorkItem's work is paused: a granted dimension of its ancestry has nothing left (§12). */
export interface BudgetPause {
  readonly dimension: UsageDimension;
  /** The account that ran out: this WorkItem, an ancestor WorkItem, or a Mission. */
  readonly accountId: string;
  readonly since: string;
}

interface UsageAccount {
  readonly usage?: ResourceUsage;
  /** The budget allocated to the child Mission promoted from this WorkItem (§14). */
  readonly childBudget?: Budget;
  readonly paused?: BudgetPause;
}

function accountOf(workItem: WorkItem): UsageAccount {
  return (workItem.extensions?.[RESOURCE_USAGE_EXTENSION]?.data ?? {}) as UsageAccount;
}

function withAccount<W extends WorkItem>(workItem: W, account: UsageAccount): W {
  const extension = { version: RESOURCE_USAGE_VERSION, critical: false, data: account } as unknown as Extension;
  return { ...workItem, extensions: { ...workItem.extensions, [RESOURCE_USAGE_EXTENSION]: extension } };
}

export function usageOf(workItem: WorkItem): ResourceUsage {
  return accountOf(workItem).usage ?? NO_USAGE;
}

export function withUsage<W extends WorkItem>(workItem: W, usage: ResourceUsage): W {
  return withAccount(workItem, { ...accountOf(workItem), usage });
}

export function childBudgetOf(workItem: WorkItem): Budget | undefined {
  return accountOf(workItem).childBudget;
}

export function withChildBudget<W extends WorkItem>(workItem: W, childBudget: Budget): W {
  return withAccount(workItem, { ...accountOf(workItem), childBudget });
}

export function budgetPauseOf(workItem: WorkItem): BudgetPause | undefined {
  return accountOf(workItem).paused;
}

/** The WorkItem paused by `pause`, or resumed when `pause` is undefined. */
export function withBudgetPause<W extends WorkItem>(workItem: W, pause: BudgetPause | undefined): W {
  const { paused: _lifted, ...rest } = accountOf(workItem);
  return withAccount(workItem, pause === undefined ? rest : { ...rest, paused: pause });
}

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
