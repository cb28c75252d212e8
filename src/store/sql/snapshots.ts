/**
 * Stored Group Snapshots, by content hash. A snapshot limited to one Membership's visibility
 * (migration 0013) names that Membership; every other read and reuse sees whole-Group ones only.
 */

import type { Queryable } from '../pool.js';

/** `viewMembershipId`: the Membership a limited snapshot is for; absent for a whole-Group one. */
export async function insertSnapshot(db: Queryable, groupId: string, hash: string, throughSequence: number, body: string, viewMembershipId?: string): Promise<void> {
  await db.query(
    `insert into group_snapshots (tree_id, group_id, snapshot_hash, through_sequence, body, view_membership_id)
     select tree_id, $1::text, $2::text, $3::bigint, $4::text, $5::text from group_trees where group_id = $1 on conflict do nothing`,
    [groupId, hash, throughSequence, body, viewMembershipId ?? null],
  );
}

/** A whole-Group snapshot, or with `viewMembershipId` only that Membership's limited one. */
export async function readSnapshot(db: Queryable, groupId: string, hash: string, viewMembershipId?: string): Promise<string | undefined> {
  const result = await db.query<{ body: string }>(
    'select body from group_snapshots where group_id = $1 and snapshot_hash = $2 and view_membership_id is not distinct from $3',
    [groupId, hash, viewMembershipId ?? null],
  );
  return result.rows[0]?.body;
}

/** The newest whole-Group snapshot, or with `viewMembershipId` that Membership's newest limited one. */
export async function readLatestSnapshot(db: Queryable, groupId: string, viewMembershipId?: string): Promise<{ hash: string; throughSequence: number } | undefined> {
  const result = await db.query<{ snapshot_hash: string; through_sequence: number }>(
    `select snapshot_hash, through_sequence from group_snapshots
     where group_id = $1 and view_membership_id is not distinct from $2 order by through_sequence desc limit 1`,
    [groupId, viewMembershipId ?? null],
  );
  const row = result.rows[0];
  return row === undefined ? undefined : { hash: row.snapshot_hash, throughSequence: row.through_sequence };
}

/**
 * The archival snapshot of an archived Group (§7.4): the whole-Group snapshot whose `snapshotId`
 * the Group's `archiveSnapshotId` names; undefined for a Group not archived. A Group holds few
 * snapshots, so reading their IDs out of the bodies is cheap.
 */
export async function readArchiveSnapshot(db: Queryable, groupId: string): Promise<string | undefined> {
  const result = await db.query<{ body: string }>(
    `select s.body from group_snapshots s
     join aggregates g on g.tree_id = s.tree_id and g.group_id = s.group_id and g.aggregate_type = 'group'
     where s.group_id = $1 and s.view_membership_id is null
       and (s.body::jsonb) #>> '{snapshot,snapshotId}' = g.document ->> 'archiveSnapshotId'`,
    [groupId],
  );
  return result.rows[0]?.body;
}
