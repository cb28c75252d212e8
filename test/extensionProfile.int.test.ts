/**
 * An Extension Profile (§18) registered, not edited in: the test profile's Command kind runs
 * through the real pipeline on PostgreSQL — schema, signature, receipts, Group order, its own
 * slice of state persisted and rebuilt — and the core checks run before any profile code.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { verifyGroupHistory } from '../src/app/verifyGroupHistory.js';
import { KindRegistry } from '../src/domain/kinds/kindRegistry.js';
import { coreRegistry } from './support/coreDecider.js';
import type { ExtensionProfile } from '../src/domain/kinds/profile.js';
import { GroupAuthority } from '../src/app/groupAuthority.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { TestDatabase } from './support/database.js';
import type { Harness, Actor } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { registerTallyDocument } from './support/profileDocuments.js';
import { MAX_TALLIES, TALLY_URI, tallyAdd, tallyProfile, type TallyState } from './support/tallyProfile.js';
import { world } from './support/world.js';
import { buildKindRegistry } from '../src/domain/coreModules.js';

const coreKinds = coreRegistry();

let db: TestDatabase;
let h: Harness;
let owner: Actor;
let worker: Actor;
let stranger: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ db, h, owner, stranger } = await world({ humans: { owner: 'dana', stranger: 'mallory' }, profiles: [tallyProfile] }));
  const coordinator = await h.agent('coordinator');
  worker = await h.agent('worker');
  // The Organization approved the profile and the Group pins it (§18).
  expect((await registerTallyDocument(h, owner)).ok).toBe(true);
  mission = await createMission(h, owner, coordinator, { pinnedProfiles: [{ profileUri: TALLY_URI, majorVersion: 1 }] });
  await h.expectOk(h.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, { groupId: mission.groupId, membershipEpoch: 1 }));
});

function tally(actor: Actor, label: string, delta: number, extra: JsonObject = {}): JsonObject {
  return h.sign(actor, 'ext.missionweave.tally.add', { label, delta }, { groupId: mission.groupId, membershipEpoch: 1, ...extra });
}

async function eventCount(): Promise<number> {
  return count(h.pool, 'events', 'group_id = $1', [mission.groupId]);
}

describe('a registered profile kind on the real pipeline', () => {
  it('appends its Event in Group order, signed, with a receipt, and folds it into its own slice', async () => {
    const first = await h.expectOk(h.authority.submit(tally(worker, 'bugs', 3)));
    const second = await h.expectOk(h.authority.submit(tally(owner, 'bugs', 4)));
    const event = JSON.parse(second.events[0]?.text ?? '{}') as JsonObject;
    expect(event).toMatchObject({ kind: 'ext.missionweave.tally.tallied', groupId: mission.groupId, payload: { label: 'bugs', delta: 4, total: 7 }, acceptedBy: h.settings.services.authority });
    expect(second.events[0]?.sequence).toBe((first.events[0]?.sequence ?? 0) + 1);
    const slice = await h.pool.query<{ document: { revision: number; state: TallyState } }>(
      "select document from aggregates where group_id = $1 and aggregate_type = 'extension' and aggregate_id = $2",
      [mission.groupId, TALLY_URI],
    );
    expect(slice.rows[0]?.document).toEqual({ revision: 2, state: { totals: { bugs: 7 } } });
  });

  it('continues from the stored slice in another Group Authority with a cold cache', async () => {
    const peer = await GroupAuthority.start({ pool: db.pool, settings: h.settings, clock: h.clock, logger: h.authority.logger, kinds: buildKindRegistry([tallyProfile]) });
    const outcome = await peer.submit(tally(worker, 'bugs', 1));
    expect(outcome.ok && JSON.parse(outcome.events[0]?.text ?? '{}').payload).toEqual({ label: 'bugs', delta: 1, total: 8 });
    await peer.close();
  });

  it('answers a retry with the original Event and appends nothing (receipts are the core pipeline)', async () => {
    const command = tally(worker, 'docs', 1);
    const first = await h.expectOk(h.authority.submit(command));
    const before = await eventCount();
    const again = await h.expectOk(h.authority.submit(command));
    expect(again.duplicate).toBe(true);
    expect(again.events.map((e) => e.text)).toEqual(first.events.map((e) => e.text));
    expect(await eventCount()).toBe(before);
  });

  it('refuses a payload its schema rejects before any decision', async () => {
    const outcome = await h.authority.submit(tally(worker, 'Bad Label', 1));
    expect(!outcome.ok && outcome.error.code).toBe('SCHEMA_VALIDATION_FAILED');
    const over = await h.authority.submit(tally(worker, 'bugs', 101));
    expect(!over.ok && over.error.code).toBe('SCHEMA_VALIDATION_FAILED');
  });

  it('bounds its own slice and says so', async () => {
    for (let i = 0; i < MAX_TALLIES; i++) await h.authority.submit(tally(worker, `l${i}`, 1));
    const before = await eventCount();
    const outcome = await h.authority.submit(tally(worker, 'one-too-many', 1));
    expect(!outcome.ok && [outcome.error.code, outcome.error.message]).toEqual(['INVALID_COMMAND', `a Group keeps at most ${MAX_TALLIES} tallies`]);
    expect(await eventCount()).toBe(before);
  });

  it('replays and verifies with the profile kinds, and a verifier without them reports the unknown Event', async () => {
    const verifier = { registry: h.authority.registry.current.registry, schemas: h.authority.schemas, authority: h.settings.services.authority, kinds: coreRegistry() };
    expect((await verifyGroupHistory(h.pool, mission.groupId, { ...verifier, kinds: h.authority.kinds })).problems).toEqual([]);
    await expect(verifyGroupHistory(h.pool, mission.groupId, verifier)).rejects.toThrow(/unknown Group Event kind ext\.missionweave\.tally\.tallied/);
  });

  it('is a critical extension this Group Authority interprets; an unregistered one is refused', async () => {
    const extensions = (uri: string): { extensions: JsonObject } => ({ extensions: { [uri]: { version: '1.0.0', critical: true, data: {} } } });
    const ok = await h.authority.submit(h.sign(worker, 'message.post', { messageId: `urn:uuid:${crypto.randomUUID()}`, conversationId: mission.mainConversationId, content: 'x' }, { groupId: mission.groupId, membershipEpoch: 1, ...extensions(TALLY_URI) }));
    expect(ok.ok).toBe(true);
    const refused = await h.authority.submit(h.sign(worker, 'message.post', { messageId: `urn:uuid:${crypto.randomUUID()}`, conversationId: mission.mainConversationId, content: 'x' }, { groupId: mission.groupId, membershipEpoch: 1, ...extensions('urn:missionweave:profile:unknown:1') }));
    expect(!refused.ok && refused.error.code).toBe('UNKNOWN_CRITICAL_EXTENSION');
  });
});

describe('the core checks run before any profile code (§18)', () => {
  it('a Group Authority without the profile refuses its kind', async () => {
    const plain = await GroupAuthority.start({ pool: db.pool, settings: h.settings, clock: h.clock, logger: h.authority.logger, kinds: buildKindRegistry([]) });
    const outcome = await plain.submit(tally(worker, 'bugs', 1));
    expect(!outcome.ok && outcome.error.code).toBe('INVALID_COMMAND');
    await plain.close();
  });

  it('a non-member is told the Group does not exist; a stale Membership Epoch is fenced; an Agent needs its Session', async () => {
    const before = await eventCount();
    const outsider = await h.authority.submit(tally(stranger, 'bugs', 1));
    expect(!outsider.ok && outsider.error.code).toBe('GROUP_NOT_FOUND');
    const stale = await h.authority.submit(tally(worker, 'bugs', 1, { membershipEpoch: 2 }));
    expect(!stale.ok && stale.error.code).toBe('MEMBERSHIP_STALE');
    const fenced = await h.authority.submit(tally(worker, 'bugs', 1, { sessionEpoch: (worker.sessionEpoch ?? 1) + 5 }));
    expect(fenced.ok).toBe(false);
    expect(await eventCount()).toBe(before);
  });

  it('nothing of a profile is accepted once the Mission is over', async () => {
    const other = await createMission(h, owner, await h.agent('coordinator-2'));
    await h.expectOk(h.send(owner, 'mission.cancel', { reason: 'done' }, { groupId: other.groupId, membershipEpoch: 1 }));
    const outcome = await h.authority.submit(h.sign(owner, 'ext.missionweave.tally.add', { label: 'x', delta: 1 }, { groupId: other.groupId, membershipEpoch: 1 }));
    expect(!outcome.ok && outcome.error.code).toBe('INVALID_STATE_TRANSITION');
    expect((await eventsOf(h.pool, other.groupId)).map((e) => e['kind'])).toEqual(['mission.created', 'mission.cancelled']);
  });

  it('a profile cannot name kinds outside its namespace, so it cannot emit or redefine core Events', () => {
    const rogue = (kind: string, event: string): ExtensionProfile<TallyState> => ({
      ...tallyProfile,
      kinds: [{ ...tallyAdd, kind, events: [{ kind: event, evolve: (s: TallyState) => s }] }] as unknown as ExtensionProfile<TallyState>['kinds'],
    });
    expect(() => coreKinds.withProfiles([rogue('ext.missionweave.tally.add', 'membership.changed')])).toThrow(/outside its namespace/);
    expect(() => coreKinds.withProfiles([rogue('message.post', 'ext.missionweave.tally.tallied')])).toThrow(/outside its namespace/);
    expect(() => coreKinds.withProfiles([{ ...tallyProfile, namespace: 'mission.' }])).toThrow(/namespace/);
    expect(() => new KindRegistry([], [tallyProfile, tallyProfile])).toThrow(/registered twice/);
  });

  it('a profile decide that emits an undeclared kind is refused and appends nothing', async () => {
    const sneaky: ExtensionProfile<TallyState> = {
      ...tallyProfile,
      uri: 'urn:missionweave:profile:test:sneaky:1',
      namespace: 'ext.missionweave.sneaky.',
      kinds: [{ ...tallyAdd, kind: 'ext.missionweave.sneaky.add', events: [{ kind: 'ext.missionweave.sneaky.added', evolve: (s: TallyState) => s }], decide: () => ({ ok: true, events: [{ kind: 'membership.changed', payload: {} }] }) }] as unknown as ExtensionProfile<TallyState>['kinds'],
    };
    expect((await registerTallyDocument(h, owner, { profileUri: sneaky.uri, commandKinds: ['ext.missionweave.sneaky.add'], eventKinds: ['ext.missionweave.sneaky.added'] })).ok).toBe(true);
    await h.expectOk(h.send(owner, 'ext.missionweaveprotocol.core.profile_pin', { profileUri: sneaky.uri, majorVersion: 1 }, { groupId: mission.groupId, membershipEpoch: 1 }));
    const authority = await GroupAuthority.start({ pool: db.pool, settings: h.settings, clock: h.clock, logger: h.authority.logger, kinds: buildKindRegistry([sneaky]) });
    const before = await eventCount();
    const outcome = await authority.submit(h.sign(worker, 'ext.missionweave.sneaky.add', { label: 'x', delta: 1 }, { groupId: mission.groupId, membershipEpoch: 1 }));
    expect(!outcome.ok && outcome.error.code).toBe('INTERNAL_ERROR');
    expect(await eventCount()).toBe(before);
    await authority.close();
  });
});
