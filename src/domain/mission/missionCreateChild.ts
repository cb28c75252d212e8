/**
 * `mission.create_child` (§14): the Coordinator promotes a WorkItem to a child Mission. The parent
 * Group records `mission.child.created`; the child Group begins with `mission.created`.
 */

import type { ChildCreatedPayload, MissionCreatedPayload } from '../groupEvents.js';
import { withEntry, type GroupState } from '../kinds/groupState.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { missionCreated } from './missionCreate.js';
import type { ApprovalPolicy } from '../documents.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { budgetOverrun, isNoLaterThan } from '../rules.js';
import { promoteToChild } from '../workItem/childMissionWork.js';
import { linksOf, PROMOTABLE_STATES, waitsForChild } from '../workItem/workItemDocuments.js';
import { checkNewMission } from './missionCreate.js';
import { checkAllocation } from '../workItem/allocation.js';
import { ancestorsOf } from '../workItem/ledger.js';
import { checkPermissionsWithin } from '../workItem/authorityScope.js';
import { isRefusal } from '../workItem/fencing.js';
import { ancestorWorkItems } from '../workItem/workAncestry.js';
import { withChildBudget } from '../workItem/usageAccount.js';
import { newMissionGroup } from './newMission.js';
import { MISSION_REASONS } from './missionReasons.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workAddressees } from '../workItem/workAddressees.js';
import { workItemDocument, workRecordOf, type WorkRecord } from '../workItem/workRecord.js';

/**
 * `mission.create_child` (§14): the Coordinator promotes a WorkItem to a child Mission with its
 * own Group, and becomes that Mission's owner. One decision, two Groups: the parent WorkItem
 * becomes `blocked`, held by the Coordinator under a new Ownership Epoch (§10.2), in the parent
 * Group, and the child Group begins with `mission.created`.
 */

type CreateChildPayload = CommandOf<'mission.create_child'>['payload'];

/**
 * The child's owner is an Agent, so the child ends with the parent Coordinator's approval; the
 * parent's execution-risk policy carries over.
 */
function childApprovalPolicy(parent: ApprovalPolicy): ApprovalPolicy {
  return {
    finalHumanApproval: false,
    highRiskExecutionApproval: parent.highRiskExecutionApproval,
    ...(parent.policyVersion === undefined ? {} : { policyVersion: parent.policyVersion }),
  };
}

/**
 * Child deadline, budget and permissions must be subsets of the parent's (§14): the permissions
 * of the parent Mission, and operations every WorkItem of the ancestry allows — the parent WorkItem
 * and everything above it, across the parent Missions (`authorityScope.ts`).
 */
function checkSubset(state: GroupState, payload: CreateChildPayload, parentItem: WorkRecord, ctx: DecisionContext): Refusal | null {
  const { mission, missionNotes } = state;
  const { contract } = parentItem;
  if (!isNoLaterThan(payload.deadline, mission.deadline) || !isNoLaterThan(payload.deadline, contract.deadline)) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.deadlineAfterParent, 'the child deadline is later than the parent Mission or WorkItem');
  }
  const overrun = budgetOverrun(payload.budget, mission.budget) ?? budgetOverrun(payload.budget, contract.budget);
  if (overrun !== undefined) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.budgetExceedsParent, 'the child budget exceeds the parent Mission or WorkItem', { limit: overrun });
  }
  const extra = (payload.permissions ?? []).find((p) => !missionNotes.permissions.includes(p));
  if (extra !== undefined) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.permissionExceedsParent, 'the child asks for a permission the parent lacks', { permission: extra });
  }
  const ancestors = ancestorWorkItems(state, parentItem.workItemId, ancestorsOf(ctx));
  return isRefusal(ancestors) ? ancestors : checkPermissionsWithin(payload.permissions ?? [], ancestors);
}

export function decideCreateChild(
  state: GroupState,
  command: CommandOf<'mission.create_child'>,
  ctx: DecisionContext,
): Decision<EventDraft<'mission.child.created', ChildCreatedPayload> | EventDraft<'mission.created', MissionCreatedPayload>> {
  const { payload } = command;
  const parentItem = state.workItems.get(payload.parentWorkItemId);
  if (parentItem === undefined) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.parentWorkItemUnknown, 'the parent WorkItem is not in this Group');
  }
  // A settled child that failed or was cancelled leaves the WorkItem to be replanned, and a
  // replacement child is one of the Coordinator's options (§14), as is one the WorkItem released
  // when it failed (its cancellation follows); a child the WorkItem waits for is not replaced.
  const earlier = linksOf(parentItem).childMission;
  if (waitsForChild(earlier)) {
    return refuse('INVALID_STATE_TRANSITION', MISSION_REASONS.workItemHasChild, 'the WorkItem is already promoted to a running child Mission');
  }
  if (!PROMOTABLE_STATES.includes(parentItem.state)) {
    return refuse('INVALID_STATE_TRANSITION', MISSION_REASONS.workItemNotPromotable, `a ${parentItem.state} WorkItem cannot be promoted`);
  }
  const coordinator = checkNewMission(payload, payload.groupId === state.groupId, ctx);
  if ('ok' in coordinator) return coordinator;
  // One Membership per Principal: the owner of the child cannot also be its Coordinator.
  if (coordinator.agentId === command.actor.id) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.childCoordinatorIsOwner, 'the child Coordinator must differ from its MissionOwner');
  }
  // The child's budget is allocated from the parent WorkItem (§12, §14), replacing a settled child's.
  const refused = checkSubset(state, payload, parentItem, ctx) ?? checkAllocation(state, { kind: 'work-item', workItem: parentItem }, payload.budget, { replacingChild: true });
  if (refused !== null) return refused;

  const parentEventId = ctx.newId();
  const created = newMissionGroup(
    {
      payload,
      owner: command.actor,
      coordinator,
      approvalPolicy: childApprovalPolicy(state.mission.approvalPolicy),
      parent: {
        missionId: state.mission.missionId,
        workItemId: parentItem.workItemId,
        depth: (state.mission.parent?.depth ?? 0) + 1,
      },
    },
    ctx,
  );
  // The Parent Coordinator, as child MissionOwner, holds the blocked parent WorkItem (§14).
  const { workItem: promoted, ownershipLease, revokedLeases } = promoteToChild(
    parentItem,
    {
      child: { missionId: payload.missionId, groupId: payload.groupId, failurePolicy: payload.failurePolicy ?? 'block_parent_work_item' },
      holder: {
        agentId: command.actor.id,
        agentCardVersion: state.mission.coordinator.agentCardVersion,
        sessionEpoch: command.sessionEpoch ?? state.coordinatorLease.sessionEpoch,
      },
      childDeadline: payload.deadline,
      leaseId: ctx.newId(),
    },
    ctx,
  );
  const workItem = withChildBudget(promoted, payload.budget);
  return accept(
    {
      kind: 'mission.child.created',
      payload: {
        parentMissionId: state.mission.missionId,
        parentWorkItemId: workItem.workItemId,
        childMissionId: payload.missionId,
        childGroupId: payload.groupId,
        workItem: workItemDocument(workItem),
        ownershipLease,
        revokedLeases,
      },
      aggregate: { type: 'work-item', id: workItem.workItemId, revision: workItem.revision },
      workItemId: workItem.workItemId,
      eventId: parentEventId,
    },
    {
      kind: 'mission.created',
      payload: { ...created, parentEventId },
      aggregate: { type: 'mission', id: payload.missionId, revision: created.mission.revision },
      groupId: payload.groupId,
    },
  );
}

export const missionChildCreated = defineEvent<ChildCreatedPayload>()({
  kind: 'mission.child.created',
  addressees: workAddressees,
  evolve: (state, { workItem }) => ({ ...state, workItems: withEntry(state.workItems, workItem.workItemId, workRecordOf(workItem)) }),
});

export const missionCreateChild = defineKind({
  kind: 'mission.create_child',
  examples: MISSION_EXAMPLES['mission.create_child'],
  scope: 'group',
  authority: ['coordinator'],
  // A replacement Coordinator's assignment waits for its Context Package (§7.2).
  assigns: true,
  missionStates: ['active'],
  events: [missionChildCreated, missionCreated],
  preload: { agents: (command) => [command.payload.coordinatorId], missions: (command) => [command.payload.missionId] },
  creates: (command) => ({ groupId: command.payload.groupId, missionId: command.payload.missionId }),
  // The child's permissions are held to every ancestor WorkItem, in the parent Missions' Groups too (§14).
  ancestry: true,
  target: (state, command) => state.workItems.get(command.payload.parentWorkItemId)?.revision,
  workItemOf: (_state, command) => command.payload.parentWorkItemId,
  decide: decideCreateChild,
});
