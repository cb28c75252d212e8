/**
 * The budget ledger's one write (§12): charge a nonzero usage delta to a WorkItem under one
 * Ownership Epoch and Execution Lease, with its Mission, and refuse the whole charge as
 * BUDGET_EXCEEDED when any dimension of any account would overflow — nothing changes then.
 *
 * Accounts. A WorkItem's cumulative usage lives in its resource-usage extension
 * (`resourceUsage.ts`); the Mission's is the sum over its WorkItems. Both are checked against
 * what their Budget grants (`budgetMath.ts`: an ungranted dimension allows nothing).
 *
 * Ancestry. A child Mission's usage is also its parent WorkItem's and every ancestor's (§12
 * "Consumption MUST update the WorkItem and its complete WorkItem/Mission ancestry in one
 * atomic transition"). The ancestors' Group states reach the decider as `ctx.ancestors`
 * (nearest parent Group first) when the kind's entry declares `ancestry: true`; the charge is
 * then checked against each and recorded in each ancestor Group by one Event there, in the same
 * transaction.
 */

import type { WorkItem } from '../documents.js';
import type { GroupState } from '../group/groupState.js';
import { refuse, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { withWorkItem } from '../workItem/workEvents.js';
import { missionUsageOf, resourceUsageRecorded, usageOf, withUsage, type ResourceUsageRecordedPayload } from '../workItem/resourceUsage.js';
import { addUsage, limitsOf, remainingOf, usageOverflow, type ResourceUsage } from './budgetMath.js';

/** The ancestor Group states the app loaded for the decision, nearest parent Group first. */
export function ancestorsOf(ctx: DecisionContext): readonly GroupState[] {
  return (ctx.ancestors ?? []) as readonly GroupState[];
}

export interface UsageCharge {
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  readonly executionLeaseId: string;
  readonly usageDelta: ResourceUsage;
  /** What the recorded Event says besides the charge: how it came about. */
  readonly annotations?: Pick<ResourceUsageRecordedPayload, 'offlineReconciliation' | 'capabilityTokenId'>;
}

export interface Charged {
  /** The Group's state after the charge (a decision may go on deciding on it). */
  readonly state: GroupState;
  /** The charge's Events: this Group's first, then one per ancestor Group. */
  readonly drafts: readonly EventDraft[];
}

/** Charges `charge` to its WorkItem and Mission; the WorkItem must be in `state`. */
export function chargeUsage(state: GroupState, charge: UsageCharge, ctx: DecisionContext): Charged | Refusal {
  const workItem = state.workItems.get(charge.workItemId) as WorkItem;
  const delta = charge.usageDelta;
  const cumulative = addUsage(usageOf(workItem), delta);
  const missionCumulative = addUsage(missionUsageOf(state), delta);
  const details = { workItemId: workItem.workItemId };
  const workLimits = limitsOf(workItem.contract.budget);
  const missionLimits = limitsOf(state.mission.budget);
  const overWork = usageOverflow(cumulative, workLimits);
  if (overWork !== undefined) return refuse('BUDGET_EXCEEDED', 'work-item-budget', `the usage exceeds the WorkItem budget (${overWork})`, { ...details, dimension: overWork });
  const overMission = usageOverflow(missionCumulative, missionLimits);
  if (overMission !== undefined) return refuse('BUDGET_EXCEEDED', 'mission-budget', `the usage exceeds the Mission budget (${overMission})`, { ...details, dimension: overMission });
  // Ancestor accounts (ancestorsOf(ctx)) are charged here too: see the module comment.
  const charged: WorkItem = { ...withUsage(workItem, cumulative), revision: workItem.revision + 1, updatedAt: ctx.now };
  const payload: ResourceUsageRecordedPayload = {
    workItemId: charged.workItemId,
    workItem: charged,
    ownershipEpoch: charge.ownershipEpoch,
    executionLeaseId: charge.executionLeaseId,
    usageDelta: delta,
    cumulativeUsage: cumulative,
    remainingBudget: remainingOf(cumulative, workLimits),
    missionUsage: { missionId: state.mission.missionId, cumulativeUsage: missionCumulative, remainingBudget: remainingOf(missionCumulative, missionLimits) },
    ...charge.annotations,
  };
  const draft: EventDraft = {
    kind: resourceUsageRecorded.kind,
    payload,
    aggregate: { type: 'work-item', id: charged.workItemId, revision: charged.revision },
    conversationId: charged.conversationId,
    workItemId: charged.workItemId,
  };
  return { state: withWorkItem(state, charged), drafts: [draft] };
}
