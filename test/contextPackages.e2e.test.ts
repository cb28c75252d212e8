/**
 * Context Packages over the real server (§13.3, §7.2, §8): wss with TLS 1.3, PostgreSQL, the
 * Authority reactor's sweep, HTTPS reads with a session token, and the SDK's verification. A late
 * joiner, a provisional member (then activated) and a replacement Coordinator each receive a
 * signed package limited to what their Membership allows; nobody else can read it.
 */

import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueContextPackage } from '../src/app/context/issueContextPackage.js';
import { AuthorityReactor } from '../src/app/reactor/authorityReactor.js';
import { ContextPackageError, MissionWeaveAgent, MissionWeaveCoordinator, MissionWeaveError, contextTrustOf, verifyContextPackage, type ContextTrust, type VerifiedContextPackage } from '../src/client/index.js';
import { httpsGet } from '../src/client/httpsGet.js';
import { findDueContextRecipients, type DueContextRecipient } from '../src/store/sql/contextPackages.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import { canonicalize } from '../src/protocol/jcs.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { loadOfficialSchemas } from './support/officialSchemas.js';
import { startTestServer, type TestServer } from './support/server.js';
import { describeWithSpec } from './support/spec.js';
import { EXAMPLE_WORK_CONTRACT } from './support/payloadExamples.js';

let server: TestServer;
let reactor: AuthorityReactor;
let owner: Actor;
let mission: MissionRefs;
const actors: Record<'coordinator' | 'late' | 'candidate' | 'replacement' | 'stranger', Actor> = {} as never;
const running: MissionWeaveAgent[] = [];
const NAMED_PACKAGE = `urn:missionweave:context-package:${randomUUID()}`;

function sdkAgent(actor: Actor): MissionWeaveAgent {
  const agent = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: actor.principal.id, keyId: actor.key.keyId, privateKey: actor.key.privateKey, reconnect: { initialDelayMs: 50, maxDelayMs: 500 } });
  running.push(agent);
  return agent;
}

async function connected(actor: Actor): Promise<MissionWeaveAgent> {
  const agent = sdkAgent(actor);
  await agent.connect();
  return agent;
}

function generator() {
  const configured = server.harness.settings.contextGenerator;
  if (configured === undefined) throw new Error('the test server has no context generator');
  return configured;
}

/** What an Agent of this Organization trusts: the Registry and the context generator it names. */
function trust(): ContextTrust {
  return { registry: server.harness.authority.registry.current.registry, contextGenerator: generator().principal.id };
}

const byOwner = (kind: string, payload: JsonObject) => server.harness.expectOk(server.harness.send(owner, kind, payload, { groupId: mission.groupId, membershipEpoch: 1 }));
const post = (content: string) => byOwner('message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content });

async function sequenceOf(kind: string, memberId?: string): Promise<number> {
  const events = await eventsOf(server.db.pool, mission.groupId);
  const found = events.filter((e) => e['kind'] === kind && (memberId === undefined || JSON.stringify(e['payload']).includes(memberId)));
  return Number(found.at(-1)?.['sequence']);
}

beforeAll(async () => {
  server = await startTestServer({}, { contextGenerator: true });
  reactor = AuthorityReactor.start({ authority: server.harness.authority, pool: server.db.pool, logger: pino({ level: 'silent' }), periodMs: 3_600_000 });
  owner = await server.harness.human('owner');
  for (const handle of ['coordinator', 'late', 'candidate', 'replacement', 'stranger'] as const) actors[handle] = await server.harness.agent(handle);
  mission = await createMission(server.harness, owner, actors.coordinator);
  await post('before anyone joined: the plan');
  await byOwner('membership.change', { principal: { ...actors.late.principal }, roles: ['worker'] });
  await post('after the late joiner');
  await byOwner('membership.change', {
    principal: { ...actors.candidate.principal },
    roles: ['worker'],
    provisional: true,
    contextPackageId: NAMED_PACKAGE,
    provisionalExpiresAt: new Date(server.harness.authority.clock.nowMillis() + 3_600_000).toISOString(),
  });
  await reactor.sweepNow();
});

afterAll(async () => {
  await reactor?.close();
  await Promise.all(running.map((agent) => agent.close()));
});

describe('a late joiner', () => {
  it('receives a verified package limited to its visibility', async () => {
    const agent = await connected(actors.late);
    const { document } = await agent.contextPackages().awaitLatest(mission.groupId, { missionId: mission.missionId, workItemId: null, waitMs: 5_000 });
    const joined = await sequenceOf('membership.changed', actors.late.principal.id);
    expect(document.version).toBe(1);
    expect(document['generatedBy']).toEqual(generator().principal);
    expect(document.sourceEventRange.fromSequence).toBe(joined);
    const early = (await eventsOf(server.db.pool, mission.groupId)).filter((e) => Number(e['sequence']) < joined).map((e) => String(e['eventId']));
    expect(early.length).toBeGreaterThan(0);
    expect(document.sourceEventRange.eventIds.filter((id) => early.includes(id))).toEqual([]);
    expect(JSON.stringify(document)).not.toContain('before anyone joined');
  });
});

describe('a provisional member, then activated', () => {
  let first: VerifiedContextPackage;

  it('receives the package its grant named, without open questions or Artifact references', async () => {
    const agent = await connected(actors.candidate);
    first = await agent.contextPackages().awaitLatest(mission.groupId, { missionId: mission.missionId, waitMs: 5_000 });
    expect(first.document.contextPackageId).toBe(NAMED_PACKAGE);
    expect(first.document.artifactHashes).toEqual([]);
    expect(first.document.unresolvedQuestions).toEqual([]);
    expect(first.document.summary).toContain('Provisional Membership');
    expect(first.document.sourceEventRange.fromSequence).toBe(await sequenceOf('membership.changed', actors.candidate.principal.id));
  });

  it('once activated, receives version 2 following the first', async () => {
    await byOwner('membership.change', { principal: { ...actors.candidate.principal }, roles: ['worker'] });
    const events = await eventsOf(server.db.pool, mission.groupId);
    const membership = (events.at(-1)?.['payload'] as { membership: { state: string; membershipEpoch: number } }).membership;
    expect(membership).toMatchObject({ state: 'active', membershipEpoch: 2 });
    await reactor.sweepNow();
    const agent = running.find((a) => a.agentId === actors.candidate.principal.id)!;
    const previous = { contextPackageId: first.document.contextPackageId, version: 1, hash: first.hash };
    const second = await agent.contextPackages().awaitLatest(mission.groupId, { afterVersion: 1, previous, waitMs: 5_000 });
    expect(second.document.version).toBe(2);
    expect(second.document['previousContextPackageId']).toBe(NAMED_PACKAGE);
    expect(second.document.summary).not.toContain('Provisional Membership');
  });
});

describe('a replacement Coordinator', () => {
  it('has its assignments held, retryably, until its package is stored; the same Command then goes ahead', async () => {
    await byOwner('mission.assign_coordinator', { coordinatorId: actors.replacement.principal.id });
    const contract = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], deadline: new Date(server.harness.clock.millis + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 5 } };
    const authorize = server.harness.sign(actors.replacement, 'work.authorize', { workItemId: `urn:missionweave:work-item:${randomUUID()}`, contract }, { groupId: mission.groupId, membershipEpoch: 1, coordinatorEpoch: 2 });
    const before = await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId]);
    const held = await server.harness.authority.submit(authorize);
    expect(held.ok ? 'accepted' : held.error).toMatchObject({ code: 'BACKPRESSURE', retryable: true, groupId: mission.groupId, details: { reason: 'context-package-pending', coordinatorEpoch: 2 } });
    expect(held.ok ? '' : held.error.message).toMatch(/Context Package/);
    expect(await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId])).toBe(before);
    await reactor.sweepNow();
    // The package is stored: the unchanged retry (same Action ID and signature) is accepted.
    await server.harness.expectOk(server.harness.authority.submit(authorize));
  });

  it('takes over with a verified package of the whole history (§7.2)', async () => {
    const coordinator = new MissionWeaveCoordinator(await connected(actors.replacement));
    const { document } = await coordinator.takeOver(mission.groupId, { missionId: mission.missionId, waitMs: 5_000 });
    coordinator.close();
    // Issued right after the appointment (above), the package covers the Group as it stood then.
    const appointed = await sequenceOf('mission.coordinator.assigned');
    const events = (await eventsOf(server.db.pool, mission.groupId)).filter((e) => Number(e['sequence']) <= appointed);
    expect(document.sourceEventRange).toMatchObject({ fromSequence: 1, toSequence: appointed });
    expect(document.sourceEventRange.eventIds).toEqual(events.map((e) => String(e['eventId'])));
    expect(document.decisions.some((d) => d.description.startsWith('mission.coordinator.assigned'))).toBe(true);
  });
});

describe('refusals', () => {
  it('a package is for its recipient alone; a stranger learns nothing', async () => {
    const late = running.find((a) => a.agentId === actors.late.principal.id)!;
    const other = await late.contextPackages().fetch(mission.groupId, NAMED_PACKAGE).catch((error: unknown) => error);
    expect(other).toBeInstanceOf(MissionWeaveError);
    expect(other).toMatchObject({ code: 'GROUP_NOT_FOUND' });
    const stranger = await connected(actors.stranger);
    await expect(stranger.contextPackages().list(mission.groupId)).rejects.toMatchObject({ code: 'GROUP_NOT_FOUND' });
    const path = `/v1/groups/${encodeURIComponent(mission.groupId)}/context-packages/${encodeURIComponent(NAMED_PACKAGE)}`;
    const unauthenticated = await httpsGet(new URL(path, server.httpsUrl), server.ca, 5_000, 'not-a-session-token', 64 * 1024);
    expect(JSON.parse(unauthenticated.body.toString('utf8'))).toMatchObject({ error: { code: 'AUTH_REQUIRED' } });
  });

  it('a tampered package does not verify', async () => {
    const stored = await server.db.pool.query<{ document: string }>('select document from context_packages where context_package_id = $1', [NAMED_PACKAGE]);
    const text = stored.rows[0]!.document;
    const registry = trust();
    expect(verifyContextPackage(Buffer.from(text), mission.groupId, registry).document.contextPackageId).toBe(NAMED_PACKAGE);
    const tampered = text.replace('"summary":"', '"summary":"(edited) ');
    expect(() => verifyContextPackage(Buffer.from(tampered), mission.groupId, registry)).toThrow(ContextPackageError);
    expect(() => verifyContextPackage(Buffer.from(text), 'urn:missionweave:group:other', registry)).toThrow(/not of this Group/);
    expect(() => verifyContextPackage(Buffer.from(text), mission.groupId, registry, { workItemId: 'urn:missionweave:work-item:w9' })).toThrow(/expected scope/);
    const second = await server.db.pool.query<{ document: string }>('select document from context_packages where recipient_id = $1 and version = 2', [actors.candidate.principal.id]);
    const next = Buffer.from(second.rows[0]!.document);
    const previous = { contextPackageId: NAMED_PACKAGE, version: 1, hash: sha256ContentHash(text) };
    expect(verifyContextPackage(next, mission.groupId, registry, { previous }).document.version).toBe(2);
    expect(() => verifyContextPackage(next, mission.groupId, registry, { previous: { ...previous, hash: sha256ContentHash('other bytes') } })).toThrow(/previous version’s hash/);
  });

  it('the SDK accepts packages from the context generator the Registry snapshot names, and from no one else', async () => {
    const late = running.find((a) => a.agentId === actors.late.principal.id)!;
    const exported = await server.harness.authority.registryExport();
    expect(exported.document.snapshot.contextGenerator).toEqual(generator().principal);
    expect(contextTrustOf(exported.text).contextGenerator).toBe(generator().principal.id);
    const [listing] = await late.contextPackages().list(mission.groupId);
    const id = listing!.contextPackageId;
    const stored = await server.db.pool.query<{ document: string }>('select document from context_packages where context_package_id = $1', [id]);
    const original = stored.rows[0]!.document;
    const { signature: _signature, ...unsigned } = JSON.parse(original) as JsonObject;
    const { settings } = server.harness;
    const forgeries: readonly [string, object, RegExp][] = [
      // The service as generatedBy, with its own key: the published schema admits only an Agent.
      ['service', signDocument('context-package', { ...unsigned, generatedBy: { ...settings.services.authority } }, settings.authorityKey), /does not verify: schema/],
      // The generator named, the service's key: the key is not the generator's (§6.4 signer binding).
      ['service key', signDocument('context-package', unsigned, settings.authorityKey), /does not verify/],
      // Another registered Agent, its own key: the six stages pass, but it is not the generator.
      ['other Agent', signDocument('context-package', { ...unsigned, generatedBy: { ...actors.stranger.principal } }, actors.stranger.key), /context generator/],
    ];
    try {
      for (const [name, forged, reason] of forgeries) {
        await server.db.pool.query('update context_packages set document = $2 where context_package_id = $1', [id, canonicalize(forged)]);
        const refused = await late.contextPackages().fetch(mission.groupId, id).catch((error: unknown) => error);
        expect(refused, name).toBeInstanceOf(ContextPackageError);
        expect((refused as Error).message, name).toMatch(reason);
      }
    } finally {
      await server.db.pool.query('update context_packages set document = $2 where context_package_id = $1', [id, original]);
    }
    expect((await late.contextPackages().fetch(mission.groupId, id)).document.contextPackageId).toBe(id);
    expect(() => verifyContextPackage(Buffer.from(original), mission.groupId, { ...trust(), contextGenerator: undefined })).toThrow(/names no context generator/);
  });

  it('an ended Membership reads no package', async () => {
    const late = running.find((a) => a.agentId === actors.late.principal.id)!;
    const before = await late.contextPackages().list(mission.groupId);
    expect(before).toHaveLength(1);
    await byOwner('membership.end', { principal: { ...actors.late.principal } });
    await expect(late.contextPackages().list(mission.groupId)).rejects.toMatchObject({ code: 'MEMBERSHIP_REQUIRED' });
    await expect(late.contextPackages().fetch(mission.groupId, before[0]!.contextPackageId)).rejects.toMatchObject({ code: 'MEMBERSHIP_REQUIRED' });
  });

  it('no package holds a session token or a Message', async () => {
    const sessions = server.listener.sessions as unknown as { byToken: Map<string, unknown> };
    const tokens = [...sessions.byToken.keys()];
    expect(tokens.length).toBeGreaterThan(3);
    const stored = await server.db.pool.query<{ document: string }>('select document from context_packages where group_id = $1', [mission.groupId]);
    for (const { document } of stored.rows) {
      for (const token of tokens) expect(document).not.toContain(token);
      expect(document).not.toContain('after the late joiner');
      expect(document).not.toMatch(/PRIVATE KEY|Bearer/);
    }
  });

  it('nodes issuing the same package at once store one', async () => {
    const joiner = await server.harness.agent('joiner');
    // The Membership's Event hints this node's reactor, whose context sweep issues the package
    // too: a fourth issuer in the race, so exactly one of the four stores it.
    const changed = await byOwner('membership.change', { principal: { ...joiner.principal }, roles: ['reviewer'] });
    const { membership } = (JSON.parse(changed.events[0]?.text ?? '{}') as { payload: { membership: { membershipEpoch: number } } }).payload;
    const due: DueContextRecipient = { groupId: mission.groupId, cause: 'membership', causeEpoch: membership.membershipEpoch, recipient: { ...joiner.principal } };
    const now = server.harness.authority.clock.nowMillis();
    const outcomes = await Promise.all([1, 2, 3].map(() => issueContextPackage(server.db.pool, server.harness.authority.kinds, due, generator(), now)));
    await reactor.sweepNow();
    expect(outcomes.filter((o) => o === 'issued').length).toBeLessThanOrEqual(1);
    expect(outcomes.filter((o) => o !== 'issued' && o !== 'duplicate')).toEqual([]);
    const stored = await server.db.pool.query('select 1 from context_packages where group_id = $1 and recipient_id = $2', [mission.groupId, joiner.principal.id]);
    expect(stored.rowCount).toBe(1);
    expect(await findDueContextRecipients(server.db.pool, 100)).toEqual([]);
  });

  it('a Membership whose visibility starts beyond the head is owed nothing until the Group gets there', async () => {
    const future = await server.harness.agent('future');
    const head = (await eventsOf(server.db.pool, mission.groupId)).length;
    await byOwner('membership.change', { principal: { ...future.principal }, roles: ['observer'], visibilityAfterSequence: head + 1 });
    expect(await findDueContextRecipients(server.db.pool, 100)).toEqual([]);
    await post('one more');
    expect((await findDueContextRecipients(server.db.pool, 100)).map((d) => d.recipient.id)).toEqual([future.principal.id]);
    await reactor.sweepNow();
  });

  it('a second sweep issues nothing new: one package per cause', async () => {
    const before = await count(server.db.pool, 'context_packages', 'group_id = $1', [mission.groupId]);
    await reactor.sweepNow();
    expect(await count(server.db.pool, 'context_packages', 'group_id = $1', [mission.groupId])).toBe(before);
    expect(before).toBe(6);
  });
});

describeWithSpec('the normative schema', () => {
  it('every stored package validates against the published context-package schema (§22)', async () => {
    const validate = loadOfficialSchemas().validators.get('context-package')!;
    const stored = await server.db.pool.query<{ document: string }>('select document from context_packages where group_id = $1', [mission.groupId]);
    expect(stored.rows.length).toBeGreaterThan(0);
    for (const { document } of stored.rows) expect(validate(JSON.parse(document)), JSON.stringify(validate.errors)).toBe(true);
  });
});
