/**
 * What the child-Mission sweeps look for (§7.1, §10.2, §14), each one bounded statement over the
 * partial indexes of migration 0007: parent WorkItems whose child has ended but is not settled,
 * and running child Missions whose parent Mission, or parent WorkItem, has ended. The JSON paths repeat
 * the index predicates word for word so that the planner uses them.
 */

import type { Queryable } from '../pool.js';

export interface EndedChild {
  readonly parentGroupId: string;
  readonly parentWorkItemId: string;
  readonly childMissionId: string;
}

/** At most `limit` parent WorkItems still blocked on a child Mission that is approved, failed or cancelled. */
export async function findEndedChildren(db: Queryable, limit: number): Promise<EndedChild[]> {
  const result = await db.query<{ parent_group_id: string; parent_work_item_id: string; child_mission_id: string }>({
    name: 'find-ended-children',
    text: `select w.group_id as parent_group_id, w.aggregate_id as parent_work_item_id, c.aggregate_id as child_mission_id
           from aggregates w
           join aggregates c
             on c.tree_id = w.tree_id
            and c.group_id = w.document #>> '{extensions,urn:missionweave:extension:work-item-links,data,childMission,groupId}'
            and c.aggregate_type = 'mission'
            and c.aggregate_id = w.document #>> '{extensions,urn:missionweave:extension:work-item-links,data,childMission,missionId}'
           where w.aggregate_type = 'work-item'
             and w.document ->> 'state' = 'blocked'
             and w.document #> '{extensions,urn:missionweave:extension:work-item-links,data,childMission}' is not null
             and w.document #> '{extensions,urn:missionweave:extension:work-item-links,data,childMission,outcome}' is null
             and w.document #> '{extensions,urn:missionweave:extension:work-item-links,data,childMission,released}' is null
             and c.document #>> '{mission,state}' in ('approved', 'failed', 'cancelled')
           order by w.group_id, w.aggregate_id
           limit $1`,
    values: [limit],
  });
  return result.rows.map((r) => ({ parentGroupId: r.parent_group_id, parentWorkItemId: r.parent_work_item_id, childMissionId: r.child_mission_id }));
}

export interface OrphanedChild {
  readonly childGroupId: string;
  readonly childMissionId: string;
  readonly parentMissionId: string;
  readonly parentState: string;
  /** The parent WorkItem, when it (not the parent Mission) ended; `state`: how it released the child, else its state. */
  readonly parentWorkItem?: { readonly workItemId: string; readonly state: string };
}

/**
 * At most `limit` running child Missions whose parent Mission is cancelled or failed, or whose
 * parent WorkItem no longer waits for them: it failed or was cancelled (`work.fail`,
 * `work.cancel`), released the child, or links another child. The running children come from
 * their partial index; each joins its parent Mission and parent WorkItem by key.
 */
export async function findChildrenOfEndedParents(db: Queryable, limit: number): Promise<OrphanedChild[]> {
  const result = await db.query<{ child_group_id: string; child_mission_id: string; parent_mission_id: string; parent_state: string; parent_work_item_id: string; parent_work_item_state: string }>({
    name: 'find-children-of-ended-parents',
    text: `select c.group_id as child_group_id, c.aggregate_id as child_mission_id,
                  g.mission_id as parent_mission_id, p.document #>> '{mission,state}' as parent_state,
                  w.aggregate_id as parent_work_item_id,
                  coalesce(w.document #>> '{extensions,urn:missionweave:extension:work-item-links,data,childMission,released,state}', w.document ->> 'state') as parent_work_item_state
           from aggregates c
           join groups g on g.tree_id = c.tree_id and g.mission_id = c.document #>> '{mission,parent,missionId}'
           join aggregates p on p.tree_id = g.tree_id and p.group_id = g.group_id and p.aggregate_type = 'mission' and p.aggregate_id = g.mission_id
           join aggregates w on w.tree_id = g.tree_id and w.group_id = g.group_id and w.aggregate_type = 'work-item' and w.aggregate_id = c.document #>> '{mission,parent,workItemId}'
           where c.aggregate_type = 'mission'
             and c.document #> '{mission,parent}' is not null
             and c.document #>> '{mission,state}' in ('active', 'awaiting_approval')
             and (p.document #>> '{mission,state}' in ('cancelled', 'failed')
               or w.document ->> 'state' in ('cancelled', 'failed')
               or w.document #> '{extensions,urn:missionweave:extension:work-item-links,data,childMission,released}' is not null
               or w.document #>> '{extensions,urn:missionweave:extension:work-item-links,data,childMission,missionId}' is distinct from c.aggregate_id)
           order by c.group_id
           limit $1`,
    values: [limit],
  });
  return result.rows.map((r) => ({
    childGroupId: r.child_group_id,
    childMissionId: r.child_mission_id,
    parentMissionId: r.parent_mission_id,
    parentState: r.parent_state,
    ...(r.parent_state === 'cancelled' || r.parent_state === 'failed' ? {} : { parentWorkItem: { workItemId: r.parent_work_item_id, state: r.parent_work_item_state } }),
  }));
}
