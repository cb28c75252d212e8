/**
 * One order per Group on real PostgreSQL: concurrent writers, two Group Authorities on one
 * database, and a transaction that fails half-way leaving nothing behind.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GroupAuthority } from '../src/app/groupAuthority.js';
import { verifyGroupHistory } from '../src/app/verifyGroupHistory.js';
import { createPool } from '../src/store/pool.js';
import type { TestDatabase } from './support/database.js';
import type { Harness, Actor } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { world } from './support/world.js';
import { coreRegistry } from './support/coreDecider.js';

let db: TestDatabase;
let h: Harness;
let owner: Actor;
let writers: Actor[];
let mission: MissionRefs;

beforeAll(async () => {
  ({ db, h, owner } = await world({ humans: { owner: 'owner' }, poolSize: 12 }));
  const coordinator = await h.agent('coordinator');
  mission = await createMission(h, owner, coordinator);
  writers = [coordinator];
  for (let i = 0; i < 4; i++) {
    const agent = await h.agent(`writer-${i}`);
    await h.expectOk(h.send(owner, 'membership.change', { principal: { ...agent.principal }, roles: ['worker'] }, { groupId: mission.groupId, membershipEpoch: 1 }));
    writers.push(agent);
  }
});

function post(actor: Actor, content: string) {
  return h.sign(actor, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content }, { groupId: mission.groupId, membershipEpoch: 1 });
}

async function expectContiguous(groupId: string): Promise<number> {
  const sequences = (await eventsOf(db.pool, groupId)).map((e) => e['sequence']);
  expect(sequences).toEqual(sequences.map((_, i) => i + 1));
  return sequences.length;
}

describe('one order per Group', () => {
  it('gives 50 concurrent writers sequences 1..N with no gap or duplicate', async () => {
    const before = await count(db.pool, 'events', 'group_id = $1', [mission.groupId]);
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => h.authority.submit(post(writers[i % writers.length] as Actor, `m${i}`))));
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
    const sequences = outcomes.flatMap((o) => (o.ok ? o.events.map((e) => e.sequence) : []));
    expect(new Set(sequences).size).toBe(50);
    expect(Math.min(...(sequences as number[]))).toBe(before + 1);
    expect(await expectContiguous(mission.groupId)).toBe(before + 50);
  });

  it('keeps one order when two Group Authorities write the same Group concurrently', async () => {
    const otherPool = createPool(db.url, { max: 6 });
    const other: GroupAuthority = await h.peer(otherPool);
    try {
      const commands = Array.from({ length: 60 }, (_, i) => post(writers[i % writers.length] as Actor, `peer ${i}`));
      const outcomes = await Promise.all(commands.map((c, i) => (i % 2 === 0 ? h.authority : other).submit(c)));
      expect(outcomes.filter((o) => !o.ok)).toEqual([]);
      await expectContiguous(mission.groupId);
      const report = await verifyGroupHistory(db.pool, mission.groupId, { registry: h.authority.registry.current.registry, schemas: h.authority.schemas, authority: h.settings.services.authority, kinds: coreRegistry() });
      expect(report.problems).toEqual([]);
    } finally {
      await otherPool.end();
    }
  });

  it('stores a Command sent to two Group Authorities at once once, and answers both with its Event', async () => {
    const otherPool = createPool(db.url, { max: 4 });
    const other = await h.peer(otherPool);
    try {
      const before = await count(db.pool, 'events', 'group_id = $1', [mission.groupId]);
      const commands = Array.from({ length: 20 }, (_, i) => post(writers[i % writers.length] as Actor, `twice ${i}`));
      const outcomes = await Promise.all(commands.flatMap((c) => [h.authority.submit(c), other.submit(c)]));
      expect(outcomes.filter((o) => !o.ok)).toEqual([]);
      const eventIds = outcomes.map((o) => (o.ok ? o.events.map((e) => e.eventId).join() : ''));
      for (let i = 0; i < commands.length; i++) expect(eventIds[2 * i + 1]).toBe(eventIds[2 * i]);
      expect(outcomes.filter((o) => o.ok && o.duplicate)).toHaveLength(commands.length);
      expect(await count(db.pool, 'events', 'group_id = $1', [mission.groupId])).toBe(before + commands.length);
      await expectContiguous(mission.groupId);
    } finally {
      await otherPool.end();
    }
  });

  it('leaves nothing behind when a write transaction fails half-way, and recovers', async () => {
    const events = await count(db.pool, 'events');
    const receipts = await count(db.pool, 'receipts');
    const last = await db.pool.query<{ last_sequence: number }>('select last_sequence from groups where group_id = $1', [mission.groupId]);
    // Fail the aggregate upsert, which runs after the Events were inserted in the same transaction.
    await db.pool.query(`create function mw_test_fail() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`);
    await db.pool.query('create trigger mw_test_fail before insert or update on aggregates for each row execute function mw_test_fail()');
    const outcome = await h.authority.submit(post(owner, 'doomed'));
    await db.pool.query('drop trigger mw_test_fail on aggregates');
    expect(outcome.ok ? 'accepted' : outcome.error).toMatchObject({ code: 'INTERNAL_ERROR', retryable: true });
    expect(await count(db.pool, 'events')).toBe(events);
    expect(await count(db.pool, 'receipts')).toBe(receipts);
    const after = await db.pool.query<{ last_sequence: number }>('select last_sequence from groups where group_id = $1', [mission.groupId]);
    expect(after.rows).toEqual(last.rows);
    await h.expectOk(h.authority.submit(post(owner, 'after the failure')));
    await expectContiguous(mission.groupId);
  });

  it('creates a Group exactly once when two creators race for the same Group ID', async () => {
    const coordinator = writers[0] as Actor;
    const otherPool = createPool(db.url, { max: 4 });
    const other = await h.peer(otherPool);
    try {
      const groupId = `urn:missionweave:group:${randomUUID()}`;
      const payload = (missionId: string) => ({ missionId, groupId, mainConversationId: `urn:uuid:${randomUUID()}`, coordinatorId: coordinator.principal.id, title: 't', objective: 'o', definitionOfDone: [{ criterionId: 'c', description: 'd', evidenceRequired: ['human_review'] }], budget: { toolCallLimit: 10 }, deadline: new Date(h.clock.millis + 86_400_000).toISOString() });
      const [a, b] = await Promise.all([
        h.authority.submit(h.sign(owner, 'mission.create', payload(`urn:uuid:${randomUUID()}`), { groupId })),
        other.submit(h.sign(owner, 'mission.create', payload(`urn:uuid:${randomUUID()}`), { groupId })),
      ]);
      expect([a, b].filter((o) => o.ok)).toHaveLength(1);
      expect([a, b].map((o) => (o.ok ? 'ok' : o.error.code)).sort()).toEqual(['INVALID_STATE_TRANSITION', 'ok']);
      expect(await count(db.pool, 'events', 'group_id = $1', [groupId])).toBe(1);
    } finally {
      await otherPool.end();
    }
  });
});
