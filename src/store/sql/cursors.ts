/**
 * Agent Cursors: only ever move forward.
 */

import type { Queryable } from '../pool.js';

export async function advanceCursors(db: Queryable, agentId: string, cursors: readonly { groupId: string; sequence: number }[], at: string): Promise<void> {
  if (cursors.length === 0) return;
  await db.query({
    name: 'advance-cursors',
    // Each Group's Mission tree from the directory (migration 0021).
    text: `insert into agent_cursors (tree_id, group_id, agent_id, sequence, updated_at)
           select t.tree_id, v.g, $1, v.s, $4 from unnest($2::text[], $3::bigint[]) as v(g, s)
           join group_trees t on t.group_id = v.g
           on conflict (tree_id, group_id, agent_id)
           do update set sequence = greatest(agent_cursors.sequence, excluded.sequence), updated_at = excluded.updated_at`,
    values: [agentId, cursors.map((c) => c.groupId), cursors.map((c) => c.sequence), at],
  });
}
