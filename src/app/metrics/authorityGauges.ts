/**
 * The levels of one Group Authority read on scrape: its commit queues, its crypto workers'
 * backlog and its PostgreSQL pool. Nothing is counted on the hot path; each scrape reads the
 * numbers these objects keep anyway.
 */

import type { Pool } from '../../store/pool.js';
import type { AuthorityMetrics } from './authorityMetrics.js';

export interface AuthorityLevels {
  readonly pool: Pool;
  /** Commands waiting in the commit queues, not counting those in a transaction. */
  readonly commitQueueDepth: () => number;
  /** Requests on the crypto workers not yet answered; absent without workers. */
  readonly cryptoQueueDepth?: () => number;
}

export function watchAuthority(metrics: AuthorityMetrics, levels: AuthorityLevels): void {
  const { pool } = levels;
  metrics.gauge('missionweave_commit_queue_depth', 'Commands waiting for a write transaction.', levels.commitQueueDepth);
  metrics.gauge('missionweave_crypto_queue_depth', 'Verify and sign requests sent to the crypto workers and not yet answered (0 without workers).', levels.cryptoQueueDepth ?? (() => 0));
  metrics.gauge('missionweave_pg_pool_clients', 'PostgreSQL connections this node holds, busy or idle.', () => pool.totalCount);
  metrics.gauge('missionweave_pg_pool_idle_clients', 'PostgreSQL connections open and idle.', () => pool.idleCount);
  metrics.gauge('missionweave_pg_pool_waiting', 'Queries and transactions waiting for a PostgreSQL connection.', () => pool.waitingCount);
  metrics.gauge('missionweave_pg_pool_max_clients', 'The most PostgreSQL connections this node may hold.', () => pool.options.max ?? 10);
}
