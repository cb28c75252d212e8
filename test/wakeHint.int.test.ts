/**
 * The cross-node wake-up hint stays valid JSON whatever a batch advances: a batch naming many
 * Groups with long IDs used to cut the NOTIFY payload at 7,900 characters, mid-JSON, so every
 * other node dropped the hint. Beyond what fits, the hint says "wake all" and listeners re-read
 * the counters of the Groups they watch.
 */

import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupAccess } from '../src/app/groupAccess.js';
import { Notifier } from '../src/delivery/notifier.js';
import { EVENTS_CHANNEL, eventsHint, MAX_HINT_BYTES, SESSIONS_CHANNEL, WAKE_ALL } from '../src/store/channels.js';
import type { TestDatabase } from './support/database.js';
import type { Harness, Actor } from './support/harness.js';
import { createMission, type MissionRefs } from './support/missions.js';
import { world } from './support/world.js';

let db: TestDatabase;
let h: Harness;
let owner: Actor;
let coordinator: Actor;
const listener = { client: undefined as pg.Client | undefined, payloads: [] as string[] };

beforeAll(async () => {
  ({ db, h, owner, coordinator } = await world({ humans: { owner: 'dana' }, agents: { coordinator: {} }, settings: { maxBatch: 64 } }));
  listener.client = new pg.Client({ connectionString: db.url });
  await listener.client.connect();
  listener.client.on('notification', (m) => listener.payloads.push(m.payload ?? ''));
  await listener.client.query(`listen ${EVENTS_CHANNEL}`);
});

afterAll(async () => {
  await listener.client?.end();
});

/** A Group ID of about `length` characters (IDs may be up to 512). */
function longId(kind: string, length: number): string {
  const id = `urn:missionweave:${kind}:${crypto.randomUUID()}-`;
  return id + 'x'.repeat(length - id.length);
}

describe('the mw_events hint', () => {
  it('names the Groups while it fits, and is "wake all" beyond, never cut', () => {
    const few = new Map([['urn:missionweave:group:a', 3]]);
    expect(JSON.parse(eventsHint(few))).toEqual({ 'urn:missionweave:group:a': 3 });
    const many = new Map(Array.from({ length: 40 }, (_, i) => [longId('group', 400), i + 1] as const));
    expect(JSON.parse(eventsHint(many))).toBe(WAKE_ALL);
    const edge = new Map(Array.from({ length: 200 }, (_, i) => [`g${i}`, 1] as const));
    expect(Buffer.byteLength(eventsHint(edge))).toBeLessThanOrEqual(MAX_HINT_BYTES);
  });

  it('stays valid JSON for a committed batch that advances many Groups with long IDs', async () => {
    const missions: MissionRefs[] = [];
    // 512-character Group IDs: a batch of 16 (the commit queue's PARALLEL_BATCH_MIN) names
    // more than the hint's 7,900 bytes, however the 30 posts are split into transactions.
    for (let i = 0; i < 30; i++) missions.push(await createMission(h, owner, coordinator, { groupId: longId('group', 512), missionId: longId('mission', 100) }));
    listener.payloads.length = 0;
    // One post per Group, submitted together so that they share write transactions.
    await Promise.all(
      missions.map((m) =>
        h.expectOk(h.send(owner, 'message.post', { messageId: `urn:uuid:${crypto.randomUUID()}`, conversationId: m.mainConversationId, content: 'hi' }, { groupId: m.groupId, membershipEpoch: 1 })),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(listener.payloads.length).toBeGreaterThan(0);
    const hints = listener.payloads.map((p) => JSON.parse(p) as unknown);
    expect(hints).toContain(WAKE_ALL);
  });

  it('wakes every watched Group of a listening node on "wake all"', async () => {
    const m = await createMission(h, owner, coordinator);
    const advanced: [string, number][] = [];
    const notifier = new Notifier(db.url, new GroupAccess(db.pool, h.settings, h.authority.kinds), {
      groupAdvanced: (groupId, last) => advanced.push([groupId, last]),
      sessionOpened: () => undefined,
      registryChanged: () => undefined,
      watched: () => new Map([[m.groupId, 0]]),
    }, pino({ level: 'silent' }), 3_600_000);
    await notifier.start();
    await db.pool.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, JSON.stringify(WAKE_ALL)]);
    await expect.poll(() => advanced, { timeout: 5_000 }).toContainEqual([m.groupId, 1]);
    await notifier.stop();
  });

  it('wakes no Group before the Registry change whose hint came first is caught up with', async () => {
    const groupId = longId('group', 60);
    const advanced: [string, number][] = [];
    const asked: number[] = [];
    const catchUps: (() => void)[] = [];
    const notifier = new Notifier(db.url, new GroupAccess(db.pool, h.settings, h.authority.kinds), {
      groupAdvanced: (id, last) => advanced.push([id, last]),
      sessionOpened: () => undefined,
      registryChanged: (revision) => {
        asked.push(revision);
        return new Promise<void>((resolve) => catchUps.push(resolve));
      },
      watched: () => new Map(),
    }, pino({ level: 'silent' }), 3_600_000);
    await notifier.start();
    // A revocation committed on another node, then a post committed after it: NOTIFY keeps that order.
    await db.pool.query('select pg_notify($1, $2)', [SESSIONS_CHANNEL, JSON.stringify({ registryRevision: 7 })]);
    await db.pool.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, JSON.stringify({ [groupId]: 3 })]);
    await expect.poll(() => asked, { timeout: 5_000 }).toEqual([7]);
    // The post's hint has arrived too (a later hint on the same connection proves it); it waits.
    await db.pool.query('select pg_notify($1, $2)', [SESSIONS_CHANNEL, JSON.stringify({ registryRevision: 8 })]);
    await expect.poll(() => asked, { timeout: 5_000 }).toEqual([7, 8]);
    expect(advanced).toEqual([]);
    for (const caughtUp of catchUps) caughtUp();
    await expect.poll(() => advanced, { timeout: 5_000 }).toEqual([[groupId, 3]]);
    await notifier.stop();
  });
});
