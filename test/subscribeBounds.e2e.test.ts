/**
 * SUBSCRIBE from a client that does not read (§17.2–17.3): a re-SUBSCRIBE replaces the Group's
 * replay instead of stacking another beside it, SUBSCRIBE frames waiting on a connection are
 * bounded (the rest are refused with RATE_LIMITED), a failed re-SUBSCRIBE keeps its Group under
 * the per-connection cap while the replay it replaced still reads, and once the client is gone
 * no replay of its keeps reading and no Group feed is kept for it.
 */

import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GroupAccess } from '../src/app/groupAccess.js';
import type { Actor } from './support/harness.js';
import { createMission, type MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let agent: Actor;
let mission: MissionRefs;
let small: MissionRefs;
/** Replays start here: from 0 the Group is older than the online window (CURSOR_TOO_OLD). */
const FROM = 100;

beforeAll(async () => {
  const w = await serverWorld({
    humans: { owner: 'owner' },
    agents: { agent: { handle: 'resubscriber' }, coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
    limits: { replayPageSize: 200, socketHighWaterBytes: 16 * 1024, maxQueuedControlFrames: 64, maxSubscriptionsPerConnection: 1, onlineReplayWindow: 400 },
  });
  ({ server, agent, mission } = w);
  const { owner, coordinator } = w;
  small = await createMission(server.harness, owner, coordinator);
  for (const m of [mission, small]) {
    await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...agent.principal }, roles: ['worker'], visibilityAfterSequence: 0 }, { groupId: m.groupId, membershipEpoch: 1 }));
  }
  // Pages of 200 Events of ~4 KB: a replay read takes longer than the SUBSCRIBE's own queries.
  const content = 'x'.repeat(4_000);
  for (let i = 0; i < 8; i++) {
    await Promise.all(Array.from({ length: 60 }, (_, j) => server.harness.expectOk(server.harness.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: `${content} ${i}-${j}` }, { groupId: mission.groupId, membershipEpoch: 1 }))));
  }
}, 120_000);

afterEach(() => vi.restoreAllMocks());

/** Counts the replay reads of these Groups: how many started, and the most in flight at once. */
function watchReads(...groupIds: string[]): { started: number; inFlight: number; most: number } {
  const reads = { started: 0, inFlight: 0, most: 0 };
  const original = GroupAccess.prototype.replayEventsAfter;
  vi.spyOn(GroupAccess.prototype, 'replayEventsAfter').mockImplementation(function (this: GroupAccess, id: string, after: number, limit: number, onEvent: Parameters<GroupAccess['replayEventsAfter']>[3]) {
    const read = original.call(this, id, after, limit, onEvent);
    if (!groupIds.includes(id)) return read;
    reads.started++;
    reads.inFlight++;
    reads.most = Math.max(reads.most, reads.inFlight);
    const done = (): void => void reads.inFlight--;
    read.then(done, done);
    return read;
  });
  return reads;
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits until the Group's reads have stopped: none in flight and none started for 500 ms. */
async function readsSettled(reads: { started: number; inFlight: number }): Promise<void> {
  let seen = -1;
  for (let round = 0; round < 20; round++) {
    if (reads.inFlight === 0 && reads.started === seen) return;
    seen = reads.started;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('replay reads did not settle');
}

function pauseReading(client: RawClient): void {
  (client.ws as unknown as { _socket: { pause(): void } })._socket.pause();
}

describe('re-SUBSCRIBE without reading', () => {
  it('holds at most one replay of the Group at a time', async () => {
    const client = await RawClient.open(server.url, server.ca);
    await client.hello(agent);
    pauseReading(client);
    const reads = watchReads(mission.groupId);
    for (let i = 0; i < 40; i++) client.subscribe(mission.groupId, FROM);
    await until(() => reads.started >= 1);
    await readsSettled(reads);
    expect(reads.most).toBe(1);
    client.ws.terminate();
  }, 30_000);
});

describe('a SUBSCRIBE flood', () => {
  it('is bounded: frames past the queue bound are refused with RATE_LIMITED', async () => {
    const client = await RawClient.open(server.url, server.ca);
    await client.hello(agent);
    const head = (await server.db.pool.query<{ n: number }>('select max(sequence)::int as n from events where group_id = $1', [mission.groupId])).rows[0]?.n ?? 0;
    // From the head: each SUBSCRIBE costs the server its queries, not a replay to send.
    for (let i = 0; i < 500; i++) client.subscribe(mission.groupId, head);
    const refused = await client.error('RATE_LIMITED');
    expect(refused['error']).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
    client.close();
    await client.closed;
  }, 30_000);
});

describe('after the client is gone', () => {
  it('no replay of its keeps reading and no feed is kept for it', async () => {
    const client = await RawClient.open(server.url, server.ca);
    await client.hello(agent);
    pauseReading(client);
    const reads = watchReads(mission.groupId);
    for (let i = 0; i < 40; i++) client.subscribe(mission.groupId, FROM);
    await until(() => reads.started >= 1);
    client.ws.terminate();
    await until(() => server.listener.sessions.session(client.sessionToken) === undefined);
    await until(() => reads.inFlight === 0, 2_000);
    const startedAtClose = reads.started;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(reads.started).toBe(startedAtClose);
    expect(server.listener.hub.activeReplays).toBe(0);
    expect(server.listener.hub.heads().has(mission.groupId)).toBe(false);
  }, 30_000);
});

describe('a failed re-SUBSCRIBE', () => {
  it('keeps its Group under the cap until the replay it replaced has stopped reading', async () => {
    // The cap is one Group. A re-SUBSCRIBE that fails (CURSOR_TOO_OLD) frees the Group's place
    // only once the old replay holds nothing, so the next Group's replay never reads beside it.
    const reads = watchReads(mission.groupId, small.groupId);
    for (let round = 0; round < 10; round++) {
      const client = await RawClient.open(server.url, server.ca);
      await client.hello(agent);
      pauseReading(client);
      client.subscribe(mission.groupId, FROM);
      client.subscribe(mission.groupId, 0);
      client.subscribe(small.groupId, 0);
      await until(() => reads.started >= 1);
      await readsSettled(reads);
      client.ws.terminate();
    }
    expect(reads.most).toBe(1);
  }, 60_000);
});
