/**
 * The §20 rate windows survive a reload (`app/groupStates.ts`): a Group Authority that never saw
 * a Group's Commands (another node, or this one after a restart) rebuilds each actor's window and
 * soft-threshold notice from the Group's recent Events, so the limit holds across nodes.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupAuthority } from '../src/app/groupAuthority.js';
import { DEFAULT_COOPERATION_LIMITS } from '../src/domain/policy/cooperationLimits.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor, Harness } from './support/harness.js';
import { count, type MissionRefs } from './support/missions.js';
import { world } from './support/world.js';

let h: Harness;
let worker: Actor;
let m: MissionRefs;
const peers: GroupAuthority[] = [];

beforeAll(async () => {
  ({ h, worker, mission: m } = await world({
    humans: { owner: 'dana' },
    agents: { coordinator: {}, worker: {} },
    mission: { owner: 'owner', coordinator: 'coordinator', members: { worker: ['worker'] } },
    // Limit 3: the soft threshold is 2.
    settings: { cooperationLimits: { ...DEFAULT_COOPERATION_LIMITS, messagesPerWindow: 3 } },
  }));
});

afterAll(async () => {
  for (const peer of peers) await peer.close();
});

/** A node with an empty Group state cache, as after a restart. */
async function freshNode(): Promise<GroupAuthority> {
  const peer = await h.peer(h.pool);
  peers.push(peer);
  return peer;
}

function post(): JsonObject {
  return h.sign(worker, 'message.post', { messageId: `urn:missionweave:message:${randomUUID()}`, conversationId: m.mainConversationId, content: 'status' }, { groupId: m.groupId, membershipEpoch: 1 });
}

function kinds(outcome: { events: readonly { text: string }[] }): string[] {
  return outcome.events.map((e) => (JSON.parse(e.text) as { kind: string }).kind);
}

describe('rate windows across nodes and restarts (§20)', () => {
  it('keeps counting, and keeps the notice given, on a node that loads the Group from its rows', async () => {
    expect(kinds(await h.expectOk(h.authority.submit(post())))).toEqual(['message.posted']);
    expect(kinds(await h.expectOk(h.authority.submit(post())))).toEqual(['message.posted', 'ext.missionweave.core.cooperation_threshold_reached']);
    // A third Message on another node: counted as the third, and no second notice in this window.
    expect(kinds(await h.expectOk((await freshNode()).submit(post())))).toEqual(['message.posted']);

    const before = await count(h.pool, 'events', 'group_id = $1', [m.groupId]);
    const refused = await (await freshNode()).submit(post());
    expect(refused.ok ? 'accepted' : { code: refused.error.code, details: refused.error.details }).toMatchObject({ code: 'RATE_LIMITED', details: { policy: 'message_rate', limit: 3, observed: 4 } });
    expect(await count(h.pool, 'events', 'group_id = $1', [m.groupId])).toBe(before);
    // The first node, whose cache is stale after the other node's write, reloads and refuses too.
    expect((await h.authority.submit(post())).ok).toBe(false);
  });

  it('lets the window pass: a minute later a fresh node accepts again', async () => {
    h.clock.advance(61);
    expect(kinds(await h.expectOk((await freshNode()).submit(post())))).toEqual(['message.posted']);
  });
});
