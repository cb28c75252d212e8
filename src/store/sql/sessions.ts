/**
 * Agent Session Epochs (§6.3).
 */

import type { Queryable } from '../pool.js';

export async function readAllSessionEpochs(db: Queryable): Promise<Map<string, number>> {
  const result = await db.query<{ agent_id: string; session_epoch: number }>('select agent_id, session_epoch from agent_sessions');
  return new Map(result.rows.map((r) => [r.agent_id, r.session_epoch]));
}

export async function upsertSessionEpochs(db: Queryable, epochs: ReadonlyMap<string, number>, openedAt: string): Promise<void> {
  if (epochs.size === 0) return;
  await db.query({
    name: 'upsert-session-epochs',
    text: `insert into agent_sessions (agent_id, session_epoch, opened_at)
           select a, e, $3 from unnest($1::text[], $2::bigint[]) as v(a, e)
           on conflict (agent_id) do update set session_epoch = excluded.session_epoch, opened_at = excluded.opened_at`,
    values: [[...epochs.keys()], [...epochs.values()], openedAt],
  });
}
