/**
 * An event stream on one node learns of an Event committed on another (docs/human-api.md "Live
 * updates"): the other node's NOTIFY wakes it through the DeliveryHub, well before the stream's
 * own 15 s heartbeat would re-read the Group; a human session is one node's own, so the other
 * node answers its token with AUTH_REQUIRED; and a key enrolled on one node signs in on the other
 * at once.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPool, type Pool } from '../src/store/pool.js';
import type { Actor } from './support/harness.js';
import { httpJson, signIn, SseReader } from './support/humanReader.js';
import type { MissionRefs } from './support/missions.js';
import { startNode, type TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let mission: MissionRefs;
let pool: Pool;
let second: { httpsUrl: string; ca: string };

beforeAll(async () => {
  ({ server, owner, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
  }));
  pool = createPool(server.db.url, { max: 4 });
  const node = await startNode(await server.harness.peer(pool), pool, server.db.url);
  second = { httpsUrl: node.httpsUrl, ca: server.ca };
});

afterAll(async () => {
  await pool.end();
});

it('streams on node B an Event committed on node A, woken by its NOTIFY', async () => {
  const { token } = await signIn(second, owner);
  const head = (await httpJson(second, 'GET', `/v1/groups/${encodeURIComponent(mission.groupId)}/events`, { token })).body.lastSequence as number;
  const stream = await SseReader.open(second, `/v1/groups/${encodeURIComponent(mission.groupId)}/stream?after=${head}`, token);
  expect(stream.status).toBe(200);
  await server.harness.expectOk(server.harness.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: 'from node A' }, { groupId: mission.groupId, membershipEpoch: 1 }));
  await stream.until((r) => r.frames.length >= 1, 5_000);
  expect(stream.frames[0]).toMatchObject({ id: String(head + 1), event: 'event' });
  stream.close();
  expect((await httpJson(server, 'GET', '/v1/me', { token })).status).toBe(401);
});

it('signs in on node B at once with a key just enrolled on node A', async () => {
  const newcomer = await server.harness.human('newcomer');
  const { token } = await signIn(second, newcomer);
  expect((await httpJson(second, 'GET', '/v1/me', { token })).body).toEqual({ principal: newcomer.principal, groups: [], truncated: false });
});
