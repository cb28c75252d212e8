/**
 * One read rule behind three doors (§8, §16, §19): SUBSCRIBE, the Membership re-check of a live
 * subscription, and the HTTPS snapshot endpoint refuse a stranger, a former Member and a late
 * joiner alike, each with the §19 code and, over HTTPS, the status the error catalogue gives it.
 */

import { randomUUID } from 'node:crypto';
import { request } from 'node:https';
import { beforeAll, describe, expect, it } from 'vitest';
import { GroupAccess } from '../src/app/groupAccess.js';
import { httpStatusOf, type ErrorCode } from '../src/protocol/errorCodes.js';
import type { Actor } from './support/harness.js';
import type { MissionRefs } from './support/missions.js';
import { RawClient, type Frame } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let mission: MissionRefs;
let snapshotPath: string;
/** The first sequence a late joiner may see. */
let lateStart: number;
const actors: Record<'full' | 'late' | 'leaver' | 'stranger', Actor> = {} as never;

function grant(agent: Actor, visibility: { visibilityAfterSequence?: number } = {}) {
  return server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...agent.principal }, roles: ['observer'], ...visibility }, { groupId: mission.groupId, membershipEpoch: 1 }));
}

function post(content: string) {
  return server.harness.expectOk(server.harness.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content }, { groupId: mission.groupId, membershipEpoch: 1 }));
}

beforeAll(async () => {
  ({ server, owner, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
  }));
  for (const handle of ['full', 'late', 'leaver', 'stranger'] as const) actors[handle] = await server.harness.agent(handle);
  await grant(actors.full, { visibilityAfterSequence: 0 });
  await grant(actors.leaver, { visibilityAfterSequence: 0 });
  for (let i = 0; i < 3; i++) await post(`before the late joiner ${i}`);
  const granted = await grant(actors.late);
  lateStart = Number((JSON.parse(granted.events[0]?.text ?? '{}') as { sequence: number }).sequence);
  await post('after the late joiner');
  const access = new GroupAccess(server.db.pool, server.harness.authority.settings, server.harness.authority.kinds);
  const reference = await access.snapshotReference(mission.groupId, actors.full.principal.id, server.harness.clock.millis, 0);
  snapshotPath = `/v1/groups/${encodeURIComponent(mission.groupId)}/snapshots/${reference.hash}`;
});

function getSnapshot(path: string, token: string): Promise<{ status: number; body: { error?: { code: ErrorCode; message: string } } }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.httpsUrl), { method: 'GET', ca: server.ca, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as never }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function session(actor: Actor): Promise<RawClient> {
  const client = await RawClient.open(server.url, server.ca);
  await client.hello(actor);
  return client;
}

/** SUBSCRIBE from 0: the refusal, or the sequence of the first Event replayed. */
async function subscribeOutcome(client: RawClient, groupId = mission.groupId): Promise<{ code: string; message: string } | { first: number }> {
  client.subscribe(groupId, 0);
  const frame: Frame = await client.next((f) => f.frameType === 'ERROR' || (f.frameType === 'EVENT' && (f['event'] as { groupId: string }).groupId === groupId));
  if (frame.frameType === 'EVENT') return { first: Number((frame['event'] as { sequence: number }).sequence) };
  const error = frame['error'] as { code: string; message: string };
  return { code: error.code, message: error.message };
}

/** The snapshot endpoint's answer, checked against the catalogue's status for its code. */
async function snapshotOutcome(client: RawClient, path = snapshotPath): Promise<{ code: string; message: string } | 'served'> {
  const answer = await getSnapshot(path, client.sessionToken);
  if (answer.status === 200) return 'served';
  const error = answer.body.error as { code: ErrorCode; message: string };
  expect(answer.status).toBe(httpStatusOf(error.code));
  return { code: error.code, message: error.message };
}

describe('the read rule, through SUBSCRIBE, the Membership re-check and snapshots', () => {
  it('serves a full-history Member everything', async () => {
    const client = await session(actors.full);
    expect(await subscribeOutcome(client)).toEqual({ first: 1 });
    expect(await snapshotOutcome(client)).toBe('served');
    client.close();
  });

  it('hides the Group and its snapshots from a stranger exactly as missing ones', async () => {
    const client = await session(actors.stranger);
    const hidden = await subscribeOutcome(client);
    expect(hidden).toMatchObject({ code: 'GROUP_NOT_FOUND' });
    expect(await subscribeOutcome(client, 'urn:missionweave:group:nowhere')).toEqual(hidden);
    const hiddenSnapshot = await snapshotOutcome(client);
    expect(hiddenSnapshot).toMatchObject({ code: 'GROUP_NOT_FOUND' });
    const member = await session(actors.full);
    const missing = await snapshotOutcome(member, snapshotPath.replace(/[0-9a-f]{64}$/, '0'.repeat(64)));
    expect(hiddenSnapshot).toEqual(missing);
    client.close();
    member.close();
  });

  it('starts a late joiner at its visibility start and refuses it whole-Group snapshots', async () => {
    expect(lateStart).toBeGreaterThan(1);
    const client = await session(actors.late);
    expect(await subscribeOutcome(client)).toEqual({ first: lateStart });
    expect(await snapshotOutcome(client)).toMatchObject({ code: 'AUTH_FORBIDDEN' });
    client.close();
  });

  it('refuses a former Member on every door with MEMBERSHIP_REQUIRED', async () => {
    const client = await session(actors.leaver);
    expect(await subscribeOutcome(client)).toEqual({ first: 1 });
    await server.harness.expectOk(server.harness.send(owner, 'membership.end', { principal: { ...actors.leaver.principal } }, { groupId: mission.groupId, membershipEpoch: 1 }));
    const recheck = (await client.error('MEMBERSHIP_REQUIRED'))['error'];
    expect(recheck).toMatchObject({ code: 'MEMBERSHIP_REQUIRED', groupId: mission.groupId });
    expect(await subscribeOutcome(client)).toMatchObject({ code: 'MEMBERSHIP_REQUIRED' });
    expect(await snapshotOutcome(client)).toMatchObject({ code: 'MEMBERSHIP_REQUIRED' });
    client.close();
  });
});
