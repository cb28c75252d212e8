/**
 * Lists from outside, over a real wss session (issue 10, item 3): a SUBSCRIBE or a Command whose
 * list is over its bound, or repeats an item, gets SCHEMA_VALIDATION_FAILED and the connection
 * carries on; a list at its bound is served. The unit test listBounds.unit.test.ts measures that
 * the refusal costs no more for a longer list.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from './support/harness.js';
import type { MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let coordinator: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ server, coordinator, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
  }));
});

async function connected(actor: Actor): Promise<{ client: RawClient; epoch: number }> {
  const client = await RawClient.open(server.url, server.ca);
  return { client, epoch: await client.hello(actor) };
}

/** Short distinct kinds, as an attacker packs them: 20,000 of them fit in a 256 KiB frame. */
const kinds = (n: number): string[] => Array.from({ length: n }, (_, i) => `k.a${i.toString(36)}`);
const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `urn:r:${i}`);

describe('SUBSCRIBE attention lists', () => {
  it('over their bound or with a repeat are refused with SCHEMA_VALIDATION_FAILED; at the bound they are served', async () => {
    const { client } = await connected(coordinator);
    for (const attention of [{ eventKinds: kinds(20_000) }, { eventKinds: kinds(257) }, { workItemIds: ids(1_001) }, { eventKinds: ['k.a', 'k.b', 'k.a'] }]) {
      const frameId = client.subscribe(mission.groupId, 0, attention);
      const error = await client.error();
      expect(error['error']).toMatchObject({ code: 'SCHEMA_VALIDATION_FAILED', relatedFrameId: frameId });
    }
    client.subscribe(mission.groupId, 0, { eventKinds: kinds(256), workItemIds: ids(1_000) });
    const event = await client.next((f) => f.frameType === 'EVENT' || f.frameType === 'ERROR');
    expect(event.frameType).toBe('EVENT');
    client.close();
  });
});

describe('message.post lists', () => {
  it('over their bound or with a repeat are refused with SCHEMA_VALIDATION_FAILED; at the bound the Message is accepted', async () => {
    const { client, epoch } = await connected(coordinator);
    const post = (members: Record<string, unknown>) => {
      const payload = { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: 'lists', ...members };
      const command = server.harness.sign({ ...coordinator, sessionEpoch: epoch }, 'message.post', payload, { groupId: mission.groupId, membershipEpoch: 1 });
      return { frameType: 'COMMAND', command };
    };
    const mentions = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'agent', id: `urn:a:${i}` }));
    const refused = [
      { mentions: mentions(257) },
      { references: ids(1_001) },
      { mentions: [{ type: 'agent', id: 'urn:a:1' }, { id: 'urn:a:1', type: 'agent' }] },
      { references: ['urn:r:1', 'urn:r:1'] },
    ];
    for (const members of refused) {
      const frame = post(members);
      client.send(frame);
      const error = await client.error();
      expect(error['error']).toMatchObject({ code: 'SCHEMA_VALIDATION_FAILED', relatedActionId: (frame.command as { actionId: string }).actionId });
    }
    client.send(post({ mentions: mentions(256), references: ids(1_000) }));
    const accepted = await client.next((f) => f.frameType === 'EVENT' || f.frameType === 'ERROR');
    expect(accepted.frameType).toBe('EVENT');
    client.close();
  });
});
