/**
 * The child-Mission sweeps of the Authority reactor (§7.1, §10.2, §14). There is no cross-Group
 * transaction (§10.4): a child Mission ends in its own Group, and its parent learns of it later,
 * through a Command the Group Authority issues in the parent Group. Likewise a parent's
 * cancellation or failure — of the parent Mission, or of the parent WorkItem alone — reaches its
 * running children one Command per child, and theirs in turn on a later pass, once each child has
 * ended.
 *
 * Each fact has one Action ID, derived from the fact alone, so that every node issuing it at
 * once, or a node issuing it twice, makes one transition: the first is accepted, the others meet
 * its receipt or a decider that refuses what is already settled or ended.
 */

import { missionCancel } from '../../domain/mission/missionCancel.js';
import { childMissionSettle } from '../../domain/mission/childMissionSettle.js';
import type { Pool } from '../../store/pool.js';
import { findChildrenOfEndedParents, findEndedChildren } from '../../store/sql/childMissions.js';
import { factActionId, type AuthorityCommandDraft, type Sweep } from './sweep.js';


/** A terminal child Mission not yet settled on its parent WorkItem → `child_mission_settle` in the parent Group. */
export const childSettleSweep: Sweep = {
  name: 'child-mission-settle',
  async find(pool: Pool, _nowMillis: number, limit: number): Promise<readonly AuthorityCommandDraft[]> {
    const ended = await findEndedChildren(pool, limit);
    return ended.map((row) => ({
      kind: childMissionSettle.kind,
      groupId: row.parentGroupId,
      actionId: factActionId('child-mission-settle', row.parentGroupId, row.childMissionId),
      payload: { parentWorkItemId: row.parentWorkItemId, childMissionId: row.childMissionId },
      workItemId: row.parentWorkItemId,
    }));
  },
};

/**
 * A running child of a cancelled or failed parent Mission → `mission.cancel` citing the parent in
 * the child Group; of a parent WorkItem that failed or was cancelled (`work.fail`, `work.cancel`)
 * → the same, citing the parent WorkItem too: the child is settled as the Mission-level
 * cancellation settles it, each fact under its own Action ID.
 */
export const parentCancellationSweep: Sweep = {
  name: 'parent-cancellation',
  async find(pool: Pool, _nowMillis: number, limit: number): Promise<readonly AuthorityCommandDraft[]> {
    const orphaned = await findChildrenOfEndedParents(pool, limit);
    return orphaned.map(({ childGroupId, parentMissionId, parentState, parentWorkItem }): AuthorityCommandDraft =>
      parentWorkItem === undefined
        ? {
            kind: missionCancel.kind,
            groupId: childGroupId,
            actionId: factActionId('parent-cancellation', childGroupId, parentMissionId),
            payload: { reason: `parent Mission ${parentMissionId} ${parentState}`, parentMissionId },
          }
        : {
            kind: missionCancel.kind,
            groupId: childGroupId,
            actionId: factActionId('parent-work-item-ended', childGroupId, parentWorkItem.workItemId),
            payload: { reason: `parent WorkItem ${parentWorkItem.workItemId} ${parentWorkItem.state}`, parentMissionId, parentWorkItemId: parentWorkItem.workItemId },
          },
    );
  },
};

/** The sweeps this module gives the reactor. */
export const CHILD_SWEEPS: readonly Sweep[] = [childSettleSweep, parentCancellationSweep];
