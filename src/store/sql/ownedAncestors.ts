/**
 * The nearest ancestor Mission of a Group (§14) whose MissionOwner is a given Principal holding its
 * active `mission_owner` Membership there, in one statement: the walk of `ancestorGroups.ts` (the
 * directory of Groups, migration 0021), each
 * ancestor's Mission document and that Principal's Membership read by key. The read rule lets such
 * a human read the Group below as a member with complete visibility (src/app/readerStanding.ts).
 */

import type { Queryable } from '../pool.js';

export interface OwnedAncestor {
  readonly groupId: string;
  readonly missionId: string;
  /** The owner's Membership there: what its Commands through that ownership carry (§8). */
  readonly membershipId: string;
  readonly membershipEpoch: number;
}

/** The nearest of at most `maxDepth` ancestors of `groupId` (never the Group itself) that `owner` owns, if any. */
export async function readOwnedAncestor(db: Queryable, groupId: string, owner: { readonly type: string; readonly id: string }, maxDepth: number): Promise<OwnedAncestor | undefined> {
  const result = await db.query<{ group_id: string; mission_id: string; membership_id: string; membership_epoch: number }>({
    name: 'read-owned-ancestor',
    text: `with recursive chain(group_id, tree_id, parent_group_id, depth) as (
             select group_id, tree_id, parent_group_id, 0 from group_trees where group_id = $1
             union all
             select g.group_id, g.tree_id, g.parent_group_id, c.depth + 1
             from chain c
             join group_trees g on g.group_id = c.parent_group_id
             where c.depth < $4
           )
           select c.group_id, a.aggregate_id as mission_id, m.aggregate_id as membership_id, (m.document ->> 'membershipEpoch')::integer as membership_epoch
           from chain c
           join aggregates a on a.tree_id = c.tree_id and a.group_id = c.group_id and a.aggregate_type = 'mission'
           join aggregates m on m.tree_id = c.tree_id and m.group_id = c.group_id and m.aggregate_type = 'membership'
             and m.document -> 'member' ->> 'id' = $3 and m.document -> 'member' ->> 'type' = $2
           where c.depth > 0
             and a.document #>> '{mission,missionOwner,type}' = $2 and a.document #>> '{mission,missionOwner,id}' = $3
             and m.document ->> 'role' = 'mission_owner' and m.document ->> 'state' = 'active'
           order by c.depth
           limit 1`,
    values: [groupId, owner.type, owner.id, maxDepth],
  });
  const row = result.rows[0];
  return row === undefined ? undefined : { groupId: row.group_id, missionId: row.mission_id, membershipId: row.membership_id, membershipEpoch: row.membership_epoch };
}
