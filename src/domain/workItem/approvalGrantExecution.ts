/** `approval.grant_execution` (§10.2, §12): a queued WorkItem gains the Execution Approval its contract requires. */

import { defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { workItemEvent, type ExecutionApprovalGrantedPayload } from './workEvents.js';
import type { GroupState } from '../kinds/groupState.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { budgetOverrun, isNoLaterThan, nowPlusSeconds, sortedSet } from '../rules.js';
import { requiredExecutionApproval } from './executionPolicy.js';
import { approvalsOf, withApproval, type ExecutionApproval } from './executionApprovals.js';
import { checkWorkState, isRefusal, workItemNamed } from './fencing.js';
import { DEFAULT_EXECUTION_APPROVAL_SECONDS } from './workLimits.js';
import { isLive, leasesOf } from './workLeases.js';
import { WORK_REASONS } from './workReasons.js';
import { WORK_EXAMPLES } from './workExamples.js';
import { workItemDocument, type WorkRecord } from './workRecord.js';

/**
 * `approval.grant_execution` (§10.2 `queued` → `queued`, §12): the signed Execution Approval a
 * WorkItem whose Work Contract requires one needs before `work.start`. It satisfies the start
 * gate without executing work: the WorkItem stays `queued` and only gains the approval.
 *
 * Who approves follows the contract's requirement. `human_required`: the human MissionOwner only
 * (§4.10's human approval, §12's signed gate) — in a child Mission, whose MissionOwner is an Agent,
 * the human MissionOwner of any ancestor Mission (the root's), acting under its Membership there
 * (`group/ancestorOwners.ts`, §14: the child runs "under the root human's accountability"). `policy_required`: the human MissionOwner, or the
 * Organization's policy actor — the Group Authority service, the only service that acts in Groups
 * — since §12 lets Organization policy place and clear the gate and lets low-risk work proceed
 * automatically under policy (the same "MissionOwner or Organization policy" pairing as §7.1 and
 * §20). An Agent never approves, not even a child Mission's MissionOwner (the Parent Coordinator,
 * §14): approving its own plan's execution is what the gate exists to stop.
 *
 * What is approved is bounded by what is already allowed: operations within the Mission's
 * permissions, resources within the contract's allowed resources, a budget within the contract's,
 * and an expiry no later than the owner's ownership lease. The approval is bound to the current
 * owner's Ownership Epoch; a later owner needs its own.
 */

type GrantCommand = CommandOf<'approval.grant_execution'>;
type Requirement = ExecutionApproval['requirement'];

/** The contract's requirement, if the actor may satisfy it (the MissionOwner passed the common checks). */
function checkApprover(workItem: WorkRecord, command: GrantCommand): Requirement | Refusal {
  // Organization policy may require a human's approval whatever the contract says (§12).
  const requirement = requiredExecutionApproval(workItem.contract);
  const details = { workItemId: workItem.workItemId, executionApproval: requirement };
  // §10.2 has this transition only "when required"; any other is refused like every row not in the table.
  if (requirement === 'not_required') {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.executionApprovalNotRequired, 'the Work Contract requires no Execution Approval', details);
  }
  if (command.actor.type === 'agent') return refuse('AUTH_FORBIDDEN', WORK_REASONS.approverNotHuman, 'an Agent may not grant an Execution Approval', details);
  if (command.actor.type === 'service' && requirement === 'human_required') {
    return refuse('AUTH_FORBIDDEN', WORK_REASONS.humanApprovalRequired, 'the Work Contract requires a human Execution Approval', details);
  }
  return requirement;
}

/** A `queued` WorkItem whose owner holds the cited (current) Ownership Epoch under a live lease. */
function checkOwnedUnder(workItem: WorkRecord, ownershipEpoch: number, ctx: DecisionContext): Refusal | null {
  const refused = checkWorkState(workItem, ['queued'], 'be approved for execution');
  if (refused !== null) return refused;
  const owner = workItem.owner;
  if (owner === undefined || owner.ownershipEpoch !== ownershipEpoch) {
    return refuse('WORK_STALE_OWNERSHIP', WORK_REASONS.ownershipEpochStale, 'the Ownership Epoch is not the current one', {
      workItemId: workItem.workItemId,
      ...(owner === undefined ? {} : { currentOwnershipEpoch: owner.ownershipEpoch }),
    });
  }
  if (!isLive(leasesOf(workItem).ownership, ctx)) {
    return refuse('WORK_LEASE_EXPIRED', WORK_REASONS.ownershipLeaseExpired, 'the owner’s ownership lease is no longer valid', { workItemId: workItem.workItemId });
  }
  return null;
}

/** Whether any approval the Group remembers (execution or the Mission's final one) has this ID. */
function approvalIdTaken(state: GroupState, approvalId: string): boolean {
  if (state.missionNotes.approval?.approvalId === approvalId) return true;
  for (const workItem of state.workItems.values()) {
    if (approvalsOf(workItem).some((a) => a.approvalId === approvalId)) return true;
  }
  return false;
}

/** Operations, resources and budget within what the Mission and the contract already allow (§12). */
function checkScope(state: GroupState, workItem: WorkRecord, payload: GrantCommand['payload']): Refusal | null {
  const operation = payload.operations.find((o) => !state.missionNotes.permissions.includes(o));
  if (operation !== undefined) {
    return refuse('INVALID_COMMAND', WORK_REASONS.operationNotPermitted, 'the operation is not among the Mission’s permissions', { operation });
  }
  const allowed = new Set(workItem.contract.allowedResources.map((grant) => grant.resource));
  const resource = (payload.resources ?? []).find((r) => !allowed.has(r));
  if (resource !== undefined) {
    return refuse('INVALID_COMMAND', WORK_REASONS.resourceNotAllowed, 'the resource is not among the Work Contract’s allowed resources', { resource });
  }
  const overrun = payload.budget === undefined ? undefined : budgetOverrun(payload.budget, workItem.contract.budget);
  if (overrun !== undefined) {
    return refuse('INVALID_COMMAND', WORK_REASONS.budgetExceedsContract, 'the approved budget exceeds the Work Contract’s', { limit: overrun });
  }
  return null;
}

export function decideGrantExecutionApproval(
  state: GroupState,
  command: GrantCommand,
  ctx: DecisionContext,
): Decision<EventDraft<'approval.execution.granted', ExecutionApprovalGrantedPayload>> {
  const { payload } = command;
  const workItem = workItemNamed(state, payload.workItemId);
  if (isRefusal(workItem)) return workItem;
  const requirement = checkApprover(workItem, command);
  if (isRefusal(requirement)) return requirement;
  const refused = checkOwnedUnder(workItem, payload.ownershipEpoch, ctx);
  if (refused !== null) return refused;
  if (approvalIdTaken(state, payload.approvalId)) {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.approvalIdTaken, 'the approval ID is already in use', { approvalId: payload.approvalId });
  }
  const outOfScope = checkScope(state, workItem, payload);
  if (outOfScope !== null) return outOfScope;
  const expiresAt = nowPlusSeconds(ctx, payload.expiresInSeconds ?? DEFAULT_EXECUTION_APPROVAL_SECONDS);
  const ownership = leasesOf(workItem).ownership;
  if (ownership === undefined || !isNoLaterThan(expiresAt, ownership.expiresAt)) {
    return refuse('INVALID_COMMAND', WORK_REASONS.approvalOutlivesOwnership, 'the approval would expire after the owner’s ownership lease', {
      expiresAt,
      ...(ownership === undefined ? {} : { ownershipLeaseExpiresAt: ownership.expiresAt }),
    });
  }

  const approval: ExecutionApproval = {
    approvalId: payload.approvalId,
    missionId: workItem.missionId,
    groupId: workItem.groupId,
    workItemId: workItem.workItemId,
    ownershipEpoch: payload.ownershipEpoch,
    requirement,
    operations: sortedSet(payload.operations),
    resources: sortedSet(payload.resources ?? []),
    ...(payload.budget === undefined ? {} : { budget: payload.budget }),
    approver: { type: command.actor.type, id: command.actor.id },
    approvedAt: ctx.now,
    expiresAt,
    ...(payload.comments === undefined ? {} : { comments: payload.comments }),
    ...(command.signature === undefined ? {} : { signature: command.signature }),
  };
  const approved = withApproval({ ...workItem, revision: workItem.revision + 1, updatedAt: ctx.now }, approval);
  return accept({
    kind: 'approval.execution.granted',
    payload: { workItemId: workItem.workItemId, workItem: workItemDocument(approved), ownershipEpoch: payload.ownershipEpoch, approval },
    aggregate: { type: 'work-item', id: workItem.workItemId, revision: approved.revision },
    workItemId: workItem.workItemId,
  });
}

export const executionApprovalGranted = workItemEvent<ExecutionApprovalGrantedPayload>()('approval.execution.granted');

export const approvalGrantExecution = defineKind({
  kind: 'approval.grant_execution',
  examples: WORK_EXAMPLES['approval.grant_execution'],
  scope: 'group',
  // `organization-authority` only for a `policy_required` contract: the decider judges which. A
  // human owner of an ancestor Mission approves in a descendant (§14), so a human's Command loads
  // the ancestor Groups (none for a root Mission).
  authority: ['mission-owner', 'ancestor-owner', 'organization-authority'],
  ancestry: (command) => command.actor.type === 'human',
  missionStates: ['active'],
  events: [executionApprovalGranted],
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideGrantExecutionApproval,
});
