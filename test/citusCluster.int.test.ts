/**
 * The store on a Citus cluster (a coordinator and two workers: `scripts/citus.sh start`, then
 * MW_CITUS_URL): `migrate` distributes the tables by Mission tree (receipts by actor), the
 * pipeline runs on it (a child Mission lands in its parent's tree), the §15.1 receipt rule holds
 * across trees under concurrency, and every hot-path statement is a router (single-shard) plan.
 * Skipped, saying why, without a cluster.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { ACTOR_TABLES, AGENT_TABLES, COORDINATOR_CITUS_TABLES, COORDINATOR_TABLES, REFERENCE_TABLES, TREE_TABLES } from '../src/store/citusLayout.js';
import { migrate } from '../src/store/migrate.js';
import { inPipelinedTransaction } from '../src/store/pool.js';
import { appendRoutedStatements } from '../src/store/sql/appendRouted.js';
import type { BatchWrite } from '../src/store/sql/appendBatch.js';
import { insertGroups } from '../src/store/sql/groups.js';
import { createCitusDatabase, describeOnCitus, type CitusDatabase } from './support/citus.js';
import { Harness } from './support/harness.js';
import { childMission, createMission } from './support/missions.js';
import { COORDINATOR_SHARD_STATEMENTS, COORDINATOR_STATEMENTS, hotPathStatements, routerTasks, taskPorts } from './support/citusPlans.js';

let db: CitusDatabase;

describeOnCitus('the store on a Citus cluster', () => {
  beforeAll(async () => {
    db = await createCitusDatabase({ poolSize: 24 });
    await migrate(db.pool);
  });

  it('distributes Group-scoped tables by tree, co-located; receipts by actor, Session Epochs by Agent with them; the rest as reference tables', async () => {
    const rows = await db.pool.query<{ name: string; method: string; key: string | null; colocation: number }>(
      `select logicalrelid::regclass::text as name, partmethod as method, column_to_column_name(logicalrelid, partkey) as key, colocationid as colocation
       from pg_dist_partition`,
    );
    const table = new Map(rows.rows.map((r) => [r.name, r]));
    const colocation = table.get('groups')?.colocation;
    for (const name of TREE_TABLES) expect(table.get(name), name).toMatchObject({ method: 'h', key: 'tree_id', colocation });
    for (const name of ACTOR_TABLES) expect(table.get(name), name).toMatchObject({ method: 'h', key: 'actor_id' });
    expect(table.get('receipts')?.colocation).not.toBe(colocation);
    for (const name of AGENT_TABLES) expect(table.get(name), name).toMatchObject({ method: 'h', key: 'agent_id', colocation: table.get('receipts')?.colocation });
    for (const name of REFERENCE_TABLES) expect(table.get(name), name).toMatchObject({ method: 'n' });
    for (const name of COORDINATOR_TABLES) expect(table.has(name), name).toBe(false);
    // Citus local tables: known to Citus, their one shard on the coordinator (group 0).
    for (const name of COORDINATOR_CITUS_TABLES) expect(table.get(name), name).toMatchObject({ method: 'n', colocation: 0 });
    const placed = await db.pool.query<{ name: string; group: number }>(
      'select s.logicalrelid::regclass::text as name, p.groupid as group from pg_dist_shard s join pg_dist_placement p using (shardid) where s.logicalrelid::regclass::text = any($1)', [[...COORDINATOR_CITUS_TABLES]]);
    expect(placed.rows).toEqual(COORDINATOR_CITUS_TABLES.map((name) => ({ name, group: 0 })));
    // A second run finds everything distributed and changes nothing.
    expect(await migrate(db.pool)).toEqual([]);
  });

  it('runs the pipeline: a child Mission lives in its parent\'s tree, on the same shard', async () => {
    const h = await Harness.start(db.pool);
    const owner = await h.human('dana');
    const coordinator = await h.agent('coordinator');
    const childCoordinator = await h.agent('child-coordinator');
    const root = await createMission(h, owner, coordinator);
    const child = await childMission(h, root, coordinator, childCoordinator);
    const trees = await db.pool.query('select group_id, tree_id from groups where group_id = any($1) order by tree_id, group_id', [[root.groupId, child.groupId]]);
    expect(trees.rows.map((r) => r.tree_id)).toEqual([root.groupId, root.groupId]);
    const shards = await db.pool.query<{ shard: string }>(
      "select distinct get_shard_id_for_distribution_column('events', tree_id)::text as shard from events where tree_id = $1", [root.groupId]);
    expect(shards.rows).toHaveLength(1);
    const events = await db.pool.query<{ group_id: string; n: number }>('select group_id, count(*)::int as n from events where tree_id = $1 group by group_id', [root.groupId]);
    expect(events.rows.find((r) => r.group_id === child.groupId)?.n).toBeGreaterThan(0);
  });

  it('keeps an Action ID unique per actor across trees: of concurrent batches in different trees claiming it, one commits, whole', async () => {
    // Trees on both workers, so the winners' transactions are two-phase commits.
    const trees = Array.from({ length: 16 }, (_, i) => `urn:tree:${i}:${randomUUID()}`);
    await insertGroups(db.pool, trees.map((t) => ({ groupId: t, missionId: `urn:m:${t}`, treeId: t, parentGroupId: null })));
    const workers = await db.pool.query<{ n: number }>(
      `select count(distinct nodeport)::int as n from citus_shards where table_name = 'groups'::regclass
       and shardid in (select get_shard_id_for_distribution_column('groups', t) from unnest($1::text[]) as t)`, [trees]);
    expect(workers.rows[0]?.n).toBe(2);
    for (let round = 0; round < 5; round++) {
      const actionId = `urn:action:${randomUUID()}`;
      const attempt = (tree: string) => inPipelinedTransaction(db.pool, async (tx) => {
        const batch: BatchWrite = {
          events: [{ groupId: tree, sequence: round + 1, eventId: `urn:e:${randomUUID()}`, kind: 'k', aggregateType: 'a', aggregateId: 'x', aggregateRevision: 1, document: '{}', signingHash: randomUUID(), admissionRecordId: randomUUID(), trustedAcceptedAt: 't', keyId: 'k' }],
          aggregates: [],
          receipts: [{ actorType: 'agent', actorId: 'urn:agent:racer', actionId, signingHash: randomUUID(), kind: 'k', groupId: tree, command: '{}', eventIds: [], keyId: 'k', admissionRecordId: randomUUID(), trustedAcceptedAt: 't' }],
          sequences: new Map([[tree, round + 1]]),
          notify: undefined,
          trees: new Map([[tree, tree]]),
        };
        await tx.run([]);
        await tx.commitWith(appendRoutedStatements(batch));
      });
      const outcomes = await Promise.allSettled(trees.map(attempt));
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as { code?: string }).code).toBe('23505');
      const receipts = await db.pool.query<{ group_id: string }>('select group_id from receipts where actor_id = $1 and action_id = $2', ['urn:agent:racer', actionId]);
      expect(receipts.rows).toHaveLength(1);
      // The losers' Events (on other shards, other workers) were rolled back with their receipts.
      const events = await db.pool.query<{ tree_id: string }>('select tree_id from events where tree_id = any($1) and sequence = $2', [trees, round + 1]);
      expect(events.rows.map((r) => r.tree_id)).toEqual([receipts.rows[0]?.group_id]);
    }
  });

  it('plans every hot-path statement as a router (single-shard) query, or on the coordinator alone', async () => {
    const statements = await hotPathStatements();
    expect(statements.length).toBeGreaterThanOrEqual(10);
    const notRouted: string[] = [];
    for (const { label, statement } of statements) {
      const tasks = await routerTasks(db.pool, statement);
      // The Registry revision lies in organization_state, a table of the coordinator (migration
      // 0023): no Citus scan at all, no worker.
      const expected = COORDINATOR_STATEMENTS.has(label) ? 'no Citus scan' : 1;
      if (tasks !== expected) notRouted.push(`${label}: ${tasks}`);
      // A service's receipts lie in organization_receipts, whose one shard is the coordinator's
      // (migration 0024, a Citus local table): one task, there, no worker.
      const coordinator = Number(new URL(db.url).port);
      if (COORDINATOR_SHARD_STATEMENTS.has(label) && (await taskPorts(db.pool, statement)).join() !== String(coordinator)) notRouted.push(`${label}: not on the coordinator`);
    }
    expect(notRouted).toEqual([]);
  });
});
