/**
 * Why many Groups deadlocked on Citus, and that they no longer do (docs/citus.md): a batch reads
 * its Agents' Session Epochs `for share` (src/store/sql/batchReads.ts). While `agent_sessions` was
 * a reference table, Citus turned that row lock into a RowExclusiveLock and a ShareLock on the
 * table's one shard as a whole, on the coordinator and the first worker, which conflict: a second
 * batch, of another tree and another Agent, waited for the first to commit (and two that each got
 * the first lock waited for each other: the deadlocks of the many-Groups bench). Migration 0022
 * shards it by Agent, co-located with the receipts: each read is a row lock on one shard. A
 * session activation of the same Agent still waits for the batch (the lock's purpose).
 * Skipped, saying why, without a cluster.
 */

import { beforeAll, expect, it } from 'vitest';
import { migrate, readMigrations } from '../src/store/migrate.js';
import { routedReadStatements } from '../src/store/sql/batchReads.js';
import { upsertSessionEpochs } from '../src/store/sql/sessions.js';
import { createCitusDatabase, describeOnCitus, type CitusDatabase } from './support/citus.js';

let db: CitusDatabase;
let earlier: CitusDatabase;

const TIMEOUT = "set local statement_timeout = '1500ms'";

describeOnCitus('Session Epoch reads on Citus', () => {
  beforeAll(async () => {
    db = await createCitusDatabase({ poolSize: 14 });
    await migrate(db.pool);
    await db.pool.query("insert into agent_sessions (agent_id, session_epoch, opened_at) values ('urn:agent:a', 1, 't'), ('urn:agent:b', 1, 't')");
  });

  it('shards agent_sessions by Agent, co-located with the receipts', async () => {
    const rows = await db.pool.query<{ name: string; method: string; key: string; colocation: number }>(
      `select logicalrelid::regclass::text as name, partmethod as method, column_to_column_name(logicalrelid, partkey) as key, colocationid as colocation
       from pg_dist_partition where logicalrelid in ('agent_sessions'::regclass, 'receipts'::regclass) order by 1`);
    const [sessions, receipts] = rows.rows;
    expect(sessions).toMatchObject({ name: 'agent_sessions', method: 'h', key: 'agent_id' });
    expect(sessions?.colocation).toBe(receipts?.colocation);
  });

  it('a batch reading one Agent\'s epoch for share does not block another batch reading another Agent\'s', async () => {
    const [read] = routedReadStatements([], ['urn:agent:a']);
    const [readOther] = routedReadStatements([], ['urn:agent:b']);
    if (read === undefined || readOther === undefined) throw new Error('no session read');
    expect(read.text).toMatch(/for share/);
    const first = await db.pool.connect();
    const second = await db.pool.connect();
    try {
      await first.query('begin');
      expect((await first.query(read.text, [...(read.values ?? [])])).rows).toEqual([{ agent_id: 'urn:agent:a', session_epoch: 1 }]);
      // No lock on a shard as a whole: only the row's.
      const shardLocks = await first.query<{ n: number }>(
        `select count(*)::int as n from pg_locks l where l.pid = pg_backend_pid() and l.locktype = 'advisory'
         and l.objid in (select shardid::oid from pg_dist_shard where logicalrelid = 'agent_sessions'::regclass)`);
      expect(shardLocks.rows[0]?.n).toBe(0);
      await second.query('begin');
      await second.query(TIMEOUT);
      expect((await second.query(readOther.text, [...(readOther.values ?? [])])).rows).toEqual([{ agent_id: 'urn:agent:b', session_epoch: 1 }]);
      // The same Agent's epoch: a shared lock beside a shared lock.
      expect((await second.query(read.text, [...(read.values ?? [])])).rows).toHaveLength(1);
      await second.query('rollback');
      // A session activation of the other Agent goes ahead; one of the read Agent waits for the batch.
      await second.query('begin');
      await second.query(TIMEOUT);
      await upsertSessionEpochs(second, new Map([['urn:agent:b', 2]]), 't2');
      await second.query('commit');
      await second.query('begin');
      await second.query(TIMEOUT);
      await expect(upsertSessionEpochs(second, new Map([['urn:agent:a', 2]]), 't2')).rejects.toMatchObject({ code: '57014' });
      await second.query('rollback');
      await first.query('rollback');
    } finally {
      first.release(true);
      second.release(true);
    }
  });

  it('many concurrent batches of different Agents, each reading its epoch for share and writing its receipt, all commit', async () => {
    const agents = Array.from({ length: 12 }, (_, i) => `urn:agent:many-${i}`);
    await upsertSessionEpochs(db.pool, new Map(agents.map((a) => [a, 1])), 't');
    const clients = await Promise.all(agents.map(() => db.pool.connect()));
    try {
      const outcomes = await Promise.allSettled(agents.map(async (agent, i) => {
        const client = clients[i % clients.length];
        if (client === undefined) throw new Error('no client');
        const [read] = routedReadStatements([], [agent]);
        if (read === undefined) throw new Error('no session read');
        await client.query('begin');
        await client.query(TIMEOUT);
        await client.query(read.text, [...(read.values ?? [])]);
        await client.query(
          `insert into receipts (actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids, key_id, admission_record_id, trusted_accepted_at)
           values ('agent', $1, 'urn:action:1', $1, 'message.post', 'urn:group', '{}', '{}', 'k', $1, 't')`, [agent]);
        await client.query('commit');
      }));
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    } finally {
      for (const client of clients) client.release(true);
    }
  });
});

describeOnCitus('migration 0022 on a cluster migrated before it', () => {
  beforeAll(async () => {
    earlier = await createCitusDatabase({ poolSize: 2 });
  });

  it('turns the reference table agent_sessions into one sharded by Agent, keeping its rows', async () => {
    await migrate(earlier.pool, readMigrations().filter((m) => m.version <= 21));
    // The layout 0021 left: agent_sessions a reference table, with a row.
    await earlier.pool.query("select undistribute_table('agent_sessions')");
    await earlier.pool.query("select create_reference_table('agent_sessions')");
    await earlier.pool.query("insert into agent_sessions (agent_id, session_epoch, opened_at) values ('urn:agent:kept', 3, 't')");
    expect(await migrate(earlier.pool, readMigrations().filter((m) => m.version <= 22))).toEqual(['0022_agent_sessions_by_agent.sql']);
    const layout = await earlier.pool.query<{ method: string; key: string }>(
      "select partmethod as method, column_to_column_name(logicalrelid, partkey) as key from pg_dist_partition where logicalrelid = 'agent_sessions'::regclass");
    expect(layout.rows).toEqual([{ method: 'h', key: 'agent_id' }]);
    expect((await earlier.pool.query('select agent_id, session_epoch from agent_sessions')).rows).toEqual([{ agent_id: 'urn:agent:kept', session_epoch: 3 }]);
  });
});
