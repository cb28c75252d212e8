/**
 * The per-Group counter rows: locking them serializes each Group's writers across processes.
 */

import type { Queryable } from '../pool.js';

/** Which of these Group IDs or Mission IDs are already taken. */
export async function findTakenIds(db: Queryable, groupIds: readonly string[], missionIds: readonly string[]): Promise<{ groups: Set<string>; missions: Set<string> }> {
  const result = await db.query<{ group_id: string; mission_id: string }>({
    name: 'find-taken-ids',
    text: 'select group_id, mission_id from groups where group_id = any($1::text[]) or mission_id = any($2::text[])',
    values: [groupIds, missionIds],
  });
  return {
    groups: new Set(result.rows.map((r) => r.group_id)),
    missions: new Set(result.rows.map((r) => r.mission_id)),
  };
}

/** Creates Group rows; returns the IDs actually created (a concurrent creator may have won). */
export async function insertGroups(db: Queryable, groups: readonly { groupId: string; missionId: string }[]): Promise<Set<string>> {
  if (groups.length === 0) return new Set();
  const result = await db.query<{ group_id: string }>({
    name: 'insert-groups',
    text: `insert into groups (group_id, mission_id)
           select * from unnest($1::text[], $2::text[])
           on conflict do nothing returning group_id`,
    values: [groups.map((g) => g.groupId), groups.map((g) => g.missionId)],
  });
  return new Set(result.rows.map((r) => r.group_id));
}

/** The current last sequence of one Group, or undefined when it does not exist. */
export async function readLastSequence(db: Queryable, groupId: string): Promise<number | undefined> {
  const result = await db.query<{ last_sequence: number }>('select last_sequence from groups where group_id = $1', [groupId]);
  return result.rows[0]?.last_sequence;
}

/** The current last sequences of these Groups (the missing ones are left out). */
export async function readLastSequences(db: Queryable, groupIds: readonly string[]): Promise<Map<string, number>> {
  const result = await db.query<{ group_id: string; last_sequence: number }>({
    name: 'read-last-sequences',
    text: 'select group_id, last_sequence from groups where group_id = any($1::text[])',
    values: [groupIds],
  });
  return new Map(result.rows.map((r) => [r.group_id, r.last_sequence]));
}
