/**
 * `verifyGroupHistory` stays linear in the history: its fold hands each Event a state holding
 * only the Messages that Event names, never every Message so far (which `evolve`, copying the
 * map it changes, made quadratic: 20,000 Events took 385 s). Counted, not timed: the size of the
 * `messages` map each `evolve` call receives is bounded by the Event, not by the history. 300
 * Events show it as well as 3,000 did: the bound asked is 2, the quadratic fold reached 299.
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { verifyGroupHistory } from '../src/app/verifyGroupHistory.js';
import { BenchWorld, type BenchAgent } from '../tools/bench/benchWorld.js';
import { seedHistory } from '../tools/bench/curvesSeed.js';
import type { KindRegistry } from '../src/domain/kinds/kindRegistry.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { coreRegistry } from './support/coreDecider.js';

let db: TestDatabase;
let world: BenchWorld;
let writer: BenchAgent;

beforeAll(async () => {
  db = await createTestDatabase();
  world = await BenchWorld.create(mkdtempSync(join(tmpdir(), 'mw-verify-linear-')), db.url);
  [writer] = (await world.agents('writer', 1)) as [BenchAgent];
}, 300_000);

afterAll(async () => {
  await world.close();
});

/** The running Authority's kinds, recording the `messages` size of every state `evolve` is given. */
function countingKinds(sizes: number[]): KindRegistry {
  const kinds = world.running.authority.kinds;
  const counting = Object.create(kinds) as KindRegistry;
  counting.evolve = (state, event) => {
    sizes.push(state?.messages.size ?? 0);
    return kinds.evolve(state, event);
  };
  return counting;
}

it('folds a long message.post history with a bounded Message view per Event, and still checks every Message', async () => {
  const mission = await world.mission(writer, []);
  const total = 300;
  await seedHistory(world, mission, total, 'linear');
  const { authority } = world.running;
  const verifier = { registry: authority.registry.current.registry, schemas: authority.schemas, authority: world.home.settings().services.authority, kinds: coreRegistry() };
  const sizes: number[] = [];
  const report = await verifyGroupHistory(db.pool, mission.groupId, { ...verifier, kinds: countingKinds(sizes) });
  expect(report.problems).toEqual([]);
  expect(report.events).toBe(total);
  expect(sizes).toHaveLength(total);
  // A message.posted names no earlier Message; an amendment names one. Before: up to total - 1.
  expect(Math.max(...sizes)).toBeLessThanOrEqual(2);

  // Every Message still reaches the state comparison: one missing from the fold, or altered, is found.
  const last = await db.pool.query<{ id: string }>(
    "select aggregate_id as id from aggregates where group_id = $1 and aggregate_type = 'message' order by aggregate_id limit 2", [mission.groupId]);
  const [altered, stray] = last.rows.map((r) => r.id) as [string, string];
  await db.pool.query("update aggregates set document = jsonb_set(document, '{status}', '\"retracted\"') where group_id = $1 and aggregate_type = 'message' and aggregate_id = $2", [mission.groupId, altered]);
  await db.pool.query("update aggregates set aggregate_id = $3 where group_id = $1 and aggregate_type = 'message' and aggregate_id = $2", [mission.groupId, stray, `urn:uuid:${randomUUID()}`]);
  const problems = (await verifyGroupHistory(db.pool, mission.groupId, verifier)).problems;
  expect(problems).toContain(`state: message ${altered} differs from the replay`);
  expect(problems).toContain(`state: message ${stray} missing from the store`);
}, 300_000);
