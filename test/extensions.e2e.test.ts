/**
 * Extension Profile data on Commands (§17.4, §18), over a real wss server and HTTPS: an unknown
 * critical extension is refused with UNKNOWN_CRITICAL_EXTENSION and changes nothing; an unknown
 * noncritical one is accepted and relayed on the Event exactly as the Command carried it.
 */

import { randomUUID } from 'node:crypto';
import { request } from 'node:https';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalize } from '../src/protocol/jcs.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { count, type MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let coordinator: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ server, owner, coordinator, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
  }));
});

/** A signed `message.post` carrying `extensions` (the harness's signer has no such member). */
function postWith(actor: Actor, extensions: JsonObject, sessionEpoch?: number): JsonObject {
  const command: Record<string, unknown> = {
    protocolVersion: '0.1',
    actionId: `urn:uuid:${randomUUID()}`,
    actor: actor.principal,
    kind: 'message.post',
    correlationId: `urn:uuid:${randomUUID()}`,
    issuedAt: server.harness.now(),
    payload: { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: 'with an extension' },
    groupId: mission.groupId,
    membershipEpoch: 1,
    ...(sessionEpoch === undefined ? {} : { sessionEpoch }),
    extensions,
  };
  return signDocument('command', command, actor.key) as unknown as JsonObject;
}

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

const UNKNOWN_PROFILE = 'urn:example:profile:unknown-risk-rules';

const critical: JsonObject = { [UNKNOWN_PROFILE]: { version: '1.0.0', critical: true, data: { maxRisk: 3 } } };

describe('an unknown critical extension', () => {
  it('is refused over wss with UNKNOWN_CRITICAL_EXTENSION naming the profile, and nothing is stored', async () => {
    const client = await RawClient.open(server.url, server.ca);
    const epoch = await client.hello(coordinator);
    const events = await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId]);
    const command = postWith(coordinator, critical, epoch);
    client.send({ frameType: 'COMMAND', command });
    const refused = (await client.error()).error as JsonObject;
    expect(refused).toMatchObject({ code: 'UNKNOWN_CRITICAL_EXTENSION', details: { profileUri: UNKNOWN_PROFILE } });
    expect(await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId])).toBe(events);
    expect(await count(server.db.pool, 'receipts', 'action_id = $1', [command['actionId']])).toBe(0);
    client.close();
  });

  it('is refused over HTTPS with 422 and UNKNOWN_CRITICAL_EXTENSION, and nothing is stored', async () => {
    const events = await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId]);
    const command = postWith(owner, critical);
    const answer = await postHttps(JSON.stringify(command));
    expect(answer.status).toBe(422);
    expect((JSON.parse(answer.text) as { error: JsonObject }).error).toMatchObject({ code: 'UNKNOWN_CRITICAL_EXTENSION', details: { profileUri: UNKNOWN_PROFILE } });
    expect(await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId])).toBe(events);
    expect(await count(server.db.pool, 'receipts', 'action_id = $1', [command['actionId']])).toBe(0);
  });
});

describe('an unknown noncritical extension', () => {
  it('is accepted and relayed on the Event byte for byte (as JCS), over wss and in the stored Event', async () => {
    const extensions: JsonObject = {
      [UNKNOWN_PROFILE]: { version: '2.1.0-rc.1', critical: false, data: { nested: { z: [1, 0.5, -3, true, null], a: 'é\u2028"\\' }, empty: {}, list: [] } },
      'urn:example:profile:second': { version: '0.0.1', critical: false, data: 'plain' },
    };
    const client = await RawClient.open(server.url, server.ca);
    const epoch = await client.hello(coordinator);
    const raw: string[] = [];
    client.ws.on('message', (data) => raw.push(data.toString()));
    const command = postWith(coordinator, extensions, epoch);
    client.send({ frameType: 'COMMAND', command });
    const frame = await client.next((f) => f.frameType === 'ERROR' || (f.frameType === 'EVENT' && (f['event'] as { cause: { id: string } }).cause.id === command['actionId']));
    expect(frame.frameType).toBe('EVENT');
    const event = frame['event'] as JsonObject;
    expect(event['kind']).toBe('message.posted');
    expect(event['extensions']).toEqual(extensions);
    const relayed = canonicalize(extensions);
    const wire = raw.find((text) => text.includes(String(event['eventId'])) && text.includes('"frameType":"EVENT"'));
    expect(wire).toContain(`"extensions":${relayed}`);
    const stored = await server.db.pool.query<{ document: string }>('select document from events where event_id = $1', [event['eventId']]);
    expect(stored.rows[0]?.document).toContain(`"extensions":${relayed}`);
    client.close();
  });
});
