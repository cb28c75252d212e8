/**
 * The budget ledger's one write (§12): charge a nonzero usage delta to a WorkItem under one
 * Ownership Epoch and Execution Lease, with its complete WorkItem/Mission ancestry, and refuse the
 * whole charge as BUDGET_EXCEEDED when any dimension of any account would overflow — nothing
 * changes anywhere then.
 *
 * Accounts, as the reference runtime's tree: a WorkItem (its cumulative usage in its
 * resource-usage extension, `resourceUsage.ts`), the parent WorkItem a delegated sub-WorkItem was
 * allocated from, the Mission, and — for a child Mission (§14) — the parent WorkItem it was
 * promoted from in the parent Group, that WorkItem's own parents and Mission, and so on to the
 * root. Each is checked against what its Budget grants (`budgetMath.ts`: an ungranted dimension
 * allows nothing), so the effective remaining budget is the minimum over the ancestry.
 *
 * Ancestry. §12 "Consumption MUST update the WorkItem and its complete WorkItem/Mission ancestry
 * in one atomic transition": the ancestors' Group states reach the decider as `ctx.ancestors`
 * (nearest parent Group first) when the kind declares `ancestry: true`, locked and loaded by the
 * app in the same transaction; the charge appends one `ext.missionweave.core.child_usage_recorded`
 * Event in each ancestor Group, after the charged Group's `resource_usage_recorded`.
 *
 * Exhaustion (§12 "exhaustion pauses the affected work until an explicit escalation"): when the
 * charge leaves a granted dimension of any account with nothing remaining, the charged WorkItem
 * records a pause (`budgetPause.ts` refuses to start or renew its work) until a budget revision
 * (`budgetRevise.ts`) leaves something again.
 */

import { withCapabilityCharge } from './capabilityGrants.js';
import type { GroupState } from '../kinds/groupState.js';
import { refuse, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { linksOf } from './workItemDocuments.js';
import { missionUsageOf, resourceUsageRecorded, withCharged, type ResourceUsageRecordedPayload } from './resourceUsage.js';
import { usageOf, withBudgetPause, withUsage, type BudgetPause } from './usageAccount.js';
import { addUsage, limitsOf, minLimits, NO_USAGE, remainingOf, usageOverflow, USAGE_DIMENSIONS, type BudgetLimits, type ResourceUsage } from '../budgetMath.js';
import { childUsageRecorded, type ChildUsageRecordedPayload } from './childUsageRecorded.js';
import { MAX_LEDGER_ANCESTRY } from './budgetLimits.js';
import { WORK_REASONS } from './workReasons.js';
import { workItemDocument, type WorkRecord } from './workRecord.js';

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

/** The Events of a charge, typed by kind. */
export type ChargeDraft =
  | EventDraft<typeof resourceUsageRecorded.kind, ResourceUsageRecordedPayload>
  | EventDraft<typeof childUsageRecorded.kind, ChildUsageRecordedPayload>;

export interface Charged {
  /** The Group's state after the charge (a decision may go on deciding on it). */
  readonly state: GroupState;
  /** The charge's Events: this Group's first, then one per ancestor Group. */
  readonly drafts: readonly ChargeDraft[];
}

/** One account's remaining budget, and who it is. */
interface AccountRemaining {
  readonly accountId: string;
  readonly remaining: BudgetLimits;
}

/** The charge applied to one Group: its WorkItems (charged first, then parents) and Mission. */
interface GroupCharge {
  readonly workItems: readonly WorkRecord[];
  readonly missionCumulative: ResourceUsage;
  readonly accounts: readonly AccountRemaining[];
}

/** The WorkItem `workItemId` and the parent WorkItems it was allocated from, nearest first. */
function workItemChain(state: GroupState, workItemId: string): WorkRecord[] | Refusal {
  const chain: WorkRecord[] = [];
  let current: string | undefined = workItemId;
  while (current !== undefined) {
    const workItem = state.workItems.get(current);
    // The delegation depth bound (§9.1) keeps real chains short; a cycle is a corrupt state.
    if (workItem === undefined || chain.length > state.workItems.size) {
      return refuse('INVALID_COMMAND', WORK_REASONS.workItemUnknown, 'the WorkItem or one of its parents is not in its Group', { workItemId: current, groupId: state.groupId });
    }
    chain.push(workItem);
    current = linksOf(workItem).parentWorkItemId;
  }
  return chain;
}

/** Charges `delta` to the accounts of one Group, or refuses the overflow. */
function chargeGroup(state: GroupState, workItemId: string, delta: ResourceUsage, ctx: DecisionContext): GroupCharge | Refusal {
  const chain = workItemChain(state, workItemId);
  if ('ok' in chain) return chain;
  const workItems: WorkRecord[] = [];
  const accounts: AccountRemaining[] = [];
  for (const workItem of chain) {
    const cumulative = addUsage(usageOf(workItem), delta);
    const limits = limitsOf(workItem.contract.budget);
    const over = usageOverflow(cumulative, limits);
    if (over !== undefined) {
      return refuse('BUDGET_EXCEEDED', WORK_REASONS.workItemBudget, `the usage exceeds the WorkItem budget (${over})`, { workItemId: workItem.workItemId, groupId: state.groupId, dimension: over });
    }
    workItems.push({ ...withUsage(workItem, cumulative), revision: workItem.revision + 1, updatedAt: ctx.now });
    accounts.push({ accountId: workItem.workItemId, remaining: remainingOf(cumulative, limits) });
  }
  const missionCumulative = addUsage(missionUsageOf(state), delta);
  const missionLimits = limitsOf(state.mission.budget);
  const over = usageOverflow(missionCumulative, missionLimits);
  if (over !== undefined) {
    return refuse('BUDGET_EXCEEDED', WORK_REASONS.missionBudget, `the usage exceeds the Mission budget (${over})`, { missionId: state.mission.missionId, groupId: state.groupId, dimension: over });
  }
  accounts.push({ accountId: state.mission.missionId, remaining: remainingOf(missionCumulative, missionLimits) });
  return { workItems, missionCumulative, accounts };
}

/**
 * What is left for the charged WorkItem: per dimension its own budget grants, the least any
 * account of the ancestry leaves (an account that does not grant it leaves nothing).
 */
function effectiveRemaining(accounts: readonly AccountRemaining[]): BudgetLimits {
  const [own, ...others] = accounts;
  const effective: BudgetLimits = {};
  for (const dimension of USAGE_DIMENSIONS) {
    const left = own?.remaining[dimension];
    if (left !== undefined) effective[dimension] = others.reduce((min, account) => Math.min(min, account.remaining[dimension] ?? 0), left);
  }
  return effective;
}

/** The first account whose granted dimension the charge left at nothing. */
function exhaustion(accounts: readonly AccountRemaining[], now: string): BudgetPause | undefined {
  for (const account of accounts) {
    const dimension = USAGE_DIMENSIONS.find((d) => account.remaining[d] === 0);
    if (dimension !== undefined) return { dimension, accountId: account.accountId, since: now };
  }
  return undefined;
}

/** The Event recording the charge in an ancestor Group, on the parent WorkItem of `child`. */
function ancestorDraft(ancestor: GroupState, child: GroupState, charged: GroupCharge, origin: { groupId: string; workItemId: string }, delta: ResourceUsage): ChargeDraft {
  const [parentWorkItem, ...parentWorkItems] = charged.workItems as [WorkRecord, ...WorkRecord[]];
  const payload: ChildUsageRecordedPayload = {
    workItemId: parentWorkItem.workItemId,
    workItem: workItemDocument(parentWorkItem),
    parentWorkItems: parentWorkItems.map(workItemDocument),
    childMissionId: child.mission.missionId,
    childGroupId: child.groupId,
    origin,
    usageDelta: delta,
    cumulativeUsage: usageOf(parentWorkItem),
    missionUsage: {
      missionId: ancestor.mission.missionId,
      cumulativeUsage: charged.missionCumulative,
      remainingBudget: remainingOf(charged.missionCumulative, limitsOf(ancestor.mission.budget)),
    },
  };
  return {
    kind: childUsageRecorded.kind,
    payload,
    aggregate: { type: 'work-item', id: parentWorkItem.workItemId, revision: parentWorkItem.revision },
    conversationId: parentWorkItem.conversationId,
    workItemId: parentWorkItem.workItemId,
    groupId: ancestor.groupId,
  };
}

/** Why an ancestry could not be walked, and at which account. */
interface UnwalkedAncestry {
  readonly refusal: Refusal;
  readonly accountId: string;
}

/**
 * Every account of the ancestry of `workItemId` (this Group's and `ctx.ancestors`), nearest first,
 * with what it leaves; with `complete`, an ancestry whose root the loaded Groups do not reach
 * cannot be walked either.
 */
function ancestryAccounts(state: GroupState, workItemId: string, ctx: DecisionContext, complete: boolean): AccountRemaining[] | UnwalkedAncestry {
  const walked: AccountRemaining[] = [];
  let current = state;
  let target = workItemId;
  const mismatch = (missionId: string): UnwalkedAncestry => ({
    refusal: refuse('INVALID_COMMAND', WORK_REASONS.ancestryMismatch, 'the loaded ancestry does not match the Mission parent link', { missionId }),
    accountId: missionId,
  });
  for (const next of [undefined, ...ancestorsOf(ctx)]) {
    if (next !== undefined) {
      const link = current.mission.parent;
      if (link === undefined || link.missionId !== next.mission.missionId) return mismatch(current.mission.missionId);
      target = link.workItemId;
      current = next;
    }
    const accounts = chargeGroup(current, target, NO_USAGE, ctx);
    if ('ok' in accounts) return { refusal: accounts, accountId: target };
    walked.push(...accounts.accounts);
  }
  return complete && current.mission.parent !== undefined ? mismatch(current.mission.missionId) : walked;
}

/**
 * Where the work of `workItemId` stands after a budget revision: the first account of its
 * ancestry (this Group's and `ctx.ancestors`) with nothing left of a granted dimension, or
 * `undefined` when every account leaves something and a pause may be lifted. An ancestry that
 * cannot be walked counts as exhausted.
 */
export function exhaustionOf(state: GroupState, workItemId: string, ctx: DecisionContext): BudgetPause | undefined {
  const walked = ancestryAccounts(state, workItemId, ctx, false);
  if ('refusal' in walked) return { dimension: USAGE_DIMENSIONS[0], accountId: walked.accountId, since: ctx.now };
  return exhaustion(walked, ctx.now);
}

/**
 * What the work of `workItemId` may still spend (§12 "Capability-token budgets MUST be capped by
 * both the Work Contract and the authoritative remaining budget"): per dimension the least any
 * account of its complete ancestry leaves — the WorkItem, its parent WorkItems, its Mission, and
 * each ancestor Mission with the parent WorkItems there — a dimension some account does not grant
 * left out (it allows nothing).
 */
export function remainingOverAncestry(state: GroupState, workItemId: string, ctx: DecisionContext): BudgetLimits | Refusal {
  const walked = ancestryAccounts(state, workItemId, ctx, true);
  if ('refusal' in walked) return walked.refusal;
  const [own, ...others] = walked;
  return others.reduce((cap, account) => minLimits(cap, account.remaining), own?.remaining ?? {});
}

/**
 * Charges `charge` to its WorkItem and every account above it, in this Group and in each
 * ancestor Group of `ctx.ancestors`; the WorkItem must be in `state`.
 */
export function chargeUsage(state: GroupState, charge: UsageCharge, ctx: DecisionContext): Charged | Refusal {
  const delta = charge.usageDelta;
  const own = chargeGroup(state, charge.workItemId, delta, ctx);
  if ('ok' in own) return own;
  const ancestors = ancestorsOf(ctx);
  if (ancestors.length > MAX_LEDGER_ANCESTRY) {
    return refuse('INVALID_COMMAND', WORK_REASONS.ancestryTooDeep, 'the Mission ancestry is deeper than the budget ledger charges', { maxAncestry: MAX_LEDGER_ANCESTRY });
  }
  const origin = { groupId: state.groupId, workItemId: charge.workItemId };
  const drafts: ChargeDraft[] = [];
  const accounts = [...own.accounts];
  let child = state;
  for (const ancestor of ancestors) {
    const link = child.mission.parent;
    if (link === undefined || link.missionId !== ancestor.mission.missionId) {
      return refuse('INVALID_COMMAND', WORK_REASONS.ancestryMismatch, 'the loaded ancestry does not match the Mission parent link', { missionId: child.mission.missionId });
    }
    const charged = chargeGroup(ancestor, link.workItemId, delta, ctx);
    if ('ok' in charged) return charged;
    accounts.push(...charged.accounts);
    drafts.push(ancestorDraft(ancestor, child, charged, origin, delta));
    child = ancestor;
  }
  const [chargedItem, ...parentWorkItems] = own.workItems as [WorkRecord, ...WorkRecord[]];
  const pause = exhaustion(accounts, ctx.now);
  const paused = pause === undefined ? chargedItem : withBudgetPause(chargedItem, pause);
  // A tool host's charge also counts against the capability token it was shown (§12).
  const tokenId = charge.annotations?.capabilityTokenId;
  const workItem = tokenId === undefined ? paused : withCapabilityCharge(paused, tokenId, delta);
  const cumulative = usageOf(workItem);
  const payload: ResourceUsageRecordedPayload = {
    workItemId: workItem.workItemId,
    workItem: workItemDocument(workItem),
    ownershipEpoch: charge.ownershipEpoch,
    executionLeaseId: charge.executionLeaseId,
    usageDelta: delta,
    cumulativeUsage: cumulative,
    remainingBudget: effectiveRemaining(accounts),
    missionUsage: { missionId: state.mission.missionId, cumulativeUsage: own.missionCumulative, remainingBudget: remainingOf(own.missionCumulative, limitsOf(state.mission.budget)) },
    ...(parentWorkItems.length === 0 ? {} : { parentWorkItems: parentWorkItems.map(workItemDocument) }),
    ...(pause === undefined ? {} : { budgetPause: pause }),
    ...charge.annotations,
  };
  const draft: ChargeDraft = {
    kind: resourceUsageRecorded.kind,
    payload,
    aggregate: { type: 'work-item', id: workItem.workItemId, revision: workItem.revision },
    conversationId: workItem.conversationId,
    workItemId: workItem.workItemId,
  };
  return { state: withCharged(state, [workItem, ...parentWorkItems]), drafts: [draft, ...drafts] };
}
