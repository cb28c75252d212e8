/**
 * Extension Profile pins (§18) over a real wss server and HTTPS: a registered profile's Command
 * in a Group that has not pinned it is refused UNKNOWN_CRITICAL_EXTENSION over wss and stores
 * nothing; the MissionOwner pins it over HTTPS (`ext.missionweaveprotocol.core.profile_pin`), an
 * unregistered major is refused 422; the same profile Command is then accepted and delivered.
 */

import { request } from 'node:https';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { count, createMission, type MissionRefs } from './support/missions.js';
import { registerTallyDocument } from './support/profileDocuments.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { TALLY_URI, tallyProfile } from './support/tallyProfile.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let coordinator: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ server, owner, coordinator } = await serverWorld({ humans: { owner: 'owner' }, agents: { coordinator: {} }, profiles: [tallyProfile] }));
  expect((await registerTallyDocument(server.harness, owner)).ok).toBe(true);
  mission = await createMission(server.harness, owner, coordinator);
});

function postHttps(body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/v1/commands', server.httpsUrl), { method: 'POST', ca: server.ca, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function pin(majorVersion: number): JsonObject {
  return server.harness.sign(owner, 'ext.missionweaveprotocol.core.profile_pin', { profileUri: TALLY_URI, majorVersion }, { groupId: mission.groupId, membershipEpoch: 1 });
}

describe('a registered profile over the wire', () => {
  it('is refused over wss until the Group pins it, then accepted and delivered as an Event', async () => {
    const client = await RawClient.open(server.url, server.ca);
    const sessionEpoch = await client.hello(coordinator);
    const tally = (label: string): JsonObject =>
      server.harness.sign(coordinator, 'ext.missionweave.tally.add', { label, delta: 2 }, { groupId: mission.groupId, membershipEpoch: 1, sessionEpoch });
    const before = await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId]);
    client.send({ frameType: 'COMMAND', command: tally('bugs') });
    expect((await client.error()).error).toMatchObject({ code: 'UNKNOWN_CRITICAL_EXTENSION', details: { profileUri: TALLY_URI, majorVersion: 1 } });
    expect(await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId])).toBe(before);

    const unregistered = await postHttps(JSON.stringify(pin(2)));
    expect(unregistered.status).toBe(422);
    expect((JSON.parse(unregistered.text) as { error: JsonObject }).error).toMatchObject({ code: 'UNKNOWN_CRITICAL_EXTENSION' });
    const pinned = await postHttps(JSON.stringify(pin(1)));
    expect(pinned.status, pinned.text).toBeLessThan(300);
    expect(pinned.text).toContain('ext.missionweaveprotocol.core.profile_pinned');

    const command = tally('bugs');
    client.send({ frameType: 'COMMAND', command });
    const frame = await client.next((f) => f.frameType === 'ERROR' || (f.frameType === 'EVENT' && (f['event'] as { cause: { id: string } }).cause.id === command['actionId']));
    expect(frame.frameType).toBe('EVENT');
    expect(frame['event']).toMatchObject({ kind: 'ext.missionweave.tally.tallied', payload: { label: 'bugs', delta: 2, total: 2 } });
    client.close();
  });
});
