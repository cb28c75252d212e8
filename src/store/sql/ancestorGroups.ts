/**
 * The Groups of a Mission's ancestry (§14), nearest parent first, in one statement over the
 * directory of Groups (`group_trees`, migration 0021), which names each Group's parent Mission's
 * Group. A budget charge locks and updates every one of them (§12).
 */

import type { Queryable } from '../pool.js';

/**
 * Whether `groupId` exists, and its ancestor Groups, nearest first, at most `maxDepth` of them (a caller that asks
 * for one more than it accepts learns that the chain is too long). A Mission's parent is fixed
 * when the Mission is created, so the answer never changes and needs no lock.
 */
export async function readAncestorGroups(db: Queryable, groupId: string, maxDepth: number): Promise<{ exists: boolean; ancestors: string[] }> {
  const result = await db.query<{ group_id: string }>({
    name: 'read-ancestor-groups',
    text: `with recursive chain(group_id, parent_group_id, depth) as (
             select group_id, parent_group_id, 0 from group_trees where group_id = $1
             union all
             select g.group_id, g.parent_group_id, c.depth + 1
             from chain c
             join group_trees g on g.group_id = c.parent_group_id
             where c.depth < $2
           )
           select group_id from chain order by depth`,
    values: [groupId, maxDepth],
  });
  const [self, ...ancestors] = result.rows.map((r) => r.group_id);
  return { exists: self !== undefined, ancestors };
}
