/**
 * `ext.missionweave.core.budget_revise` (ours): the explicit escalation that lifts a budget
 * exhaustion pause (§12 "exhaustion pauses the affected work until an explicit escalation").
 *
 * - Without `workItemId`, the MissionOwner revises the Mission's budget. A child Mission's budget
 *   is allocated from its parent WorkItem (§14), so it may grow only within what that WorkItem
 *   can still allocate; the parent Group records the new allocation on the WorkItem
 *   (`child_budget_revised`, in the same transaction: the kind locks the ancestry).
 * - With `workItemId`, the Coordinator revises that WorkItem's budget within what its Mission or
 *   parent WorkItem has not allocated elsewhere (`allocation.ts`). It is the core
 *   `work.contract.revised` with a new `contractVersion`; unlike a dependency, a budget is a cap
 *   the owner already works under, so the owner and its leases stay.
 *
 * Either way the new budget must still cover what is already used and allocated beneath it, in
 * the same currency. Every WorkItem of the Group whose pause no longer holds — every account of
 * its ancestry leaves something (`exhaustionOf`) — resumes in the same Event. A pause caused
 * by an account in an ancestor Group is lifted by a revision in the paused WorkItem's own Group
 * once the ancestor has been revised (the budget may be restated unchanged). The ancestor's own
 * revision cannot do it: a Command locks its Group and that Group's ancestors, never its
 * descendants, whose number no limit bounds, so it cannot write them in its transaction
 * (docs/transitions.md, `budget_revise`, says how an operator escalates in two steps).
 */

import type { Budget } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { holdsCoordinatorLease, isMissionOwner } from '../stateQueries.js';
import { defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { checkWorkState, isRefusal, workItemNamed } from '../workItem/fencing.js';
import { workContractRevised } from '../workItem/workDependencyAdd.js';
import type { WorkContractRevisedPayload } from '../workItem/workEvents.js';
import { missionUsageOf } from '../workItem/resourceUsage.js';
import { budgetPauseOf, usageOf, withBudgetPause, withChildBudget } from '../workItem/usageAccount.js';
import { linksOf } from '../workItem/workItemDocuments.js';
import { allocatedFrom, checkAllocation, sourceOf, type AllocationSource } from '../workItem/allocation.js';
import { allocationProblem, limitsOf, usageOverflow, type ResourceUsage } from '../budgetMath.js';
import { childBudgetRevised, missionBudgetRevised, type ChildBudgetRevisedPayload, type MissionBudgetRevisedPayload } from './budgetRevisedEvents.js';
import { ancestorsOf, exhaustionOf } from '../workItem/ledger.js';
import { BUDGET_REASONS } from './budgetReasons.js';
import { BUDGET_EXAMPLES } from './budgetExamples.js';
import { workItemDocument, type WorkRecord } from '../workItem/workRecord.js';

type ReviseCommand = CommandOf<'ext.missionweave.core.budget_revise'>;
type ReviseDraft =
  | EventDraft<'work.contract.revised', WorkContractRevisedPayload>
  | EventDraft<typeof missionBudgetRevised.kind, MissionBudgetRevisedPayload>
  | EventDraft<typeof childBudgetRevised.kind, ChildBudgetRevisedPayload>;

const REVISABLE: readonly WorkRecord['state'][] = ['open', 'offered', 'queued', 'active', 'blocked'];

/** The new budget covers the account's usage and what it allocated beneath it, in its currency. */
function checkCovers(state: GroupState, account: AllocationSource, previous: Budget, budget: Budget, used: ResourceUsage): Refusal | null {
  if (previous.currency !== undefined && budget.currency !== undefined && previous.currency !== budget.currency) {
    return refuse('INVALID_COMMAND', BUDGET_REASONS.budgetCurrencyChange, 'a budget is revised in its own currency', { currency: previous.currency });
  }
  const below = usageOverflow(used, limitsOf(budget));
  if (below !== undefined) return refuse('BUDGET_EXCEEDED', BUDGET_REASONS.revisionBelowUsage, `the new budget is below what is already used (${below})`, { dimension: below });
  const problem = allocationProblem(allocatedFrom(state, account), budget);
  if (problem !== undefined) return refuse('BUDGET_EXCEEDED', BUDGET_REASONS.revisionBelowAllocations, `the new budget does not hold what is already allocated (${problem.dimension})`, { dimension: problem.dimension });
  return null;
}

/** Paused WorkItems of `state` (besides `except`) whose ancestry leaves something again. */
function resumable(state: GroupState, ctx: DecisionContext, except?: string): WorkRecord[] {
  const resumed: WorkRecord[] = [];
  for (const workItem of state.workItems.values()) {
    if (workItem.workItemId === except || budgetPauseOf(workItem) === undefined || exhaustionOf(state, workItem.workItemId, ctx) !== undefined) continue;
    resumed.push({ ...withBudgetPause(workItem, undefined), revision: workItem.revision + 1, updatedAt: ctx.now });
  }
  return resumed;
}

function reviseMission(state: GroupState, command: ReviseCommand, ctx: DecisionContext): Decision<ReviseDraft> {
  const { budget, reason } = command.payload;
  if (!isMissionOwner(state, command.actor)) return refuse('AUTH_FORBIDDEN', BUDGET_REASONS.missionOwnerRequired, 'only the MissionOwner revises the Mission budget');
  const previous = state.mission.budget;
  const refused = checkCovers(state, { kind: 'mission' }, previous, budget, missionUsageOf(state));
  if (refused !== null) return refused;
  const drafts: ReviseDraft[] = [];
  const link = state.mission.parent;
  if (link !== undefined) {
    const parentGroup = ancestorsOf(ctx)[0];
    const parentItem = parentGroup?.workItems.get(link.workItemId);
    if (parentGroup === undefined || parentItem === undefined || parentGroup.mission.missionId !== link.missionId) {
      return refuse('INVALID_COMMAND', BUDGET_REASONS.ancestryMismatch, 'the loaded ancestry does not match the Mission parent link', { missionId: state.mission.missionId });
    }
    const fits = checkAllocation(parentGroup, { kind: 'work-item', workItem: parentItem }, budget, { replacingChild: true });
    if (fits !== null) return fits;
    const recorded: WorkRecord = { ...withChildBudget(parentItem, budget), revision: parentItem.revision + 1, updatedAt: ctx.now };
    drafts.push({
      kind: childBudgetRevised.kind,
      payload: { workItemId: recorded.workItemId, workItem: workItemDocument(recorded), childMissionId: state.mission.missionId, childGroupId: state.groupId, previousBudget: previous, budget },
      aggregate: { type: 'work-item', id: recorded.workItemId, revision: recorded.revision },
      workItemId: recorded.workItemId,
      groupId: parentGroup.groupId,
    });
  }
  const mission = { ...state.mission, budget, revision: state.mission.revision + 1 };
  const resumedWorkItems = resumable({ ...state, mission }, ctx);
  return accept<ReviseDraft>(
    {
      kind: missionBudgetRevised.kind,
      payload: { missionId: mission.missionId, mission, previousBudget: previous, budget, reason, resumedWorkItems: resumedWorkItems.map(workItemDocument) },
      aggregate: { type: 'mission', id: mission.missionId, revision: mission.revision },
    },
    ...drafts,
  );
}

function reviseWorkItem(state: GroupState, command: ReviseCommand, workItemId: string, ctx: DecisionContext): Decision<ReviseDraft> {
  const { budget, reason } = command.payload;
  if (!holdsCoordinatorLease(state, command.actor)) return refuse('AUTH_FORBIDDEN', BUDGET_REASONS.coordinatorRequired, 'only the Coordinator revises a WorkItem budget');
  const workItem = workItemNamed(state, workItemId);
  if (isRefusal(workItem)) return workItem;
  const previous = workItem.contract.budget;
  const refused =
    checkWorkState(workItem, REVISABLE, 'have its budget revised') ??
    checkCovers(state, { kind: 'work-item', workItem }, previous, budget, usageOf(workItem)) ??
    checkAllocation(state, sourceOf(state, linksOf(workItem).parentWorkItemId), budget, { workItemId });
  if (refused !== null) return refused;
  const contract = { ...workItem.contract, budget, contractVersion: workItem.contract.contractVersion + 1 };
  const next: WorkRecord = { ...workItem, contract, revision: workItem.revision + 1, updatedAt: ctx.now };
  const withNext: GroupState = { ...state, workItems: new Map(state.workItems).set(workItemId, next) };
  const revised = budgetPauseOf(next) !== undefined && exhaustionOf(withNext, workItemId, ctx) === undefined ? withBudgetPause(next, undefined) : next;
  return accept<ReviseDraft>({
    kind: 'work.contract.revised',
    payload: { workItemId, workItem: workItemDocument(revised), contractVersion: contract.contractVersion, revokedLeases: [], previousBudget: previous, reason },
    aggregate: { type: 'work-item', id: workItemId, revision: revised.revision },
    workItemId,
  });
}

export function decideBudgetRevise(state: GroupState, command: ReviseCommand, ctx: DecisionContext): Decision<ReviseDraft> {
  const { workItemId } = command.payload;
  return workItemId === undefined ? reviseMission(state, command, ctx) : reviseWorkItem(state, command, workItemId, ctx);
}

export const budgetRevise = defineKind({
  kind: 'ext.missionweave.core.budget_revise',
  examples: BUDGET_EXAMPLES['ext.missionweave.core.budget_revise'],
  scope: 'group',
  authority: ['mission-owner', 'coordinator'],
  missionStates: ['active'],
  events: [workContractRevised, missionBudgetRevised, childBudgetRevised],
  // A child Mission's revision is recorded on its parent WorkItem; a pause may stem from an ancestor.
  ancestry: true,
  target: (state, command) => (command.payload.workItemId === undefined ? state.mission.revision : state.workItems.get(command.payload.workItemId)?.revision),
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideBudgetRevise,
});
