/**
 * PING on an authenticated connection (§17.3): the server answers a PING with one of its own
 * that echoes the nonce, never answers an answer, and keeps the Presence Record a PING carries
 * (§6.2) — only the Agent's own, only a valid one. PING frames keep a session open; pongs to
 * the server's heartbeat do not (the idle limit, scaled down).
 */

import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { RawClient } from './support/rawClient.js';
import { startNode, type TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let agent: Actor;
let other: Actor;

beforeAll(async () => {
  ({ server, agent, other } = await serverWorld({ agents: { agent: { handle: 'pinger' }, other: {} } }));
});

function presenceOf(actor: Actor, sessionEpoch: number, status = 'online'): JsonObject {
  const now = Date.now();
  return {
    agentId: actor.principal.id,
    sessionEpoch,
    status,
    capacity: { maxSlots: 2, activeSlots: 1, availableSlots: 1, queuedItems: 0 },
    capabilityAvailability: [{ capability: { id: 'code.review', version: '1.0.0' }, status: 'available' }],
    estimatedResponseMs: 250,
    lastHeartbeat: new Date(now).toISOString(),
    expiresAt: new Date(now + 30_000).toISOString(),
  };
}

const isPing = (f: { frameType: string }) => f.frameType === 'PING' || f.frameType === 'ERROR';

describe('PING', () => {
  it('is answered by a PING echoing its nonce, with a fresh nonce of the server', async () => {
    const client = await RawClient.open(server.url, server.ca);
    await client.hello(agent);
    client.send({ frameType: 'PING', nonce: 'bm9uY2Utb25l', sentAt: new Date().toISOString() });
    const answer = await client.next(isPing);
    expect(answer).toMatchObject({ frameType: 'PING', replyToNonce: 'bm9uY2Utb25l' });
    expect(typeof answer['nonce']).toBe('string');
    expect(answer['nonce']).not.toBe('bm9uY2Utb25l');
    expect(Number.isNaN(Date.parse(String(answer['sentAt'])))).toBe(false);
    client.close();
  });

  it('does not answer a reply PING', async () => {
    const client = await RawClient.open(server.url, server.ca);
    await client.hello(agent);
    client.send({ frameType: 'PING', nonce: 'cmVwbHk', replyToNonce: 'c2VydmVy', sentAt: new Date().toISOString() });
    client.send({ frameType: 'PING', nonce: 'c2Vjb25k', sentAt: new Date().toISOString() });
    // Frames keep their order on a connection, so the first answer is to the second PING.
    expect(await client.next(isPing)).toMatchObject({ frameType: 'PING', replyToNonce: 'c2Vjb25k' });
    client.close();
  });

  it('keeps the Presence Record of the Agent itself, and only that', async () => {
    const client = await RawClient.open(server.url, server.ca);
    const epoch = await client.hello(agent);
    const mine = presenceOf(agent, epoch, 'busy');
    client.send({ frameType: 'PING', nonce: 'cHJlc2VuY2U', sentAt: new Date().toISOString(), presence: mine });
    expect(await client.next(isPing)).toMatchObject({ frameType: 'PING', replyToNonce: 'cHJlc2VuY2U' });
    expect(server.listener.presence.get(agent.principal.id)).toEqual(mine);

    client.send({ frameType: 'PING', nonce: 'c3Bvb2Y', sentAt: new Date().toISOString(), presence: presenceOf(other, 1, 'offline') });
    expect(await client.next(isPing)).toMatchObject({ frameType: 'PING', replyToNonce: 'c3Bvb2Y' });
    expect(server.listener.presence.has(other.principal.id)).toBe(false);
    expect(server.listener.presence.get(agent.principal.id)).toEqual(mine);
    client.close();
  });

  it('refuses a Presence Record that breaks its schema, keeping the last good one', async () => {
    const client = await RawClient.open(server.url, server.ca);
    const epoch = await client.hello(agent);
    const before = server.listener.presence.get(agent.principal.id);
    client.send({ frameType: 'PING', nonce: 'YmFk', sentAt: new Date().toISOString(), presence: { ...presenceOf(agent, epoch), status: 'sleepy' } });
    expect((await client.next(isPing))['error']).toMatchObject({ code: 'SCHEMA_VALIDATION_FAILED' });
    expect(server.listener.presence.get(agent.principal.id)).toEqual(before);
    client.close();
  });
});

describe('the idle limit', () => {
  it('closes a session that answers heartbeats but sends nothing (4002), and keeps one that PINGs', async () => {
    const node = await startNode(server.harness.authority, server.db.pool, server.db.url, { idleTimeoutMs: 600, heartbeatIntervalMs: 150 });
    const silent = await RawClient.open(node.url, server.ca);
    await silent.hello(agent);
    const pinging = await RawClient.open(node.url, server.ca);
    await pinging.hello(other);
    const pinger = setInterval(() => pinging.send({ frameType: 'PING', nonce: 'a2VlcA', sentAt: new Date().toISOString() }), 200);
    try {
      const outcome = await Promise.race([silent.closed, new Promise((resolve) => setTimeout(() => resolve('still open'), 3_000))]);
      expect(outcome).toMatchObject({ code: 4002 });
      expect(pinging.ws.readyState).toBe(pinging.ws.OPEN);
    } finally {
      clearInterval(pinger);
      pinging.close();
    }
  });
});
