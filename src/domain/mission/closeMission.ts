/**
 * Ending a Mission early (§7.1): `mission.cancel` (MissionOwner or Organization policy) and
 * `mission.terminate` (Coordinator or Organization policy). Both are terminal and revoke the
 * Coordinator lease, so no coordination Command is accepted afterwards. The Group Authority
 * also ends Missions through propagation (§14): a parent's failure settled from a child
 * (`fail_parent_mission`), and parent-cancellation propagation into running children, from a
 * parent Mission that ended or a parent WorkItem that failed or was cancelled.
 */

import type { Lease, Mission, WorkItem } from '../documents.js';
import type { MissionClosedPayload } from '../groupEvents.js';
import { withEntry, type GroupState } from '../kinds/groupState.js';
import type { CommandOf } from '../kinds/kindTypes.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import { endWorkItem } from '../workItem/executionSteps.js';
import { cleanupDue, withCleanupDue } from '../workItem/workCleanup.js';
import { linksOf, waitsForChild } from '../workItem/workItemDocuments.js';
import { MISSION_REASONS } from './missionReasons.js';

/** WorkItem states a closing Mission leaves as they are. */
const FINISHED: ReadonlySet<string> = new Set(['verified', 'failed', 'cancelled']);

/** Mission states a parent must be in for its cancellation to propagate (§7.1, §14). */
const PROPAGATING: ReadonlySet<string> = new Set(['cancelled', 'failed']);

function revoke(lease: Lease, closureReason: string, ctx: DecisionContext): Lease {
  return { ...lease, state: 'revoked', closedAt: ctx.now, closureReason };
}

export interface Closing<K extends string> {
  readonly kind: K;
  readonly state: Mission['state'];
  readonly closureReason: string;
}

/** The closing Event of the Mission of `state`, failing or cancelling its unfinished WorkItems. */
export function closingEvent<K extends string>(state: GroupState, reason: string, outcome: Closing<K>, ctx: DecisionContext): EventDraft<K, MissionClosedPayload> {
  const mission: Mission = { ...state.mission, state: outcome.state, revision: state.mission.revision + 1 };
  // A terminal Mission takes its unfinished WorkItems with it (§10.2, last row), revoking their
  // leases and withdrawing their pending offers (§12).
  const workState: WorkItem['state'] = outcome.state === 'cancelled' ? 'cancelled' : 'failed';
  const workItems = [...state.workItems.values()]
    .filter((w) => !FINISHED.has(w.state))
    .map((w): WorkItem => {
      // §12: cancellation or emergency termination initiates cleanup where needed; each ended
      // WorkItem carries the mark `work.cancel` leaves (`workCleanup.ts`), read by a follow-up's Coordinator.
      const ended = endWorkItem(w, workState, outcome.closureReason, ctx).workItem;
      const due = cleanupDue(w);
      return due === undefined ? ended : withCleanupDue(ended, due);
    });
  return {
    kind: outcome.kind,
    payload: { reason, mission, coordinatorLease: revoke(state.coordinatorLease, outcome.closureReason, ctx), workItems },
    aggregate: { type: 'mission', id: mission.missionId, revision: mission.revision },
  };
}

export const TERMINATED = { kind: 'mission.terminated', state: 'failed', closureReason: 'Mission failed' } as const;
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

export function decideTerminate(state: GroupState, command: CommandOf<'mission.terminate'>, ctx: DecisionContext) {
  return accept(closingEvent(state, command.payload.reason, TERMINATED, ctx));
}

/** A closing Event: the Mission, its revoked lease, the WorkItems it closed, and why it ended. */
export function withClosedMission(state: GroupState, { reason, mission, coordinatorLease, workItems }: MissionClosedPayload): GroupState {
  let items = state.workItems;
  for (const item of workItems) items = withEntry(items, item.workItemId, item);
  return { ...state, mission, coordinatorLease, workItems: items, missionNotes: { ...state.missionNotes, closureReason: reason } };
}
