/**
 * `membership.grant_delegation` (§9.1): the current Coordinator (Coordinator authority, which
 * includes the current Coordinator Epoch §15.1 requires of this kind) grants one `work_delegate`
 * member scoped authority to authorize and offer work under one target WorkItem. The Grant
 * records every member §9.1 lists; whether it may still be used is judged at each use
 * (`delegation.ts`), so nothing here needs revoking later.
 *
 * What the Coordinator may hand out is bounded by what it holds: the target must be unfinished,
 * the Grant must expire within the Mission, and its ceilings must fit inside both the target's
 * contract budget (the subtree's work is part of the target's) and the Mission's (§12).
 */

import { withEntry, type GroupState } from '../kinds/groupState.js';
import { groupRef, membershipOf } from '../stateQueries.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { budgetOverrun, isAfterNow, isNoLaterThan } from '../rules.js';
import type { DelegationGrantedPayload } from './workEvents.js';
import type { DelegationGrant } from './workItemDocuments.js';
import { WORK_REASONS } from './workReasons.js';
import { WORK_EXAMPLES } from './workExamples.js';

type GrantCommand = CommandOf<'membership.grant_delegation'>;

export const delegationGranted = defineEvent<DelegationGrantedPayload>()({
  kind: 'membership.delegation.granted',
  evolve: (state, { delegationGrant }) => ({
    ...state,
    delegationGrants: withEntry(state.delegationGrants, delegationGrant.grantId, delegationGrant),
  }),
});

function checkGrant(state: GroupState, command: GrantCommand, ctx: DecisionContext): Refusal | null {
  const { payload } = command;
  const target = state.workItems.get(payload.targetWorkItemId);
  if (target === undefined) return refuse('INVALID_COMMAND', WORK_REASONS.targetWorkItemUnknown, 'the target WorkItem is not in this Group');
  if (['verified', 'failed', 'cancelled'].includes(target.state)) {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.grantTargetEnded, `the target WorkItem is ${target.state}`, { workItemId: target.workItemId });
  }
  if (!isAfterNow(payload.expiresAt, ctx) || !isNoLaterThan(payload.expiresAt, state.mission.deadline)) {
    return refuse('INVALID_COMMAND', WORK_REASONS.expiryOutsideMission, 'the Grant must expire after now and no later than the Mission deadline');
  }
  const overTarget = budgetOverrun(payload.budget, target.contract.budget);
  if (overTarget !== undefined) {
    return refuse('INVALID_COMMAND', WORK_REASONS.budgetExceedsTarget, 'the Grant ceilings exceed the target WorkItem budget', { limit: overTarget });
  }
  const overMission = budgetOverrun(payload.budget, state.mission.budget);
  if (overMission !== undefined) {
    return refuse('INVALID_COMMAND', WORK_REASONS.budgetExceedsMission, 'the Grant ceilings exceed the Mission budget', { limit: overMission });
  }
  return null;
}

export function decideGrantDelegation(
  state: GroupState,
  command: GrantCommand,
  ctx: DecisionContext,
): Decision<EventDraft<'membership.delegation.granted', DelegationGrantedPayload>> {
  const { payload } = command;
  if (state.delegationGrants.has(payload.grantId)) {
    return refuse('INVALID_STATE_TRANSITION', WORK_REASONS.grantIdTaken, 'the Delegation Grant ID is already in use');
  }
  const grantee = membershipOf(state, { type: 'agent', id: payload.granteeAgentId });
  if (grantee?.role !== 'work_delegate' || grantee.state !== 'active') {
    return refuse('INVALID_COMMAND', WORK_REASONS.granteeNotDelegate, 'the grantee needs an active work_delegate Membership', { agentId: payload.granteeAgentId });
  }
  const refused = checkGrant(state, command, ctx);
  if (refused !== null) return refused;
  const delegationGrant: DelegationGrant = {
    grantId: payload.grantId,
    granteeAgentId: payload.granteeAgentId,
    ...groupRef(state),
    targetWorkItemId: payload.targetWorkItemId,
    allowedCapabilities: payload.allowedCapabilities,
    budget: payload.budget,
    maxDescendantDepth: payload.maxDescendantDepth,
    granteeMembershipEpoch: grantee.membershipEpoch,
    coordinatorEpoch: state.mission.coordinator.coordinatorEpoch,
    issuedBy: { type: command.actor.type, id: command.actor.id },
    grantedAt: ctx.now,
    expiresAt: payload.expiresAt,
    usedBy: [],
    revision: 1,
  };
  return accept({
    kind: 'membership.delegation.granted',
    payload: { delegationGrant },
    aggregate: { type: 'delegation-grant', id: delegationGrant.grantId, revision: 1 },
  });
}

export const membershipGrantDelegation = defineKind({
  kind: 'membership.grant_delegation',
  examples: WORK_EXAMPLES['membership.grant_delegation'],
  scope: 'group',
  authority: ['coordinator'],
  missionStates: ['active'],
  events: [delegationGranted],
  target: (state, command) => state.delegationGrants.get(command.payload.grantId)?.revision ?? 0,
  decide: decideGrantDelegation,
});
