/**
 * CURSOR_TOO_OLD recovery for a late joiner (§8, §16) over real wss and HTTPS: a Membership whose
 * visible history is longer than the online window gets CURSOR_TOO_OLD naming a snapshot limited
 * to that Membership, fetches and verifies it (hash, Authority signature, state hash), finds no
 * history from before its visibility in it, and resumes after it. The whole-Group snapshot stays
 * refused to it, and its limited one is served to no one else.
 */

import { createHash, randomUUID } from 'node:crypto';
import { request } from 'node:https';
import { beforeAll, describe, expect, it } from 'vitest';
import { GroupAccess } from '../src/app/groupAccess.js';
import { canonicalize } from '../src/protocol/jcs.js';
import { verifySignedDocument } from '../src/protocol/signing/verifySignedDocument.js';
import type { JsonValue } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import type { MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

const WINDOW = 20;
let server: TestServer;
let owner: Actor;
let full: Actor;
let late: Actor;
let mission: MissionRefs;
let lateStart: number;

function post(content: string) {
  return server.harness.expectOk(server.harness.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content }, { groupId: mission.groupId, membershipEpoch: 1 }));
}

function grant(agent: Actor, visibility: { visibilityAfterSequence?: number } = {}) {
  return server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...agent.principal }, roles: ['worker'], ...visibility }, { groupId: mission.groupId, membershipEpoch: 1 }));
}

function get(path: string, token: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.httpsUrl), { method: 'GET', ca: server.ca, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  ({ server, owner, full, late, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { full: {}, late: {}, coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
    limits: { onlineReplayWindow: WINDOW },
  }));
  await grant(full, { visibilityAfterSequence: 0 });
  for (let i = 0; i < 3; i++) await post(`before the late joiner ${i}`);
  const granted = await grant(late);
  lateStart = Number((JSON.parse(granted.events[0]?.text ?? '{}') as { sequence: number }).sequence);
  // The late joiner's own visible history now exceeds the online window.
  for (let i = 0; i < WINDOW + 5; i++) await post(`after the late joiner ${i}`);
});

describe('a late joiner beyond the online window', () => {
  it('recovers from CURSOR_TOO_OLD with a snapshot limited to its Membership, then resumes', async () => {
    expect(lateStart).toBeGreaterThan(1);
    const client = await RawClient.open(server.url, server.ca);
    await client.hello(late);
    client.subscribe(mission.groupId, 0);
    const error = (await client.error('CURSOR_TOO_OLD'))['error'] as { snapshotArtifactHash: string; details: { snapshotUrl: string; throughSequence: number } };

    const fetched = await get(error.details.snapshotUrl, client.sessionToken);
    expect(fetched.status).toBe(200);
    expect(`sha256:${createHash('sha256').update(fetched.text).digest('hex')}`).toBe(error.snapshotArtifactHash);
    const { snapshot, state } = JSON.parse(fetched.text) as { snapshot: { throughSequence: number; stateHash: string; policyLog: { details: object }[] }; state: { type: string; id: string; document: JsonValue }[] };
    const verified = verifySignedDocument('group-snapshot', Buffer.from(JSON.stringify(snapshot)), server.harness.authority.registry.current.registry, server.harness.authority.schemas);
    expect(verified.ok).toBe(true);
    expect(`sha256:${createHash('sha256').update(canonicalize(state as JsonValue)).digest('hex')}`).toBe(snapshot.stateHash);
    expect(snapshot.policyLog).toMatchObject([{ details: { visibilityStartSequence: lateStart } }]);
    // Only its own Membership, and no Message from before its visibility.
    const memberships = state.filter((r) => r.type === 'membership').map((r) => (r.document as { member: { id: string } }).member.id);
    expect(memberships).toEqual([late.principal.id]);
    expect(fetched.text).not.toContain('before the late joiner');
    expect(fetched.text).toContain('after the late joiner');

    client.subscribe(mission.groupId, snapshot.throughSequence);
    await post('after the snapshot');
    await until(() => client.events(mission.groupId).some((e) => Number(e['sequence']) === snapshot.throughSequence + 1));
    client.close();
  });

  it('still refuses it the whole-Group snapshot, and serves its limited one to no other member', async () => {
    const access = new GroupAccess(server.db.pool, server.harness.authority.settings, server.harness.authority.kinds);
    const whole = await access.snapshotReference(mission.groupId, full.principal.id, server.harness.clock.millis, 0);
    const limited = await access.snapshotReference(mission.groupId, late.principal.id, server.harness.clock.millis, 0);
    expect(limited.hash).not.toBe(whole.hash);
    const path = (hash: string) => `/v1/groups/${encodeURIComponent(mission.groupId)}/snapshots/${hash}`;
    const lateClient = await RawClient.open(server.url, server.ca);
    await lateClient.hello(late);
    const fullClient = await RawClient.open(server.url, server.ca);
    await fullClient.hello(full);
    expect((await get(path(whole.hash), lateClient.sessionToken)).status).toBe(403);
    expect((await get(path(limited.hash), lateClient.sessionToken)).status).toBe(200);
    expect((await get(path(limited.hash), fullClient.sessionToken)).status).toBe(404);
    expect((await get(path(whole.hash), fullClient.sessionToken)).status).toBe(200);
    lateClient.close();
    fullClient.close();
  });
});
