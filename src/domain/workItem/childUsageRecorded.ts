/**
 * `ext.missionweave.core.child_usage_recorded`: a charge in a descendant Mission's Group, recorded
 * in an ancestor Group on the WorkItem the descendant was promoted from (§12 "Consumption MUST
 * update the WorkItem and its complete WorkItem/Mission ancestry in one atomic transition", §14).
 * The ledger (`ledger.ts`) appends one per ancestor Group in the transaction of the charge; its
 * Group's readers see their own Mission's usage move without reading the child's Group.
 */

import { defineEvent } from '../kinds/kindTypes.js';
import type { WorkItemEventPayload } from './workEvents.js';
import { withCharged } from './resourceUsage.js';
import type { BudgetLimits, ResourceUsage } from '../budgetMath.js';
import { workAddressees } from './workAddressees.js';
import { workRecordOf, type WorkItemDocument } from './workRecord.js';

export interface ChildUsageRecordedPayload extends WorkItemEventPayload {
  /** The parent WorkItems in this Group the charge rolled up into, nearest first. */
  readonly parentWorkItems: readonly WorkItemDocument[];
  /** The child Mission (one level down) whose usage this is, and its Group. */
  readonly childMissionId: string;
  readonly childGroupId: string;
  /** Where the usage was charged: the WorkItem in the descendant Group. */
  readonly origin: { readonly groupId: string; readonly workItemId: string };
  readonly usageDelta: ResourceUsage;
  /** The parent WorkItem's cumulative usage after the charge. */
  readonly cumulativeUsage: ResourceUsage;
  readonly missionUsage: { readonly missionId: string; readonly cumulativeUsage: ResourceUsage; readonly remainingBudget: BudgetLimits };
}

export const childUsageRecorded = defineEvent<ChildUsageRecordedPayload>()({
  kind: 'ext.missionweave.core.child_usage_recorded',
  addressees: workAddressees,
  evolve: (state, payload) => withCharged(state, [payload.workItem, ...payload.parentWorkItems].map(workRecordOf)),
});
