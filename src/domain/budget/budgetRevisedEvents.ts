/**
 * The Events of a budget revision of ours (`budgetRevise.ts`, §12): a Mission's new budget, and
 * its record on the parent WorkItem when the Mission is a child (§14), in the parent Group. A
 * WorkItem's revision is the core `work.contract.revised`.
 */

import type { Budget, Mission } from '../documents.js';
import { defineEvent } from '../kinds/kindTypes.js';
import type { WorkItemEventPayload } from '../workItem/workEvents.js';
import { withCharged } from '../workItem/resourceUsage.js';
import { withWorkItem } from '../workItem/workEvents.js';
import { workAddressees } from '../workItem/workAddressees.js';
import { workRecordOf, type WorkItemDocument } from '../workItem/workRecord.js';

export interface MissionBudgetRevisedPayload {
  readonly missionId: string;
  readonly mission: Mission;
  readonly previousBudget: Budget;
  readonly budget: Budget;
  readonly reason: string;
  /** WorkItems whose budget pause the revision lifted: something remains in every account. */
  readonly resumedWorkItems: readonly WorkItemDocument[];
}

export const missionBudgetRevised = defineEvent<MissionBudgetRevisedPayload>()({
  kind: 'ext.missionweave.core.mission_budget_revised',
  evolve: (state, payload) => withCharged({ ...state, mission: payload.mission }, payload.resumedWorkItems.map(workRecordOf)),
});

export interface ChildBudgetRevisedPayload extends WorkItemEventPayload {
  readonly childMissionId: string;
  readonly childGroupId: string;
  readonly previousBudget: Budget;
  readonly budget: Budget;
}

/** In the parent Group: the child Mission's new budget, allocated from its parent WorkItem. */
export const childBudgetRevised = defineEvent<ChildBudgetRevisedPayload>()({
  kind: 'ext.missionweave.core.child_budget_revised',
  addressees: workAddressees,
  evolve: (state, payload) => withWorkItem(state, payload.workItem),
});
