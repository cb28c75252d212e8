/**
 * Stored Group Snapshots, by content hash.
 */

import type { Queryable } from '../pool.js';

export async function insertSnapshot(db: Queryable, groupId: string, hash: string, throughSequence: number, body: string): Promise<void> {
  await db.query(
    'insert into group_snapshots (group_id, snapshot_hash, through_sequence, body) values ($1, $2, $3, $4) on conflict do nothing',
    [groupId, hash, throughSequence, body],
  );
}

export async function readSnapshot(db: Queryable, groupId: string, hash: string): Promise<string | undefined> {
  const result = await db.query<{ body: string }>('select body from group_snapshots where group_id = $1 and snapshot_hash = $2', [groupId, hash]);
  return result.rows[0]?.body;
}

/** The newest snapshot of a Group, if any. */
export async function readLatestSnapshot(db: Queryable, groupId: string): Promise<{ hash: string; throughSequence: number } | undefined> {
  const result = await db.query<{ snapshot_hash: string; through_sequence: number }>(
    'select snapshot_hash, through_sequence from group_snapshots where group_id = $1 order by through_sequence desc limit 1',
    [groupId],
  );
  const row = result.rows[0];
  return row === undefined ? undefined : { hash: row.snapshot_hash, throughSequence: row.through_sequence };
}
