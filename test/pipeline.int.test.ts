/**
 * The Command pipeline on real PostgreSQL: a human creates a Mission and members talk in it;
 * retries are idempotent for ever, reused Action IDs collide, stale epochs are fenced, invisible
 * Groups look missing, and every refusal leaves the database unchanged.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import type { Harness, Actor } from './support/harness.js';
import { count, eventsOf, type MissionRefs } from './support/missions.js';
import { timestampOf } from '../src/app/issueDocuments.js';
import { generatePrivateKey, publicKeyBase64url } from '../src/protocol/signing/signDocument.js';
import { world } from './support/world.js';

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let stranger: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ h, owner, stranger, coordinator, mission } = await world({
    humans: { owner: 'dana', stranger: 'mallory' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
  }));
});

function post(actor: Actor, content: string, membershipEpoch = 1, messageId = `urn:uuid:${crypto.randomUUID()}`) {
  return h.sign(actor, 'message.post', { messageId, conversationId: mission.mainConversationId, content }, { groupId: mission.groupId, membershipEpoch });
}

describe('Mission creation and Messages', () => {
  it('creates the Mission as sequence 1 of a new Group, signed by the Group Authority', async () => {
    const [created] = await eventsOf(h.pool, mission.groupId);
    expect(created).toMatchObject({ kind: 'mission.created', sequence: 1, groupId: mission.groupId, actor: owner.principal, acceptedBy: h.settings.services.authority });
    expect(await count(h.pool, 'aggregates', 'group_id = $1', [mission.groupId])).toBeGreaterThanOrEqual(5);
  });

  it('appends a posted Message with the next sequence and the poster as actor', async () => {
    const outcome = await h.expectOk(h.authority.submit(post(owner, 'hello')));
    expect(outcome.events).toHaveLength(1);
    const event = JSON.parse(outcome.events[0]?.text ?? '') as Record<string, unknown>;
    expect(event).toMatchObject({ kind: 'message.posted', groupId: mission.groupId, conversationId: mission.mainConversationId });
    expect(outcome.events[0]?.sequence).toBe((await eventsOf(h.pool, mission.groupId)).length);
  });
});

describe('idempotency and collisions (§15.1)', () => {
  it('answers a retry with the original Events and appends nothing, however late', async () => {
    const command = post(coordinator, 'status: green');
    const first = await h.expectOk(h.authority.submit(command));
    const before = await count(h.pool, 'events');
    h.clock.advance(3600);
    const again = await h.expectOk(h.authority.submit(command));
    h.clock.advance(-3600);
    expect(again.duplicate).toBe(true);
    expect(again.events.map((e) => e.text)).toEqual(first.events.map((e) => e.text));
    expect(await count(h.pool, 'events')).toBe(before);
  });

  it('refuses the same Action ID with other content as ACTION_ID_COLLISION', async () => {
    const actionId = `urn:uuid:${crypto.randomUUID()}`;
    await h.expectOk(h.send(owner, 'message.post', { messageId: `urn:uuid:${crypto.randomUUID()}`, conversationId: mission.mainConversationId, content: 'one' }, { groupId: mission.groupId, membershipEpoch: 1, actionId }));
    const second = await h.send(owner, 'message.post', { messageId: `urn:uuid:${crypto.randomUUID()}`, conversationId: mission.mainConversationId, content: 'two' }, { groupId: mission.groupId, membershipEpoch: 1, actionId });
    expect(second.ok ? 'accepted' : second.error.code).toBe('ACTION_ID_COLLISION');
  });

  it('turns a storm of 40 concurrent duplicates into exactly one transition', async () => {
    const command = post(owner, 'storm');
    const before = await count(h.pool, 'events', 'group_id = $1', [mission.groupId]);
    const outcomes = await Promise.all(Array.from({ length: 40 }, () => h.authority.submit(structuredClone(command))));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    const ids = new Set(outcomes.flatMap((o) => (o.ok ? o.events.map((e) => e.eventId) : [])));
    expect(ids.size).toBe(1);
    expect(await count(h.pool, 'events', 'group_id = $1', [mission.groupId])).toBe(before + 1);
  });
});

describe('authentication, epochs and visibility', () => {
  it('fences a Session Epoch the moment a newer session opens', async () => {
    const stale = post(coordinator, 'from the old runtime');
    await h.openSession(coordinator);
    const outcome = await h.authority.submit(stale);
    expect(outcome.ok ? 'accepted' : outcome.error.code).toBe('AUTH_STALE_SESSION');
    await h.expectOk(h.authority.submit(post(coordinator, 'from the new runtime')));
  });

  it('answers a stale Membership Epoch with MEMBERSHIP_STALE', async () => {
    const outcome = await h.authority.submit(post(owner, 'old epoch', 7));
    expect(outcome.ok ? 'accepted' : outcome.error.code).toBe('MEMBERSHIP_STALE');
  });

  it('makes a Group the actor may not see indistinguishable from a missing one', async () => {
    const invisible = await h.authority.submit(post(stranger, 'let me in'));
    const missing = await h.send(stranger, 'message.post', { messageId: `urn:uuid:${crypto.randomUUID()}`, conversationId: mission.mainConversationId, content: 'x' }, { groupId: 'urn:missionweave:group:none', membershipEpoch: 1 });
    const shape = (o: typeof invisible) => (o.ok ? 'accepted' : { code: o.error.code, message: o.error.message, retryable: o.error.retryable });
    expect(shape(invisible)).toEqual(shape(missing));
    expect(invisible.ok ? '' : invisible.error.code).toBe('GROUP_NOT_FOUND');
  });

  it('refuses an unfresh Command and a tampered one without writing anything', async () => {
    const before = await count(h.pool, 'events');
    h.clock.advance(-3600);
    const old = post(owner, 'from the past');
    h.clock.advance(3600);
    expect((await h.authority.submit(old)).ok).toBe(false);
    const tampered = { ...post(owner, 'original'), payload: { messageId: `urn:uuid:${crypto.randomUUID()}`, conversationId: mission.mainConversationId, content: 'forged' } };
    const outcome = await h.authority.submit(tampered);
    expect(outcome.ok ? '' : outcome.error).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE', message: 'signed document rejected' });
    expect(await count(h.pool, 'events')).toBe(before);
  });
});

describe('a found receipt is a First-Admission Record (§6.4)', () => {
  it('refuses the same signing bytes re-signed under another key of the same Principal, and appends nothing', async () => {
    const second = { principal: owner.principal, key: { keyId: `urn:uuid:${crypto.randomUUID()}`, privateKey: generatePrivateKey() } };
    await h.authority.enrolKey({ keyId: second.key.keyId, principal: owner.principal, algorithm: 'Ed25519', publicKey: publicKeyBase64url(second.key.privateKey), validFrom: timestampOf(h.clock.millis - 60_000), validityHistory: [] });
    const same = { actionId: `urn:uuid:${crypto.randomUUID()}`, correlationId: `urn:uuid:${crypto.randomUUID()}`, issuedAt: h.now(), groupId: mission.groupId, membershipEpoch: 1 };
    const payload = { messageId: `urn:uuid:${crypto.randomUUID()}`, conversationId: mission.mainConversationId, content: 'signed twice' };
    const first = h.sign(owner, 'message.post', payload, same);
    const resigned = h.sign(second, 'message.post', payload, same);
    expect(resigned['signature']).not.toEqual(first['signature']);
    await h.expectOk(h.authority.submit(first));
    const before = await count(h.pool, 'events');
    const outcome = await h.authority.submit(resigned);
    expect(outcome.ok ? 'accepted' : outcome.error.code).toBe('AUTH_INVALID_SIGNATURE');
    // The admission reason stays in the audit diagnostic, never on the wire (§6.4).
    expect(outcome.ok ? '' : outcome.error.message).not.toMatch(/key/i);
    expect(await count(h.pool, 'events')).toBe(before);
    const retry = await h.expectOk(h.authority.submit(first));
    expect(retry.duplicate).toBe(true);
  });
});
