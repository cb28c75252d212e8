/**
 * `mission.cancel` (§7.1): the MissionOwner or policy ends the Mission; its unfinished work is
 * cancelled. The Group Authority also sends it, citing `parentMissionId`, to propagate a parent's
 * cancellation or failure into a running child (§14), and citing `parentWorkItemId` too when only
 * the parent WorkItem failed or was cancelled.
 */

import type { MissionClosedPayload } from '../groupEvents.js';
import type { GroupState } from '../kinds/groupState.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { linksOf, waitsForChild } from '../workItem/workItemDocuments.js';
import { closingEvent, withClosedMission } from './closeMission.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workAddressees } from '../workItem/workAddressees.js';
import { MISSION_REASONS } from './missionReasons.js';

/** Mission states a parent must be in for its cancellation to propagate (§7.1, §14). */
const PROPAGATING: ReadonlySet<string> = new Set(['cancelled', 'failed']);

const CANCELLED = { kind: 'mission.cancelled', state: 'cancelled', closureReason: 'Mission cancelled' } as const;

/** Whether the parent Group's WorkItem no longer waits for this child: ended, released, or linked elsewhere (§10.2, §14). */
function releasedBy(parentGroup: GroupState | undefined, workItemId: string, childMissionId: string): boolean {
  const workItem = parentGroup?.workItems.get(workItemId);
  if (workItem === undefined) return false;
  const link = linksOf(workItem).childMission;
  return workItem.state === 'failed' || workItem.state === 'cancelled' || link?.missionId !== childMissionId || !waitsForChild(link);
}

/**
 * A cancellation that cites a parent Mission is parent-cancellation propagation (§7.1): only the
 * Group Authority sends it, the cited Mission must be this Mission's parent, and the store (the
 * preloaded facts, not the payload) must show that parent cancelled or failed — or, when it also
 * cites the parent WorkItem, that WorkItem (in the parent Group's state, loaded as the nearest
 * ancestor) failed, was cancelled, or otherwise no longer waits for this child.
 */
function checkPropagation(state: GroupState, command: CommandOf<'mission.cancel'>, ctx: DecisionContext): Refusal | null {
  const { parentMissionId, parentWorkItemId } = command.payload;
  if (parentMissionId === undefined) return null;
  if (command.actor.type !== 'service') {
    return refuse('AUTH_FORBIDDEN', MISSION_REASONS.propagationByAuthorityOnly, 'only the Group Authority propagates a parent cancellation');
  }
  if (state.mission.parent?.missionId !== parentMissionId) {
    return refuse('INVALID_COMMAND', MISSION_REASONS.notTheParentMission, 'the cited Mission is not this Mission’s parent', { parentMissionId });
  }
  if (parentWorkItemId !== undefined) {
    if (state.mission.parent.workItemId !== parentWorkItemId) {
      return refuse('INVALID_COMMAND', MISSION_REASONS.notTheParentWorkItem, 'the cited WorkItem is not this Mission’s parent WorkItem', { parentWorkItemId });
    }
    const parentGroup = ctx.ancestors?.[0] as GroupState | undefined;
    if (parentGroup?.mission.missionId === parentMissionId && releasedBy(parentGroup, parentWorkItemId, state.mission.missionId)) return null;
    return refuse('INVALID_STATE_TRANSITION', MISSION_REASONS.parentWorkItemNotEnded, 'the parent WorkItem still waits for this child Mission', { parentWorkItemId });
  }
  const parent = ctx.mission(parentMissionId);
  if (parent === undefined || !PROPAGATING.has(parent.state)) {
    return refuse('INVALID_STATE_TRANSITION', MISSION_REASONS.parentMissionNotEnded, 'the parent Mission is neither cancelled nor failed', {
      parentMissionId,
      ...(parent === undefined ? {} : { parentState: parent.state }),
    });
  }
  return null;
}

export function decideCancel(state: GroupState, command: CommandOf<'mission.cancel'>, ctx: DecisionContext): Decision<EventDraft<'mission.cancelled', MissionClosedPayload>> {
  return checkPropagation(state, command, ctx) ?? accept(closingEvent(state, command.payload.reason, CANCELLED, ctx));
}

export const missionCancelled = defineEvent<MissionClosedPayload>()({
  kind: 'mission.cancelled',
  addressees: workAddressees,
  evolve: withClosedMission,
});

export const missionCancel = defineKind({
  kind: 'mission.cancel',
  examples: MISSION_EXAMPLES['mission.cancel'],
  scope: 'group',
  authority: ['mission-owner', 'organization-authority'],
  events: [missionCancelled],
  // Parent-cancellation propagation is checked against the parent as the store holds it: the
  // parent Mission's facts, and for a parent WorkItem's end the parent Group's state (ancestry).
  preload: { missions: (command) => [command.payload.parentMissionId] },
  ancestry: (command) => command.payload.parentWorkItemId !== undefined,
  target: (state) => state.mission.revision,
  decide: decideCancel,
});
