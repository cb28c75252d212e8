/**
 * The per-Group counter rows: locking them serializes each Group's writers across processes.
 */

import type { Queryable } from '../pool.js';

/** Which of these Group IDs or Mission IDs are already taken (in any Mission tree: the directory, migration 0021). */
export async function findTakenIds(db: Queryable, groupIds: readonly string[], missionIds: readonly string[]): Promise<{ groups: Set<string>; missions: Set<string> }> {
  const result = await db.query<{ group_id: string; mission_id: string }>({
    name: 'find-taken-ids',
    text: 'select group_id, mission_id from group_trees where group_id = any($1::text[]) or mission_id = any($2::text[])',
    values: [groupIds, missionIds],
  });
  return {
    groups: new Set(result.rows.map((r) => r.group_id)),
    missions: new Set(result.rows.map((r) => r.mission_id)),
  };
}

export interface NewGroup {
  readonly groupId: string;
  readonly missionId: string;
  /** The root Mission's Group: its own ID for a root Mission, its parent's tree for a child. */
  readonly treeId: string;
  readonly parentGroupId: string | null;
}

/**
 * Creates Groups: first in the directory, where Group and Mission IDs are unique across every
 * tree, then the counter rows of those it took. Returns the IDs actually created (a concurrent
 * creator may have won).
 */
export async function insertGroups(db: Queryable, groups: readonly NewGroup[]): Promise<Set<string>> {
  if (groups.length === 0) return new Set();
  // Multi-row VALUES: on Citus an INSERT … SELECT is planned through the coordinator.
  const listed = await db.query<{ group_id: string }>(
    `insert into group_trees (group_id, mission_id, tree_id, parent_group_id)
     values ${groups.map((_, i) => `($${4 * i + 1}, $${4 * i + 2}, $${4 * i + 3}, $${4 * i + 4})`).join(', ')}
     on conflict do nothing returning group_id`,
    groups.flatMap((g) => [g.groupId, g.missionId, g.treeId, g.parentGroupId]),
  );
  const created = new Set(listed.rows.map((r) => r.group_id));
  // One statement per tree (on Citus: routed to its shard), a multi-row VALUES of its Groups.
  const trees = new Map<string, NewGroup[]>();
  for (const g of groups) if (created.has(g.groupId)) trees.set(g.treeId, [...(trees.get(g.treeId) ?? []), g]);
  for (const rows of trees.values()) {
    const values = rows.map((_, i) => `($${3 * i + 1}, $${3 * i + 2}, $${3 * i + 3})`).join(', ');
    await db.query(`insert into groups (tree_id, group_id, mission_id) values ${values}`, rows.flatMap((g) => [g.treeId, g.groupId, g.missionId]));
  }
  return created;
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
