/**
 * PostgreSQL connections. Sequences, revisions and epochs are BIGINT in the database but always
 * safe integers on the wire (§2), so INT8 values are read as numbers and checked.
 */

import pg from 'pg';
import { PipelinedTransaction } from './pipeline.js';

pg.types.setTypeParser(pg.types.builtins.INT8, (text: string) => {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`integer ${text} exceeds the safe range`);
  return value;
});

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = pg.Pool | pg.PoolClient;

export interface PoolOptions {
  /** Connections this process may hold; the writers and readers share them. */
  readonly max?: number;
  readonly applicationName?: string;
}

/**
 * Set on every connection at its start. On a Citus coordinator a transaction that read several
 * shards and then writes a reference table with a foreign key (a Registry change) must use one
 * connection per node (docs/citus.md). `migrate` also sets it on the database, but that reaches
 * only connections opened after it, not the pool that migrated; the first `init` on a fresh
 * cluster database failed without this (test/citusFirstInit.int.test.ts). Plain PostgreSQL keeps
 * it as an inert placeholder setting.
 */
export const CONNECTION_SETTINGS = '-c citus.multi_shard_modify_mode=sequential';

export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    options: CONNECTION_SETTINGS,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'missionweave',
    // A node whose database is gone must fail closed quickly rather than queue forever.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client's error (the server restarted) must not crash the process; the next
  // query on a fresh client will report the outage to its caller.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * A client checked out of the pool, guarded: the pool listens for errors of idle clients only,
 * so one checked out while its server dies (between two queries of a transaction) would emit
 * an unhandled 'error' and take the process down. `release` returns it — or destroys it when
 * it broke.
 */
export async function checkOut(pool: pg.Pool): Promise<{ client: pg.PoolClient; release: (broken?: boolean) => void }> {
  const client = await pool.connect();
  let failed = false;
  const onError = () => {
    failed = true;
  };
  client.on('error', onError);
  return {
    client,
    release: (broken = false) => {
      client.off('error', onError);
      client.release(broken || failed);
    },
  };
}

/** Runs `work` in one transaction on one client; rolls back on any error. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return inPipelinedTransaction(pool, async (tx) => {
    await tx.run([]);
    return work(tx.client);
  });
}

/**
 * Runs `work` in one transaction whose BEGIN and COMMIT share round trips with its statements
 * (`PipelinedTransaction`): `work` sends its first statements with `tx.run` and may end with
 * `tx.commitWith`; otherwise COMMIT is sent on its own. Rolls back on any error.
 */
export async function inPipelinedTransaction<T>(pool: pg.Pool, work: (tx: PipelinedTransaction) => Promise<T>): Promise<T> {
  const { client, release } = await checkOut(pool);
  const tx = new PipelinedTransaction(client);
  let broken = false;
  try {
    const result = await work(tx);
    if (tx.started && !tx.committed) await tx.commitWith([]);
    return result;
  } catch (error) {
    if (tx.started) {
      try {
        await client.query('rollback');
      } catch {
        broken = true;
      }
    }
    throw error;
  } finally {
    release(broken);
  }
}
