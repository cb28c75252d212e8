/**
 * `ext.missionweave.core.capability_grant` (our own kind, docs/reference-differences.md): the
 * Authorization Service records a capability token's grant (§12) through the ordinary pipeline.
 * Only the Group Authority service sends it, on a Worker's authenticated request
 * (src/app/authorization/); its rules follow below.
 */

import { defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { workItemEvent, type WorkItemEventPayload } from '../workItem/workEvents.js';
import type { Lease } from '../documents.js';
import type { GroupState } from '../kinds/groupState.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { isNoLaterThan, nowPlusSeconds, sortedSet } from '../rules.js';
import { exhaustedDimension, limitsOf, minLimits, remainingOf, USAGE_DIMENSIONS, type BudgetLimits } from '../budgetMath.js';
import { ancestorsOf, remainingOverAncestry } from '../workItem/ledger.js';
import type { CapabilityGrantClaims, CapabilityResource } from '../../protocol/capabilityToken.js';
import { liveApproval, type ExecutionApproval } from '../workItem/executionApprovals.js';
import { checkExecutionLease, checkOwner, checkOwnerCard, checkWorkState, isRefusal, workItemNamed, type FencedCommand } from '../workItem/fencing.js';
import { scopeWithinAncestors, type ResourceScope } from '../workItem/authorityScope.js';
import { usageOf } from '../workItem/usageAccount.js';
import { ancestorWorkItems } from '../workItem/workAncestry.js';
import { linksOf } from '../workItem/workItemDocuments.js';
import { CAPABILITY_GRANTS_PER_LEASE, DEFAULT_CAPABILITY_SECONDS } from '../workItem/authorizationLimits.js';
import { grantsUnderLease, withGrant } from '../workItem/capabilityGrants.js';
import { requiredExecutionApproval } from '../workItem/executionPolicy.js';
import { AUTHORIZATION_REASONS } from './authorizationReasons.js';
import { AUTHORIZATION_EXAMPLES } from './authorizationExamples.js';
import { workItemDocument, type WorkRecord } from '../workItem/workRecord.js';

/**
 * `ext.missionweave.core.capability_grant` (our own kind): the Authorization Service records
 * the grant of one capability token (§12) for a Worker that asked through its authenticated
 * Session. The Authority service alone sends it, naming the Session's Agent and Epoch; the
 * decider checks everything the token binds, in this order:
 *
 * 1. the WorkItem is `active`, the Agent its current owner under the cited Ownership Epoch and a
 *    live ownership lease (`WORK_STALE_OWNERSHIP`, `AUTH_FORBIDDEN`, `WORK_LEASE_EXPIRED`);
 * 2. the Session is the Agent's current one (`AUTH_STALE_SESSION`), the cited Execution Lease
 *    the current live one of that Session, and the Agent's Card still meets the contract
 *    (`WORK_LEASE_EXPIRED`, §6.1);
 * 3. the approval gate: work that policy or the contract gates (`executionPolicy.ts`) gets no
 *    token until a live `approval.grant_execution` of this Ownership Epoch (`APPROVAL_REQUIRED`);
 * 4. least privilege: tools among the contract's required capabilities, resources and operations
 *    among its allowed ones that every ancestor WorkItem allows too (§4.11, §14: a child Mission
 *    never widens authority) and, under an approval, the approved ones (`AUTH_FORBIDDEN`); each
 *    resource under the tightest data classification the ancestry states;
 * 5. budget: ceilings capped by the contract and the authoritative remaining budget of the
 *    WorkItem's whole ancestry — its parent WorkItems, its Mission, every ancestor Mission and the
 *    parent WorkItems there (and a live approval's budget); a granted dimension with nothing left
 *    pauses the work (§12 exhaustion), and a ceiling asked beyond the cap or in a dimension nobody
 *    granted is refused (`BUDGET_EXCEEDED`);
 * 6. expiry no later than the Execution Lease (and the approval), §12;
 * 7. at most `CAPABILITY_GRANTS_PER_LEASE` grants under one Execution Lease (`RATE_LIMITED`).
 *
 * The accepted grant is the WorkItem's newest, which supersedes (revokes) the earlier ones.
 */

export const CAPABILITY_GRANT = 'ext.missionweave.core.capability_grant';
export const CAPABILITY_GRANTED = 'ext.missionweave.core.capability_granted';

export interface CapabilityGrantedPayload extends WorkItemEventPayload {
  /** The token's claims, without the signature that makes them a token. */
  readonly grant: CapabilityGrantClaims;
}

type Grant = CommandOf<typeof CAPABILITY_GRANT>;

function forbidden(reason: string, message: string, details: Record<string, string>): Refusal {
  return refuse('AUTH_FORBIDDEN', reason, message, details);
}

/** Steps 1–2: owner, epoch, Session and Execution Lease; the lease, or the refusal. */
function checkBinding(workItem: WorkRecord, payload: Grant['payload'], ctx: DecisionContext): Lease | Refusal {
  const holder: FencedCommand = { actor: { type: 'agent', id: payload.agentId }, sessionEpoch: payload.sessionEpoch };
  const refused = checkWorkState(workItem, ['active'], 'be granted a capability token') ?? checkOwner(workItem, holder, { ownershipEpoch: payload.ownershipEpoch }, ctx);
  if (refused !== null) return refused;
  const current = ctx.agent(payload.agentId)?.sessionEpoch;
  if (current !== payload.sessionEpoch) {
    return refuse('AUTH_STALE_SESSION', AUTHORIZATION_REASONS.sessionNotCurrent, 'the Session is not the Agent’s current one', { workItemId: workItem.workItemId });
  }
  const lease = checkExecutionLease(workItem, holder, payload.executionLeaseId, ctx);
  return isRefusal(lease) ? lease : (checkOwnerCard(workItem, ctx) ?? lease);
}

/** Step 3: the approval that applies, `null` when none is needed, or the refusal. */
function checkGate(workItem: WorkRecord, ctx: DecisionContext): ExecutionApproval | null | Refusal {
  const requirement = requiredExecutionApproval(workItem.contract);
  if (requirement === 'not_required') return null;
  const approval = liveApproval(workItem, ctx);
  if (approval !== undefined && (requirement !== 'human_required' || approval.approver.type === 'human')) return approval;
  return refuse('APPROVAL_REQUIRED', AUTHORIZATION_REASONS.executionApprovalRequired, 'no capability token before a live Execution Approval of the current Ownership Epoch', {
    workItemId: workItem.workItemId,
    executionApproval: requirement,
  });
}

/**
 * Step 4: the tools and resources the token allows: what the contract allows within the whole
 * ancestry of the WorkItem (`authorityScope.ts`), each resource under the tightest data
 * classification any of it states.
 */
function scopeOf(allowedScope: ReadonlyMap<string, ResourceScope>, contractTools: readonly string[], payload: Grant['payload'], approval: ExecutionApproval | null): { tools: string[]; resources: CapabilityResource[] } | Refusal {
  const tool = (payload.tools ?? []).find((t) => !contractTools.includes(t));
  if (tool !== undefined) return forbidden(AUTHORIZATION_REASONS.toolNotAllowed, 'the Work Contract does not require that tool', { tool });
  const allowed = new Map<string, ResourceScope>();
  for (const [resource, scope] of allowedScope) {
    // Under an approval only what it approved: its resources (when it names any) and operations.
    if (approval !== null && approval.resources.length > 0 && !approval.resources.includes(resource)) continue;
    const operations = approval === null ? scope.operations : scope.operations.filter((o) => approval.operations.includes(o));
    if (operations.length > 0) allowed.set(resource, { ...scope, operations });
  }
  const asked = payload.resources ?? [...allowed].map(([resource, { operations }]) => ({ resource, operations }));
  const resources: CapabilityResource[] = [];
  for (const { resource, operations } of asked) {
    const permitted = allowed.get(resource);
    if (permitted === undefined) return forbidden(AUTHORIZATION_REASONS.resourceNotAllowed, 'the resource is not allowed to this WorkItem', { resource });
    const operation = operations.find((o) => !permitted.operations.includes(o));
    if (operation !== undefined) return forbidden(AUTHORIZATION_REASONS.operationNotAllowed, 'the operation is not allowed on the resource', { resource, operation });
    const bound = permitted.maxDataClassification;
    resources.push({ resource, operations: sortedSet(operations), ...(bound === undefined ? {} : { constraints: { maxDataClassification: bound } }) });
  }
  resources.sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
  return { tools: sortedSet(payload.tools ?? contractTools), resources };
}

/** Step 5: the token's ceilings. */
function limitsFor(state: GroupState, workItem: WorkRecord, payload: Grant['payload'], approval: ExecutionApproval | null, ctx: DecisionContext): BudgetLimits | Refusal {
  // What the WorkItem, its parents, its Mission and every ancestor Mission and parent WorkItem leave.
  let cap = remainingOverAncestry(state, workItem.workItemId, ctx);
  if (isRefusal(cap)) return cap;
  if (approval?.budget !== undefined) cap = minLimits(cap, remainingOf(usageOf(workItem), limitsOf(approval.budget)));
  const details = { workItemId: workItem.workItemId };
  const exhausted = exhaustedDimension(cap);
  if (exhausted !== undefined) {
    return refuse('BUDGET_EXCEEDED', AUTHORIZATION_REASONS.budgetExhausted, `the ${exhausted} budget is exhausted: the work is paused until an escalation`, { ...details, dimension: exhausted });
  }
  if (payload.limits === undefined) return cap;
  const limits: BudgetLimits = {};
  for (const dimension of USAGE_DIMENSIONS) {
    const asked = payload.limits[dimension];
    if (asked === undefined) continue;
    const ceiling = cap[dimension];
    if (ceiling === undefined || asked > ceiling) {
      return refuse('BUDGET_EXCEEDED', AUTHORIZATION_REASONS.capabilityOverBudget, `a ${dimension} ceiling of ${asked} exceeds what remains`, { ...details, dimension, limit: ceiling ?? 0 });
    }
    limits[dimension] = asked;
  }
  return limits;
}

/** Step 6: the earliest of the asked lifetime, the Execution Lease and the approval. */
function expiryOf(payload: Grant['payload'], approval: ExecutionApproval | null, leaseExpiresAt: string, ctx: DecisionContext): string {
  let expiresAt = nowPlusSeconds(ctx, payload.expiresInSeconds ?? DEFAULT_CAPABILITY_SECONDS);
  if (!isNoLaterThan(expiresAt, leaseExpiresAt)) expiresAt = leaseExpiresAt;
  if (approval !== null && !isNoLaterThan(expiresAt, approval.expiresAt)) expiresAt = approval.expiresAt;
  return expiresAt;
}

export function decideCapabilityGrant(state: GroupState, command: Grant, ctx: DecisionContext): Decision<EventDraft<typeof CAPABILITY_GRANTED, CapabilityGrantedPayload>> {
  const { payload } = command;
  const workItem = workItemNamed(state, payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const lease = checkBinding(workItem, payload, ctx);
  if (isRefusal(lease)) return lease;
  if (grantsUnderLease(workItem, lease.leaseId) >= CAPABILITY_GRANTS_PER_LEASE) {
    return refuse('RATE_LIMITED', AUTHORIZATION_REASONS.capabilityGrantsPerLease, `an Execution Lease is granted at most ${CAPABILITY_GRANTS_PER_LEASE} tokens`, { workItemId: workItem.workItemId, limit: CAPABILITY_GRANTS_PER_LEASE });
  }
  const approval = checkGate(workItem, ctx);
  if (isRefusal(approval)) return approval;
  const ancestors = ancestorWorkItems(state, linksOf(workItem).parentWorkItemId, ancestorsOf(ctx));
  if (isRefusal(ancestors)) return ancestors;
  const scope = scopeOf(scopeWithinAncestors(workItem.contract, ancestors), workItem.contract.requiredCapabilities.map((c) => c.id), payload, approval);
  if (isRefusal(scope)) return scope;
  const limits = limitsFor(state, workItem, payload, approval, ctx);
  if (isRefusal(limits)) return limits;

  const grant: CapabilityGrantClaims = {
    tokenId: ctx.newId(),
    issuer: { type: ctx.services.authority.type, id: ctx.services.authority.id },
    agentId: payload.agentId,
    sessionEpoch: payload.sessionEpoch,
    missionId: workItem.missionId,
    groupId: workItem.groupId,
    workItemId: workItem.workItemId,
    ownershipEpoch: payload.ownershipEpoch,
    executionLeaseId: payload.executionLeaseId,
    tools: scope.tools,
    resources: scope.resources,
    limits,
    issuedAt: ctx.now,
    expiresAt: expiryOf(payload, approval, lease.expiresAt, ctx),
  };
  const granted = withGrant({ ...workItem, revision: workItem.revision + 1, updatedAt: ctx.now }, grant);
  return accept({
    kind: CAPABILITY_GRANTED,
    payload: { workItemId: workItem.workItemId, workItem: workItemDocument(granted), grant },
    aggregate: { type: 'work-item', id: workItem.workItemId, revision: granted.revision },
    workItemId: workItem.workItemId,
    conversationId: workItem.conversationId,
  });
}

export const capabilityGranted = workItemEvent<CapabilityGrantedPayload>()(CAPABILITY_GRANTED);

export const capabilityGrant = defineKind({
  kind: CAPABILITY_GRANT,
  examples: AUTHORIZATION_EXAMPLES['ext.missionweave.core.capability_grant'],
  scope: 'group',
  authority: ['organization-authority'],
  missionStates: ['active'],
  events: [capabilityGranted],
  // The Agent's current Session Epoch decides whether the requesting Session is still current.
  preload: { agents: (command) => [command.payload.agentId] },
  // The token is capped by the whole WorkItem/Mission ancestry: its scope (§4.11, §14) and budget (§12).
  ancestry: true,
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideCapabilityGrant,
});
