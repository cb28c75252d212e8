/**
 * The nearest of a Group's ancestor Groups (§14) whose Mission's MissionOwner is a given Principal
 * holding its active `mission_owner` Membership there: each ancestor's Mission document and that
 * Principal's Membership read by key, in the ancestors' one Mission tree. The read rule lets such
 * a human read the Group below as a member with complete visibility (src/app/readerStanding.ts).
 *
 * The ancestors come from the directory of Groups first (`ancestorGroups.ts`): a walk over it in
 * the same statement as the Mission reads is refused on Citus ("recursive CTEs are only supported
 * when they contain a filter on the distribution column"), while this statement, naming the tree,
 * routes to the tree's one shard.
 */

import type { Queryable } from '../pool.js';

export interface OwnedAncestor {
  readonly groupId: string;
  readonly missionId: string;
  /** The owner's Membership there: what its Commands through that ownership carry (§8). */
  readonly membershipId: string;
  readonly membershipEpoch: number;
}

/** The first of `ancestors` (Groups of tree `treeId`, nearest first) that `owner` owns, if any. */
export async function readOwnedAncestor(db: Queryable, treeId: string, ancestors: readonly string[], owner: { readonly type: string; readonly id: string }): Promise<OwnedAncestor | undefined> {
  if (ancestors.length === 0) return undefined;
  const result = await db.query<{ group_id: string; mission_id: string; membership_id: string; membership_epoch: number }>({
    name: 'read-owned-ancestor',
    text: `select a.group_id, a.aggregate_id as mission_id, m.aggregate_id as membership_id, (m.document ->> 'membershipEpoch')::integer as membership_epoch
           from aggregates a
           join aggregates m on m.tree_id = a.tree_id and m.group_id = a.group_id and m.aggregate_type = 'membership'
             and m.document -> 'member' ->> 'id' = $4 and m.document -> 'member' ->> 'type' = $3
           where a.tree_id = $1 and a.group_id = any($2::text[]) and a.aggregate_type = 'mission'
             and a.document #>> '{mission,missionOwner,type}' = $3 and a.document #>> '{mission,missionOwner,id}' = $4
             and m.document ->> 'role' = 'mission_owner' and m.document ->> 'state' = 'active'
           order by array_position($2::text[], a.group_id)
           limit 1`,
    values: [treeId, [...ancestors], owner.type, owner.id],
  });
  const row = result.rows[0];
  return row === undefined ? undefined : { groupId: row.group_id, missionId: row.mission_id, membershipId: row.membership_id, membershipEpoch: row.membership_epoch };
}
