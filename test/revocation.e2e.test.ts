/**
 * Revocation cuts reads at once (§6.1, §6.4): when an Agent's card is revoked, or its session key
 * revoked in the Registry, every open session of that Agent — on the node that registered the
 * change and on any other node on the same database — is closed with 4503 and an
 * AUTH_INVALID_SIGNATURE ERROR, and receives no further EVENT of the Groups it subscribed to.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { createPool } from '../src/store/pool.js';
import { CLOSE } from '../src/transport/limits.js';
import type { RunningListener } from '../src/transport/listener.js';
import type { Actor } from './support/harness.js';
import { createMission, type MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import { revisedCard as revisedCardOf } from './support/revisedCards.js';
import { startNode, startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let second: RunningListener;
let owner: Actor;
let coordinator: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  server = await startTestServer();
  const pool = createPool(server.db.url, { max: 4 });
  second = await startNode(await server.harness.peer(pool), pool, server.db.url);
  owner = await server.harness.human('owner');
  coordinator = await server.harness.agent('coordinator');
  mission = await createMission(server.harness, owner, coordinator);
});

/** A member Agent with a live, subscribed session on `url`. */
async function subscribedReader(url: string): Promise<{ reader: Actor; client: RawClient }> {
  const reader = await server.harness.agent('reader');
  await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...reader.principal }, roles: ['observer'] }, { groupId: mission.groupId, membershipEpoch: 1 }));
  const client = await RawClient.open(url, server.ca);
  expect(await client.hello(reader)).toBeGreaterThan(0);
  client.subscribe(mission.groupId, 0);
  await client.next((f) => f.frameType === 'EVENT');
  return { reader, client };
}

/** The Agent's card again, as version 2 (`support/revisedCards.ts`). */
function revisedCard(agent: Actor, status: 'active' | 'revoked', at?: string, boundary: 'revokedAt' | 'validUntil' = 'revokedAt'): JsonObject {
  return revisedCardOf(server.harness, agent, status, at, boundary);
}

async function register(card: JsonObject): Promise<void> {
  await server.harness.expectOk(server.harness.send(server.harness.registry, 'ext.missionweaveprotocol.registry.agent_card_register', { card }));
}

/** A message posted after the revocation; the revoked reader must never see it. */
async function postAfterRevocation(): Promise<string> {
  const content = `after revocation ${randomUUID()}`;
  await server.harness.expectOk(server.harness.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content }, { groupId: mission.groupId, membershipEpoch: 1 }));
  return content;
}

/** Whether an Event carries the (unique) text. */
function carries(event: Record<string, unknown>, text: string): boolean {
  return JSON.stringify(event['payload']).includes(text);
}

function sawContent(client: RawClient, content: string): boolean {
  return client.events(mission.groupId).some((e) => carries(e, content));
}

async function closedWithin(client: RawClient, ms: number): Promise<{ code: number; reason: string } | 'still open'> {
  return Promise.race([client.closed, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms))]);
}

describe('revoking an Agent', () => {
  it('closes its session on another node at once when its card is revoked, and it reads nothing more', async () => {
    const { reader, client } = await subscribedReader(second.url);
    const bystander = await RawClient.open(second.url, server.ca);
    await bystander.hello(coordinator);
    bystander.subscribe(mission.groupId, 0);
    await register(revisedCard(reader, 'revoked'));
    // Posted at once, before node B has heard of the revocation: its hint follows the revocation's.
    const content = await postAfterRevocation();
    expect(await closedWithin(client, 2_000)).toMatchObject({ code: CLOSE.credentialsRevoked });
    expect(client.lastError()?.['error']).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE' });
    await bystander.next((f) => f.frameType === 'EVENT' && carries(f['event'] as Record<string, unknown>, content));
    expect(sawContent(client, content)).toBe(false);
    // The other Agent's session on that node is untouched.
    expect(await closedWithin(bystander, 100)).toBe('still open');
    bystander.close();
  });

  it('closes its session on the node that registered the change when its session key is revoked', async () => {
    const { reader, client } = await subscribedReader(server.url);
    await register(revisedCard(reader, 'active', server.harness.now()));
    expect(await closedWithin(client, 2_000)).toMatchObject({ code: CLOSE.credentialsRevoked });
    const content = await postAfterRevocation();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sawContent(client, content)).toBe(false);
  });

  it('ends a session when its key stops being valid, not an hour later', async () => {
    const reader = await server.harness.agent('expiring');
    const validUntil = new Date(server.harness.clock.millis + 1_500).toISOString();
    await register(revisedCard(reader, 'active', validUntil, 'validUntil'));
    const client = await RawClient.open(second.url, server.ca);
    expect(await client.hello(reader)).toBeGreaterThan(0);
    const accept = client.frames.find((f) => f['phase'] === 'server_accept');
    expect(accept?.['expiresAt']).toBe(validUntil);
    expect(await closedWithin(client, 3_000)).toMatchObject({ code: CLOSE.sessionExpired });
  });

  it('refuses the revoked Agent a new session', async () => {
    const { reader, client } = await subscribedReader(second.url);
    await register(revisedCard(reader, 'revoked'));
    await closedWithin(client, 2_000);
    const again = await RawClient.open(second.url, server.ca);
    expect(await again.hello(reader)).toBe(0);
    expect(again.lastError()?.['error']).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE' });
  });
});
