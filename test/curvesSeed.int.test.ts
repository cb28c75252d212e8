/**
 * The scaling curves' setup (src/bench/curvesSeed.ts) on a real PostgreSQL: Groups made through
 * the Command path, and a history seeded through the store layer that an operator's full
 * verification accepts — and rejects once one stored Event is altered.
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BenchWorld, type BenchAgent, type BenchMission } from '../src/bench/benchWorld.js';
import { CURVE_LIMITS } from '../src/bench/curvesPlan.js';
import { createGroups, seedHistory, verifySeeded } from '../src/bench/curvesSeed.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

describe('curves setup', () => {
  let db: TestDatabase;
  let world: BenchWorld;
  let writers: BenchAgent[];

  beforeAll(async () => {
    db = await createTestDatabase();
    world = await BenchWorld.create(mkdtempSync(join(tmpdir(), 'mw-curves-test-')), db.url);
    writers = await world.agents('writer', 3);
  }, 300_000);

  afterAll(async () => {
    await world.close();
  });

  it('grows the Groups through the Command path, every writer a Member of the first ones', async () => {
    const groups: BenchMission[] = [];
    await createGroups(world, writers, groups, 2);
    await createGroups(world, writers, groups, 5);
    expect(groups.filter(Boolean)).toHaveLength(5);
    expect(new Set(groups.map((g) => g.groupId)).size).toBe(5);
    const members = await db.pool.query<{ group_id: string; n: string }>(
      "select group_id, count(*) as n from aggregates where aggregate_type = 'membership' and group_id = any($1) group by group_id", [groups.map((g) => g.groupId)]);
    const count = new Map(members.rows.map((r) => [r.group_id, Number(r.n)]));
    for (const [j, g] of groups.entries()) expect(count.get(g.groupId)).toBe(j < writers.length ? writers.length + 1 : 2); // the owner and the coordinator, and the other writers
  }, 300_000);

  it('seeds a history across batches that verifies, and that fails once an Event is altered', async () => {
    const mission = await world.mission(writers[0] as BenchAgent, []);
    const total = CURVE_LIMITS.seedBatch + 300;
    await seedHistory(world, mission, total, 'seeded');
    const head = await db.pool.query<{ s: string }>('select last_sequence as s from groups where group_id = $1', [mission.groupId]);
    expect(Number(head.rows[0]?.s)).toBe(total);
    const receipts = await db.pool.query<{ n: string }>("select count(*) as n from receipts where group_id = $1 and kind = 'message.post'", [mission.groupId]);
    expect(Number(receipts.rows[0]?.n)).toBe(total - 1);
    expect(await verifySeeded(world, mission.groupId)).toEqual([]);
    await db.pool.query("update events set document = replace(document, '\"seeded\"', '\"altered\"') where group_id = $1 and sequence = $2", [mission.groupId, total - 5]);
    const problems = await verifySeeded(world, mission.groupId);
    expect(problems.some((p) => p.startsWith(`sequence ${total - 5}: signature verification failed`))).toBe(true);
  }, 600_000);
});
