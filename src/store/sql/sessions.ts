/**
 * Agent Session Epochs (§6.3).
 */

import type { Queryable } from '../pool.js';

export async function readAllSessionEpochs(db: Queryable): Promise<Map<string, number>> {
  const result = await db.query<{ agent_id: string; session_epoch: number }>('select agent_id, session_epoch from agent_sessions');
  return new Map(result.rows.map((r) => [r.agent_id, r.session_epoch]));
}

/**
 * As multi-row `VALUES`, not `INSERT … SELECT FROM unnest(…)`: on Citus, where `agent_sessions` is
 * sharded by Agent, the latter is planned through the coordinator and, in the sequential mode the
 * pool sets, visits the shards one by one (about 3.8 s for 50 Agents on the loopback cluster under
 * load, so an Organization batch of HELLOs ran past their 10 s handshake); VALUES rows go straight
 * to their shards (0.1–0.6 s). The same statement on plain PostgreSQL.
 */
export async function upsertSessionEpochs(db: Queryable, epochs: ReadonlyMap<string, number>, openedAt: string): Promise<void> {
  if (epochs.size === 0) return;
  const rows = [...epochs.keys()].map((_, i) => `($${2 * i + 2}, $${2 * i + 3}::bigint, $1)`).join(', ');
  await db.query({
    text: `insert into agent_sessions (agent_id, session_epoch, opened_at) values ${rows}
           on conflict (agent_id) do update set session_epoch = excluded.session_epoch, opened_at = excluded.opened_at`,
    values: [openedAt, ...[...epochs].flat()],
  });
}
