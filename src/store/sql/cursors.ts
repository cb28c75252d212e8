/**
 * Agent Cursors: only ever move forward.
 */

import type { Queryable } from '../pool.js';

export async function advanceCursors(db: Queryable, agentId: string, cursors: readonly { groupId: string; sequence: number }[], at: string): Promise<void> {
  if (cursors.length === 0) return;
  await db.query({
    name: 'advance-cursors',
    text: `insert into agent_cursors (group_id, agent_id, sequence, updated_at)
           select g, $1, s, $4 from unnest($2::text[], $3::bigint[]) as v(g, s)
           on conflict (group_id, agent_id)
           do update set sequence = greatest(agent_cursors.sequence, excluded.sequence), updated_at = excluded.updated_at`,
    values: [agentId, cursors.map((c) => c.groupId), cursors.map((c) => c.sequence), at],
  });
}
