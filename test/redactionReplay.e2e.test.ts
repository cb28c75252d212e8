/**
 * Redaction on replay over real wss (§7.4): a member replaying a Group after `message.redact`
 * receives the redacted Message's Event under its own Event ID and sequence, with the tombstone's
 * content, signed by the Group Authority (it passes the §6.4 Event verification an Agent runs);
 * no frame carries the redacted words, while the stored Event and the accepted chain are
 * untouched and still verify.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyGroupHistory } from '../src/app/verifyGroupHistory.js';
import { verifySignedDocument } from '../src/protocol/signing/verifySignedDocument.js';
import type { Actor } from './support/harness.js';
import { eventsOf, type MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { until } from './support/until.js';
import { serverWorld } from './support/world.js';
import { coreRegistry } from './support/coreDecider.js';

const SECRET = 'the vault code is 4711';
let server: TestServer;
let owner: Actor;
let member: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ server, owner, member, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { member: {}, coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator', members: { member: { roles: ['observer'], extra: { visibilityAfterSequence: 0 } } } },
  }));
});

describe('a redacted Message on replay', () => {
  it('is served as its tombstone under the same Event ID and sequence, Authority-signed, and the chain still verifies', async () => {
    const h = server.harness;
    const messageId = `urn:uuid:${randomUUID()}`;
    const extra = { groupId: mission.groupId, membershipEpoch: 1 };
    await h.expectOk(h.send(owner, 'message.post', { messageId, conversationId: mission.mainConversationId, content: SECRET }, extra));
    const redacted = await h.expectOk(h.send(owner, 'message.redact', { amendmentId: `urn:uuid:${randomUUID()}`, messageId, reason: 'leaked secret' }, extra));
    const stored = await eventsOf(h.pool, mission.groupId);
    const original = stored.find((e) => e['kind'] === 'message.posted');
    expect(JSON.stringify(original)).toContain(SECRET);

    const client = await RawClient.open(server.url, server.ca);
    await client.hello(member);
    client.subscribe(mission.groupId, 0);
    await until(() => client.events(mission.groupId).length === stored.length);
    const served = client.events(mission.groupId);
    expect(JSON.stringify(served)).not.toContain(SECRET);
    const rendering = served.find((e) => e['eventId'] === original?.['eventId']) as { sequence: number; payload: { message: { content: unknown } } };
    expect(rendering.sequence).toBe(original?.['sequence']);
    expect(rendering.payload.message.content).toEqual([{ type: 'text', text: '[Message redacted under policy]' }]);
    for (const event of served) {
      const verified = verifySignedDocument('event', Buffer.from(JSON.stringify(event)), h.authority.registry.current.registry, h.authority.schemas);
      expect(verified.ok, String(event['kind'])).toBe(true);
    }
    expect(served.map((e) => e['eventId'])).toEqual(stored.map((e) => e['eventId']));
    expect(JSON.parse(redacted.events[0]?.text ?? '{}')).toMatchObject({ kind: 'message.redacted' });
    client.close();

    // The accepted chain is untouched: the stored Event keeps its text, and the history verifies.
    expect((await eventsOf(h.pool, mission.groupId)).find((e) => e['eventId'] === original?.['eventId'])).toEqual(original);
    const report = await verifyGroupHistory(h.pool, mission.groupId, { registry: h.authority.registry.current.registry, schemas: h.authority.schemas, authority: h.settings.services.authority, kinds: coreRegistry() });
    expect(report.problems).toEqual([]);
  });
});
