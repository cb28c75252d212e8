/**
 * Several statements in one round trip on real PostgreSQL (src/store/pipeline.ts): results parse
 * as `client.query`'s do, named statements are prepared once per connection, an error stops the
 * rest and leaves the connection usable, and a pipelined transaction commits or leaves nothing.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { inPipelinedTransaction } from '../src/store/pool.js';
import { runPipeline, type Statement } from '../src/store/pipeline.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase({ poolSize: 4 });
  await db.pool.query('create table pipeline_probe (id int primary key, note text)');
});

afterAll(async () => {
  await db.pool.query('drop table pipeline_probe');
});

/** ReadyForQuery messages the connection receives while `work` runs: one per round trip. */
async function roundTrips<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<{ result: T; trips: number }> {
  const connection = (client as unknown as { connection: { on(e: string, f: () => void): void; off(e: string, f: () => void): void } }).connection;
  let trips = 0;
  const count = () => trips++;
  connection.on('readyForQuery', count);
  try {
    return { result: await work(), trips };
  } finally {
    connection.off('readyForQuery', count);
  }
}

const insert = (id: number, note: string): Statement => ({ name: 'probe-insert', text: 'insert into pipeline_probe (id, note) values ($1, $2) returning id', values: [id, note] });

describe('statement pipeline', () => {
  it('runs statements in one round trip and parses results as pg does', async () => {
    const client = await db.pool.connect();
    try {
      const { result, trips } = await roundTrips(client, () => runPipeline(client, [
        { text: `select 9007199254740991::bigint as big, '{"a":[1]}'::json as doc, 'é' as text` },
        { name: 'probe-sum', text: 'select $1::int + $2::int as sum', values: [2, 3] },
        { text: 'select g from generate_series(1, 3) as g' },
      ]));
      expect(trips).toBe(1);
      expect(result.map((r) => r.rows)).toEqual([[{ big: 9007199254740991, doc: { a: [1] }, text: 'é' }], [{ sum: 5 }], [{ g: 1 }, { g: 2 }, { g: 3 }]]);
      expect(result[2]?.rowCount).toBe(3);
    } finally {
      client.release();
    }
  });

  it('prepares a named statement once per connection', async () => {
    const client = await db.pool.connect();
    try {
      await runPipeline(client, [{ name: 'probe-once', text: 'select $1::int as n', values: [1] }]);
      const again = await runPipeline(client, [{ name: 'probe-once', text: 'select $1::int as n', values: [2] }, { name: 'probe-once', text: 'select $1::int as n', values: [3] }]);
      expect(again.map((r) => r.rows[0])).toEqual([{ n: 2 }, { n: 3 }]);
      const prepared = await client.query(`select count(*)::int as n from pg_prepared_statements where name = 'probe-once'`);
      expect(prepared.rows).toEqual([{ n: 1 }]);
      // The same name for another text is refused before anything is sent.
      await expect(runPipeline(client, [{ name: 'probe-once', text: 'select 2' }])).rejects.toThrow(/different statement/);
    } finally {
      client.release();
    }
  });

  it('parses a named statement that comes twice in its first pipeline once (Citus sends one per tree)', async () => {
    const client = await db.pool.connect();
    try {
      const first = await runPipeline(client, [{ name: 'probe-twice', text: 'select $1::int as n', values: [1] }, { name: 'probe-twice', text: 'select $1::int as n', values: [2] }]);
      expect(first.map((r) => r.rows[0])).toEqual([{ n: 1 }, { n: 2 }]);
      const prepared = await client.query(`select count(*)::int as n from pg_prepared_statements where name = 'probe-twice'`);
      expect(prepared.rows).toEqual([{ n: 1 }]);
      // One name for two texts in one pipeline is refused before anything is sent.
      await expect(runPipeline(client, [{ name: 'probe-new', text: 'select 1' }, { name: 'probe-new', text: 'select 2' }])).rejects.toThrow(/different statement/);
    } finally {
      client.release();
    }
  });

  it('stops at the first error, names the failed statement, skips the rest, and leaves the connection usable', async () => {
    const client = await db.pool.connect();
    try {
      await expect(runPipeline(client, [insert(1, 'kept'), { text: 'select 1/0' }, insert(2, 'skipped')])).rejects.toMatchObject({ code: '22012', statement: 'select 1/0' });
      // Outside a transaction the statements up to the Sync are one implicit transaction: all gone.
      const rows = await client.query('select id from pipeline_probe order by id');
      expect(rows.rows).toEqual([]);
      // A statement that failed to parse is parsed again next time, not taken as prepared.
      await expect(runPipeline(client, [{ name: 'probe-bad', text: 'selec 1' }])).rejects.toMatchObject({ code: '42601', statement: 'probe-bad' });
      await expect(runPipeline(client, [{ name: 'probe-fixed', text: 'select 1 as one' }])).resolves.toHaveLength(1);
      await client.query('delete from pipeline_probe');
    } finally {
      client.release();
    }
  });

  it('commits a pipelined transaction in two round trips, or leaves nothing', async () => {
    await inPipelinedTransaction(db.pool, async (tx) => {
      const { trips: first } = await roundTrips(tx.client, () => tx.run([insert(10, 'a'), { text: 'select count(*)::int as n from pipeline_probe' }]));
      const { trips: last } = await roundTrips(tx.client, () => tx.commitWith([insert(11, 'b')]));
      expect([first, last]).toEqual([1, 1]);
    });
    expect((await db.pool.query('select id from pipeline_probe order by id')).rows).toEqual([{ id: 10 }, { id: 11 }]);
    // A failing statement sent with COMMIT: COMMIT never runs and everything rolls back.
    await expect(inPipelinedTransaction(db.pool, async (tx) => {
      await tx.run([insert(12, 'c')]);
      await tx.commitWith([insert(10, 'duplicate')]);
    })).rejects.toMatchObject({ code: '23505' });
    // An error thrown by the work itself rolls back too.
    await expect(inPipelinedTransaction(db.pool, async (tx) => {
      await tx.run([insert(13, 'd')]);
      throw new Error('refused');
    })).rejects.toThrow('refused');
    expect((await db.pool.query('select id from pipeline_probe order by id')).rows).toEqual([{ id: 10 }, { id: 11 }]);
    await db.pool.query('delete from pipeline_probe');
  });
});
