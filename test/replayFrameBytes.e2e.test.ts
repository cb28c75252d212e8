/**
 * The bytes of a replayed EVENT frame over real wss (§17): each frame is the stored signed Event
 * text, byte for byte, inside the fixed frame members, in sequence order. Replay assembles the
 * frame from the stored bytes without decoding them (`FrameAssembler`), so a Message with
 * multi-byte UTF-8 content pins that the text is encoded once and exactly where it lands.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from './support/harness.js';
import type { MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { until } from './support/until.js';
import { serverWorld } from './support/world.js';

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

describe('a replayed EVENT frame', () => {
  it('is the stored Event text byte for byte, in sequence order', async () => {
    const h = server.harness;
    const extra = { groupId: mission.groupId, membershipEpoch: 1 };
    for (const content of ['déjà vu — « guillemets »', 'emoji 🧵 and \u2028 line separator', 'plain ascii']) {
      await h.expectOk(h.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content }, extra));
    }
    const stored = await h.pool.query<{ event_id: string; document: string }>('select event_id, document from events where group_id = $1 order by sequence', [mission.groupId]);
    expect(stored.rows.some((row) => Buffer.byteLength(row.document) > row.document.length)).toBe(true);

    const client = await RawClient.open(server.url, server.ca);
    const raw: Buffer[] = [];
    client.ws.on('message', (data: Buffer) => raw.push(Buffer.from(data)));
    await client.hello(member);
    client.subscribe(mission.groupId, 0);
    await until(() => client.events(mission.groupId).length === stored.rows.length);
    const eventFrames = raw.filter((bytes) => bytes.includes('"frameType":"EVENT"'));
    expect(eventFrames.map((bytes) => bytes.toString('hex'))).toEqual(
      stored.rows.map((row) => Buffer.from(`{"event":${row.document},"frameId":${JSON.stringify(row.event_id)},"frameType":"EVENT","protocolVersion":"0.1"}`, 'utf8').toString('hex')),
    );
    client.close();
  });
});
