/**
 * Delegation Grants at their use (§9.1). A Grant is judged at every use against the state as it
 * is now, never trusted from when it was issued: the actor must be its grantee, holding an active
 * `work_delegate` Membership of the epoch the Grant recorded; the Grant's Mission, Group,
 * Coordinator Epoch and issuer must still be current, its validity interval must contain now, and
 * its target WorkItem must exist and be neither failed, cancelled nor verified. A replaced
 * Coordinator, a changed or ended Membership, an expired Grant or an ended target therefore stop
 * every further use at once, without any Event revoking the Grant.
 *
 * Then the use itself: a new WorkItem is authorized only as a descendant linked by
 * `parentWorkItemId` into the target's subtree, no deeper than the Grant's maximum; an existing
 * one is offered only when it is the target or a descendant. Every required capability must be
 * allowed by the Grant at or above its minimum version, and the budgets of every WorkItem created
 * or offered under the Grant, with this one, stay within every Grant ceiling. The Organization's
 * bound on the same depth (§9.1, §20) is a cooperation limit, judged before these rules
 * (`policy/delegationDepth.ts`).
 */

import type { Budget, WorkContract } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { membershipOf } from '../stateQueries.js';
import { refuse, type CommandEnvelope, type DecisionContext, type Refusal } from '../model.js';
import { compareSemver, isAfterNow, isNoLaterThan } from '../rules.js';
import { linksOf, type DelegationGrant } from './workItemDocuments.js';
import { MAX_WORK_ITEMS_PER_GRANT } from './workLimits.js';
import { WORK_REASONS } from './workReasons.js';
import type { WorkRecord } from './workRecord.js';

/** What a delegate does with its Grant: authorize a new descendant, or offer an existing one. */
export type DelegatedUse =
  | { readonly kind: 'authorize'; readonly workItemId: string; readonly parentWorkItemId: string | undefined; readonly contract: WorkContract }
  | { readonly kind: 'offer'; readonly workItem: WorkRecord };

/** Target states that end a Grant's usefulness (§9.1). */
const ENDED_TARGET: readonly WorkRecord['state'][] = ['failed', 'cancelled', 'verified'];

const forbidden = (reason: string, message: string, grant: DelegationGrant): Refusal =>
  refuse('AUTH_FORBIDDEN', reason, message, { delegationGrantId: grant.grantId });

/** The Grant still stands for this actor now, whatever it is used for. */
function checkGrantStands(state: GroupState, command: Pick<CommandEnvelope, 'actor'>, grant: DelegationGrant, ctx: DecisionContext): Refusal | null {
  if (command.actor.type !== 'agent' || command.actor.id !== grant.granteeAgentId) {
    return forbidden(WORK_REASONS.notTheGrantee, 'only the grantee may use a Delegation Grant', grant);
  }
  const membership = membershipOf(state, command.actor);
  if (membership?.role !== 'work_delegate' || membership.state !== 'active') {
    return forbidden(WORK_REASONS.granteeNotDelegate, 'the grantee needs an active work_delegate Membership', grant);
  }
  if (membership.membershipEpoch !== grant.granteeMembershipEpoch) {
    return refuse('MEMBERSHIP_STALE', WORK_REASONS.grantMembershipChanged, 'the grantee Membership changed since the Grant', { delegationGrantId: grant.grantId });
  }
  if (grant.missionId !== state.mission.missionId || grant.groupId !== state.groupId) {
    return forbidden(WORK_REASONS.grantOtherMission, 'the Grant belongs to another Mission', grant);
  }
  const coordinator = state.mission.coordinator;
  if (grant.coordinatorEpoch !== coordinator.coordinatorEpoch || grant.issuedBy.type !== 'agent' || grant.issuedBy.id !== coordinator.agentId) {
    return refuse('AUTH_STALE_COORDINATOR', WORK_REASONS.grantCoordinatorReplaced, 'the Coordinator that issued the Grant is no longer current', { delegationGrantId: grant.grantId });
  }
  if (!isNoLaterThan(grant.grantedAt, ctx.now) || !isAfterNow(grant.expiresAt, ctx)) {
    return forbidden(WORK_REASONS.grantExpired, 'the Delegation Grant is not valid now', grant);
  }
  const target = state.workItems.get(grant.targetWorkItemId);
  if (target === undefined) return forbidden(WORK_REASONS.grantTargetMissing, 'the Grant target WorkItem no longer exists', grant);
  if (ENDED_TARGET.includes(target.state)) return forbidden(WORK_REASONS.grantTargetEnded, `the Grant target WorkItem is ${target.state}`, grant);
  return null;
}

/**
 * How far below the Grant's target `workItemId` sits (0 for the target itself), or `undefined`
 * outside its subtree. The walk follows parent links upward once per WorkItem, so a corrupt loop
 * of links ends it.
 */
export function depthBelow(state: GroupState, targetId: string, workItemId: string): number | undefined {
  const seen = new Set<string>();
  let current: string | undefined = workItemId;
  let depth = 0;
  while (current !== undefined && !seen.has(current)) {
    if (current === targetId) return depth;
    seen.add(current);
    const workItem = state.workItems.get(current);
    current = workItem === undefined ? undefined : linksOf(workItem).parentWorkItemId;
    depth += 1;
  }
  return undefined;
}

function checkCapabilities(grant: DelegationGrant, contract: WorkContract): Refusal | null {
  for (const required of contract.requiredCapabilities) {
    const allowed = grant.allowedCapabilities.find((c) => c.id === required.id);
    if (allowed === undefined || compareSemver(required.version, allowed.version) < 0) {
      return refuse('AUTH_FORBIDDEN', WORK_REASONS.capabilityOutsideGrant, 'a required capability is not allowed by the Grant at that version', {
        delegationGrantId: grant.grantId,
        capability: required.id,
        ...(allowed === undefined ? {} : { minimumVersion: allowed.version }),
      });
    }
  }
  return null;
}

const DIMENSIONS = ['financialLimit', 'modelTokenLimit', 'toolCallLimit', 'computeSecondsLimit', 'wallClockSecondsLimit', 'externalSideEffectLimit'] as const;

/** The first Grant ceiling that the budgets of `used` plus `extra` exceed; a missing limit counts 0. */
function cumulativeOverrun(grant: DelegationGrant, budgets: readonly Budget[]): string | undefined {
  for (const dimension of DIMENSIONS) {
    const ceiling = grant.budget[dimension] ?? 0;
    const total = budgets.reduce((sum, budget) => sum + (budget[dimension] ?? 0), 0);
    if (total > ceiling) return dimension;
  }
  const foreign = budgets.some((b) => b.financialLimit !== undefined && b.financialLimit > 0 && b.currency !== grant.budget.currency);
  return foreign ? 'currency' : undefined;
}

function checkCumulative(state: GroupState, grant: DelegationGrant, workItemId: string, contract: WorkContract): Refusal | null {
  if (grant.usedBy.includes(workItemId)) return null;
  if (grant.usedBy.length >= MAX_WORK_ITEMS_PER_GRANT) {
    return refuse('RATE_LIMITED', WORK_REASONS.grantUseLimit, 'the Grant has been used for as many WorkItems as it may', { delegationGrantId: grant.grantId, limit: MAX_WORK_ITEMS_PER_GRANT });
  }
  const used = grant.usedBy.map((id) => state.workItems.get(id)?.contract.budget ?? {});
  const overrun = cumulativeOverrun(grant, [...used, contract.budget]);
  if (overrun === undefined) return null;
  return refuse('BUDGET_EXCEEDED', WORK_REASONS.grantBudgetExceeded, 'the work under the Grant would exceed one of its ceilings', { delegationGrantId: grant.grantId, limit: overrun });
}

function checkScope(state: GroupState, grant: DelegationGrant, use: DelegatedUse): Refusal | null {
  if (use.kind === 'authorize') {
    if (use.parentWorkItemId === undefined) return forbidden(WORK_REASONS.delegatedParentRequired, 'a delegated WorkItem must name its parent WorkItem', grant);
    const parentDepth = depthBelow(state, grant.targetWorkItemId, use.parentWorkItemId);
    if (parentDepth === undefined) return forbidden(WORK_REASONS.outsideGrantScope, 'the parent WorkItem is outside the Grant target subtree', grant);
    if (parentDepth + 1 > grant.maxDescendantDepth) return forbidden(WORK_REASONS.grantDepthExceeded, 'the WorkItem would lie deeper than the Grant allows', grant);
    return null;
  }
  const attributed = linksOf(use.workItem).delegationGrantId;
  if (attributed !== undefined && attributed !== grant.grantId) return forbidden(WORK_REASONS.workItemOtherGrant, 'the WorkItem is attributed to another Grant', grant);
  const depth = depthBelow(state, grant.targetWorkItemId, use.workItem.workItemId);
  if (depth === undefined) return forbidden(WORK_REASONS.outsideGrantScope, 'the WorkItem is outside the Grant target subtree', grant);
  if (depth > grant.maxDescendantDepth) return forbidden(WORK_REASONS.grantDepthExceeded, 'the WorkItem lies deeper than the Grant allows', grant);
  return null;
}

/** Refuses a use of Grant `grantId` by the Command's actor, or `null` when the Grant allows it. */
export function checkDelegatedUse(
  state: GroupState,
  command: Pick<CommandEnvelope, 'actor'>,
  grantId: string,
  use: DelegatedUse,
  ctx: DecisionContext,
): Refusal | null {
  const grant = state.delegationGrants.get(grantId);
  if (grant === undefined) {
    return refuse('INVALID_COMMAND', WORK_REASONS.delegationGrantUnknown, 'the Delegation Grant does not exist in this Group', { delegationGrantId: grantId });
  }
  const contract = use.kind === 'authorize' ? use.contract : use.workItem.contract;
  const workItemId = use.kind === 'authorize' ? use.workItemId : use.workItem.workItemId;
  return (
    checkGrantStands(state, command, grant, ctx) ??
    checkScope(state, grant, use) ??
    checkCapabilities(grant, contract) ??
    checkCumulative(state, grant, workItemId, contract)
  );
}

/** Evolve: the Grant records that `workItemId` was authorized or offered under it. */
export function recordGrantUse(state: GroupState, grantId: string, workItemId: string): GroupState {
  const grant = state.delegationGrants.get(grantId);
  if (grant === undefined || grant.usedBy.includes(workItemId)) return state;
  const next = new Map(state.delegationGrants);
  next.set(grantId, { ...grant, usedBy: [...grant.usedBy, workItemId], revision: grant.revision + 1 });
  return { ...state, delegationGrants: next };
}
