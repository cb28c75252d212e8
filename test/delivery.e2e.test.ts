/**
 * Commands and delivery over a real wss server: the sender always gets its Events, SUBSCRIBE
 * replays then streams with no gap or reordering at the seam (raced against live writers),
 * attention filters narrow live traffic only, two nodes on one database deliver one order, and
 * malformed frames get the right ERROR and change nothing.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../src/store/pool.js';
import type { Actor } from './support/harness.js';
import { count, type MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import { startNode, type TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let coordinator: Actor;
let worker: Actor;
let observer: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ server, owner, coordinator, worker, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {}, worker: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
  }));
  observer = await server.harness.agent('observer');
  for (const [agent, role] of [[worker, 'worker'], [observer, 'observer']] as const) {
    await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...agent.principal }, roles: [role] }, { groupId: mission.groupId, membershipEpoch: 1 }));
  }
});

async function connected(actor: Actor, url = server.url): Promise<{ client: RawClient; epoch: number }> {
  const client = await RawClient.open(url, server.ca);
  return { client, epoch: await client.hello(actor) };
}

function postFrame(actor: Actor, epoch: number, content: string, membershipEpoch = 1) {
  const command = server.harness.sign({ ...actor, sessionEpoch: epoch }, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content }, { groupId: mission.groupId, membershipEpoch });
  return { frameType: 'COMMAND', command };
}

async function until(check: () => boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('COMMAND frames', () => {
  it('sends the sender its Events, the same ones again for a retry, and an ERROR naming frame and Action ID', async () => {
    const { client, epoch } = await connected(worker);
    const frame = postFrame(worker, epoch, 'unsubscribed sender');
    client.send(frame);
    const first = await client.next((f) => f.frameType === 'EVENT');
    client.send(frame);
    const second = await client.next((f) => f.frameType === 'EVENT');
    expect(second['event']).toEqual(first['event']);
    const bad = postFrame(worker, epoch, 'stale membership', 9);
    const frameId = client.send(bad);
    const error = await client.error('MEMBERSHIP_STALE');
    expect(error['error']).toMatchObject({ relatedFrameId: frameId, relatedActionId: (bad.command as { actionId: string }).actionId, retryable: false });
    client.close();
  });
});

describe('SUBSCRIBE', () => {
  it('replays then streams live with no gap or reordering at the seam, raced against writers', async () => {
    const writers = await Promise.all([connected(worker), connected(coordinator)]);
    const sends = writers.flatMap(({ client, epoch }, w) => Array.from({ length: 60 }, (_, i) => () => client.send(postFrame(w === 0 ? worker : coordinator, epoch, `race ${w}-${i}`))));
    let sent = 0;
    const pump = setInterval(() => sends[sent++]?.(), 2);
    await new Promise((resolve) => setTimeout(resolve, 60));
    const { client: reader } = await connected(observer);
    reader.subscribe(mission.groupId, 0);
    await until(() => sent >= sends.length, 15_000, 'all sent');
    clearInterval(pump);
    await until(() => writers.every(({ client }) => client.frames.filter((f) => f.frameType === 'EVENT' || f.frameType === 'ERROR').length >= 60)).catch((e: unknown) => {
      throw new Error(`${String(e)}: ${JSON.stringify(writers.map(({ client }) => [client.frames.length, client.frames.filter((f) => f.frameType === 'ERROR').slice(0, 2)]))}`);
    });
    expect(writers.flatMap(({ client }) => client.frames.filter((f) => f.frameType === 'ERROR'))).toEqual([]);
    const total = await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId]);
    // The observer joined at sequence 3: its visibility starts there (§8).
    await until(() => reader.events(mission.groupId).length >= total - 2, 15_000, `reader has ${total - 2}`);
    const sequences = reader.events(mission.groupId).map((e) => e['sequence']);
    expect(sequences).toEqual(Array.from({ length: total - 2 }, (_, i) => i + 3));
    for (const { client } of writers) client.close();
    reader.close();
  });

  it('narrows live delivery by attention filter but replays all authorized history', async () => {
    const { client: filtered } = await connected(coordinator);
    filtered.subscribe(mission.groupId, 0, { eventKinds: ['membership.changed'] });
    const total = await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId]);
    await until(() => filtered.events(mission.groupId).length >= total);
    const { client: writer, epoch } = await connected(worker);
    writer.send(postFrame(worker, epoch, 'filtered out live'));
    await writer.next((f) => f.frameType === 'EVENT');
    await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['reviewer'] }, { groupId: mission.groupId, membershipEpoch: 1 }));
    await until(() => filtered.events(mission.groupId).some((e) => e['kind'] === 'membership.changed' && Number(e['sequence']) > total));
    expect(filtered.events(mission.groupId).filter((e) => Number(e['sequence']) > total).map((e) => e['kind'])).toEqual(['membership.changed']);
    filtered.close();
    writer.close();
  });

  it('hides a Group from a non-member exactly like a missing one', async () => {
    const stranger = await server.harness.agent('stranger');
    const { client } = await connected(stranger);
    client.subscribe(mission.groupId, 0);
    const hidden = await client.error();
    client.subscribe('urn:missionweave:group:nowhere', 0);
    const missing = await client.error();
    expect((hidden['error'] as { code: string }).code).toBe('GROUP_NOT_FOUND');
    expect({ ...(hidden['error'] as object), groupId: 0, occurredAt: 0, relatedFrameId: 0 }).toEqual({ ...(missing['error'] as object), groupId: 0, occurredAt: 0, relatedFrameId: 0 });
  });
});

describe('two nodes on one database', () => {
  it('deliver one identical order per Group to Agents on each node', async () => {
    const pool = createPool(server.db.url, { max: 6 });
    const second = await startNode(await server.harness.peer(pool), pool, server.db.url);
    const a = await connected(worker);
    const b = await connected(coordinator, second.url);
    a.client.subscribe(mission.groupId, 0);
    b.client.subscribe(mission.groupId, 0);
    for (let i = 0; i < 20; i++) {
      a.client.send(postFrame(worker, a.epoch, `node A ${i}`));
      b.client.send(postFrame(coordinator, b.epoch, `node B ${i}`));
    }
    const own = (c: RawClient, actor: Actor) => c.frames.filter((f) => f.frameType === 'EVENT' && (f['event'] as { actor: { id: string } }).actor.id === actor.principal.id).length;
    await until(() => own(a.client, worker) >= 20 && own(b.client, coordinator) >= 20);
    const expected = await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId]);
    // Command answers arrive out of band; what each node delivered is the sequence → Event map.
    const bySequence = (c: RawClient) => new Map(c.events(mission.groupId).map((e) => [Number(e['sequence']), String(e['eventId'])]));
    const visible = (m: Map<number, string>) => [...m].filter(([sequence]) => sequence >= 3).sort((x, y) => x[0] - y[0]);
    await until(() => visible(bySequence(a.client)).length >= expected - 2 && visible(bySequence(b.client)).length >= expected - 2);
    expect(visible(bySequence(a.client))).toEqual(visible(bySequence(b.client)));
    a.client.close();
    b.client.close();
    await pool.end();
  });
});

describe('a Registry change made on another node', () => {
  it('is honoured at once: a card registered on node A authenticates and signs Commands on node B', async () => {
    const pool = createPool(server.db.url, { max: 4 });
    const second = await startNode(await server.harness.peer(pool), pool, server.db.url);
    // Registered through node A after node B loaded its Registry; no hint awaited.
    const late = await server.harness.agent('late');
    await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...late.principal }, roles: ['worker'] }, { groupId: mission.groupId, membershipEpoch: 1 }));
    const b = await connected(late, second.url);
    b.client.send(postFrame(late, b.epoch, 'signed with a key node B learnt a moment ago'));
    const answer = await b.client.next((f) => f.frameType === 'EVENT' || f.frameType === 'ERROR');
    expect(answer.frameType).toBe('EVENT');
    b.client.close();
    await pool.end();
  });
});

describe('malformed frames', () => {
  it('answers binary, non-JSON, duplicate-member and schema-invalid frames and changes nothing', async () => {
    const { client } = await connected(worker);
    const before = await count(server.db.pool, 'events');
    client.ws.send(Buffer.from([1, 2, 3]));
    expect((await client.error())['error']).toMatchObject({ code: 'PROTOCOL_VIOLATION' });
    client.ws.send('{not json');
    expect((await client.error())['error']).toMatchObject({ code: 'PROTOCOL_VIOLATION' });
    client.ws.send('{"protocolVersion":"0.1","frameType":"PING","frameType":"PING","frameId":"urn:x:1","nonce":"AAAA","sentAt":"2026-01-01T00:00:00Z"}');
    expect(String(((await client.error())['error'] as { message: string }).message)).toContain('json-duplicate-member');
    client.send({ frameType: 'SUBSCRIBE', groups: [] });
    expect((await client.error())['error']).toMatchObject({ code: 'SCHEMA_VALIDATION_FAILED' });
    client.send({ frameType: 'EVENT', event: {} });
    expect((await client.error())['error']).toMatchObject({ code: 'PROTOCOL_VIOLATION' });
    client.ws.send('x'.repeat(300 * 1024));
    expect((await client.closed).code).toBe(1009);
    expect(await count(server.db.pool, 'events')).toBe(before);
  });
});
