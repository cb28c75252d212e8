/**
 * Flow control and the HTTPS face: a slow consumer gets BACKPRESSURE for its noisy Group only
 * and later receives everything in order; a Cursor older than the online window gets
 * CURSOR_TOO_OLD with a signed snapshot it can fetch and verify; an ended Membership stops
 * delivery; humans submit Commands over HTTPS through the same pipeline.
 */

import { createHash, randomUUID } from 'node:crypto';
import { request } from 'node:https';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifySignedDocument } from '../src/protocol/signing/verifySignedDocument.js';
import type { Actor } from './support/harness.js';
import { createMission, type MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let agent: Actor;
let noisy: MissionRefs;
let quiet: MissionRefs;

beforeAll(async () => {
  ({ server, owner, agent } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { agent: { handle: 'slow' } },
    limits: { groupQueueLimit: 40, socketHighWaterBytes: 16 * 1024, backpressureRetryMs: 200, onlineReplayWindow: 400 },
  }));
  const coordinator = await server.harness.agent('coordinator');
  noisy = await createMission(server.harness, owner, coordinator);
  quiet = await createMission(server.harness, owner, coordinator);
  for (const m of [noisy, quiet]) {
    await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...agent.principal }, roles: ['worker'], visibilityAfterSequence: 0 }, { groupId: m.groupId, membershipEpoch: 1 }));
  }
});

function post(m: MissionRefs, content: string) {
  return server.harness.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: m.mainConversationId, content }, { groupId: m.groupId, membershipEpoch: 1 });
}

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function https(method: string, path: string, body?: string, token?: string): Promise<{ status: number; text: string }> {
  const url = new URL(path, server.httpsUrl);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) };
  return new Promise((resolve, reject) => {
    const req = request(url, { method, ca: server.ca, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('per-Group backpressure', () => {
  it('pauses only the noisy Group of a slow consumer, then delivers everything in order', async () => {
    const content = 'x'.repeat(900);
    for (let i = 0; i < 6; i++) await Promise.all(Array.from({ length: 60 }, (_, j) => post(noisy, `${content} ${i}-${j}`)));
    await post(quiet, 'a quiet update');
    const client = await RawClient.open(server.url, server.ca);
    await client.hello(agent);
    const socket = (client.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    client.send({ frameType: 'SUBSCRIBE', subscriptionId: `urn:uuid:${randomUUID()}`, groups: [{ groupId: noisy.groupId, afterSequence: 0 }, { groupId: quiet.groupId, afterSequence: 0 }] });
    // The client reads nothing until the server has paused a Group: a fixed wait (1.5 s) ended
    // before the replay had filled the socket on a loaded machine, and nothing was paused.
    const pausesBefore = server.listener.hub.tally.pauses;
    await until(() => server.listener.hub.tally.pauses > pausesBefore);
    socket.resume();
    const pause = await client.error('BACKPRESSURE');
    expect(pause['error']).toMatchObject({ groupId: noisy.groupId, retryAfterMs: 200, retryable: true });
    const last = (await server.db.pool.query<{ n: number }>('select max(sequence)::int as n from events where group_id = $1', [noisy.groupId])).rows[0]?.n ?? 0;
    await until(() => client.events(noisy.groupId).length >= last);
    expect(client.events(noisy.groupId).map((e) => e['sequence'])).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    expect(client.frames.filter((f) => f.frameType === 'ERROR' && (f['error'] as { groupId?: string }).groupId === quiet.groupId)).toEqual([]);
    expect(client.events(quiet.groupId).map((e) => e['kind'])).toContain('message.posted');
    client.close();
  }, 60_000);
});

describe('CURSOR_TOO_OLD', () => {
  it('names a signed snapshot the Agent can fetch, verify and resume after', async () => {
    const coordinator = await server.harness.agent('coordinator-2');
    const old = await createMission(server.harness, owner, coordinator);
    await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...agent.principal }, roles: ['worker'], visibilityAfterSequence: 0 }, { groupId: old.groupId, membershipEpoch: 1 }));
    // Push the Group past the 400-Event online window.
    for (let i = 0; i < 5; i++) await Promise.all(Array.from({ length: 90 }, (_, j) => post(old, `old ${i}-${j}`)));
    const client = await RawClient.open(server.url, server.ca);
    await client.hello(agent);
    client.subscribe(old.groupId, 0);
    const error = (await client.error('CURSOR_TOO_OLD'))['error'] as { snapshotArtifactHash: string; details: { snapshotUrl: string; throughSequence: number } };
    expect(await https('GET', error.details.snapshotUrl)).toMatchObject({ status: 401 });
    const outsider = await RawClient.open(server.url, server.ca);
    await outsider.hello(await server.harness.agent('outsider'));
    expect(await https('GET', error.details.snapshotUrl, undefined, outsider.sessionToken)).toMatchObject({ status: 404 });
    outsider.close();
    const fetched = await https('GET', error.details.snapshotUrl, undefined, client.sessionToken);
    expect(fetched.status).toBe(200);
    expect(`sha256:${createHash('sha256').update(fetched.text).digest('hex')}`).toBe(error.snapshotArtifactHash);
    const { snapshot } = JSON.parse(fetched.text) as { snapshot: { throughSequence: number } };
    const verified = verifySignedDocument('group-snapshot', Buffer.from(JSON.stringify(snapshot)), server.harness.authority.registry.current.registry, server.harness.authority.schemas);
    expect(verified.ok).toBe(true);
    client.subscribe(old.groupId, snapshot.throughSequence);
    await post(old, 'after the snapshot');
    await until(() => client.events(old.groupId).some((e) => Number(e['sequence']) === snapshot.throughSequence + 1));
    client.close();
  });
});

describe('Membership and delivery', () => {
  it('stops delivering a Group once the subscriber’s Membership ends', async () => {
    const member = await server.harness.agent('leaver');
    await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...member.principal }, roles: ['observer'] }, { groupId: quiet.groupId, membershipEpoch: 1 }));
    const client = await RawClient.open(server.url, server.ca);
    await client.hello(member);
    client.subscribe(quiet.groupId, 0);
    await until(() => client.events(quiet.groupId).length > 0);
    await server.harness.expectOk(server.harness.send(owner, 'membership.end', { principal: { ...member.principal } }, { groupId: quiet.groupId, membershipEpoch: 1 }));
    expect((await client.error('MEMBERSHIP_REQUIRED'))['error']).toMatchObject({ groupId: quiet.groupId });
    const seen = client.events(quiet.groupId).length;
    await post(quiet, 'not for the former member');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(client.events(quiet.groupId).length).toBe(seen);
    client.close();
  });
});

describe('HTTPS', () => {
  it('accepts a human’s signed Command, answers a retry as a duplicate, and refuses Agents and garbage', async () => {
    expect(await https('GET', '/health')).toMatchObject({ status: 200 });
    expect(await https('GET', '/ready')).toMatchObject({ status: 200 });
    const command = JSON.stringify(server.harness.sign(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: quiet.mainConversationId, content: 'over HTTPS' }, { groupId: quiet.groupId, membershipEpoch: 1 }));
    const created = await https('POST', '/v1/commands', command);
    expect(created.status).toBe(201);
    const again = await https('POST', '/v1/commands', command);
    expect(JSON.parse(again.text)).toMatchObject({ duplicate: true, events: JSON.parse(created.text).events });
    const byAgent = JSON.stringify(server.harness.sign(agent, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: quiet.mainConversationId, content: 'x' }, { groupId: quiet.groupId, membershipEpoch: 1 }));
    expect(await https('POST', '/v1/commands', byAgent)).toMatchObject({ status: 401 });
    const garbage = await https('POST', '/v1/commands', '{"a":1,"a":2}');
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.text).error).toMatchObject({ code: 'PROTOCOL_VIOLATION' });
  });
});
