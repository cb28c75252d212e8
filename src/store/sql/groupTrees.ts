/**
 * The directory of Groups (migration 0021; a reference table on Citus): each Group's Mission tree
 * and its parent Mission's Group, both fixed when the Group is created.
 */

import type { Queryable } from '../pool.js';

export interface GroupTree {
  readonly treeId: string;
  readonly parentGroupId: string | null;
}

/** The trees of those of these Groups that exist. */
export async function readGroupTrees(db: Queryable, groupIds: readonly string[]): Promise<Map<string, GroupTree>> {
  if (groupIds.length === 0) return new Map();
  const result = await db.query<{ group_id: string; tree_id: string; parent_group_id: string | null }>({
    name: 'read-group-trees',
    text: 'select group_id, tree_id, parent_group_id from group_trees where group_id = any($1::text[])',
    values: [groupIds],
  });
  return new Map(result.rows.map((r) => [r.group_id, { treeId: r.tree_id, parentGroupId: r.parent_group_id }]));
}
