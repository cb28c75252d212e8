/**
 * The scaling curves' setup (tools/bench/curvesSeed.ts) on a real PostgreSQL: Groups made through
 * the Command path, and a history seeded through the store layer that an operator's full
 * verification accepts — and rejects once one stored Event is altered.
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BenchWorld, type BenchAgent, type BenchMission } from '../tools/bench/benchWorld.js';
import { CURVE_LIMITS } from '../tools/bench/curvesPlan.js';
import { seedAgents } from '../tools/bench/curvesAgents.js';
import { createGroups, seedHistory, verifySeeded } from '../tools/bench/curvesSeed.js';
import { loadRegistrySnapshot } from '../src/app/registrySnapshot.js';
import { verifyParsedDocument } from '../src/protocol/signing/verifySignedDocument.js';
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

  it('seeds a history across more batches than workers that verifies, and that fails once an Event is altered', async () => {
    const mission = await world.mission(writers[0] as BenchAgent, []);
    const total = CURVE_LIMITS.seedWorkers * CURVE_LIMITS.seedBatch + 300; // more batches than signing workers
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

  it('registers Agents through the store layer as the Organization does: signed Events, bound keys, Agents the deciders know', async () => {
    const org = world.running.authority.settings.services.organizationId;
    const before = (await db.pool.query<{ r: string; p: string }>('select registry_revision as r, last_position as p from organization_state where organization_id = $1', [org])).rows[0];
    const count = CURVE_LIMITS.agentSeedChunk + 200;
    const agents = await seedAgents(world, 'seeded', count);
    const after = (await db.pool.query<{ r: string; p: string }>('select registry_revision as r, last_position as p from organization_state where organization_id = $1', [org])).rows[0];
    expect(Number(after?.r) - Number(before?.r)).toBe(count);
    expect(Number(after?.p) - Number(before?.p)).toBe(count);
    // The Event a real registration wrote (writers were registered through the Command path) and a seeded one have the same members.
    const events = await db.pool.query<{ position: string; document: string }>('select position, document from organization_events order by position');
    const positions = events.rows.map((r) => Number(r.position));
    expect(positions).toEqual(Array.from({ length: positions.length }, (_, i) => i + 1));
    const real = JSON.parse(events.rows.find((r) => r.document.includes(writers[0]?.id as string))?.document as string) as Record<string, unknown>;
    const seeded = JSON.parse(events.rows.at(-1)?.document as string) as Record<string, unknown>;
    expect(Object.keys(seeded).sort()).toEqual(Object.keys(real).sort());
    expect(Object.keys(seeded['payload'] as object).sort()).toEqual(Object.keys(real['payload'] as object).sort());
    const { registry, schemas } = world.running.authority;
    for (const row of events.rows.slice(-count)) expect(verifyParsedDocument('event', JSON.parse(row.document), registry.current.registry, schemas).ok).toBe(true);
    // What a serve node reads at start: every seeded key bound to its Agent, every Agent active.
    const snapshot = await loadRegistrySnapshot(db.pool, org);
    for (const agent of agents) {
      expect(snapshot.registry.resolve(agent.keyId)?.principal.id).toBe(agent.id);
      expect(snapshot.agents.get(agent.id)?.status).toBe('active');
    }
    // The in-process Authority catches up and lets a seeded Agent coordinate a Mission with another as a Member.
    const mission = await world.mission(agents[0] as BenchAgent, [agents[count - 1] as BenchAgent]);
    const members = await db.pool.query<{ n: string }>("select count(*) as n from aggregates where aggregate_type = 'membership' and group_id = $1", [mission.groupId]);
    expect(Number(members.rows[0]?.n)).toBe(3);
    // A tampered seeded Event fails the real check.
    const tampered = JSON.parse((events.rows.at(-1)?.document as string).replace('"cardVersion":1', '"cardVersion":2'));
    expect(verifyParsedDocument('event', tampered, registry.current.registry, schemas).ok).toBe(false);
  }, 600_000);
});
