/**
 * The Policy Log on real PostgreSQL (§6.4): admission refusals inside the write transaction
 * (freshness, a fenced Session Epoch) each leave exactly one protected audit record with their
 * stage, reason and §19 code, in PostgreSQL before the refusal is answered; accepted Commands
 * leave none; a tampered embedded Agent Card is the signature failure it is, recorded; the table
 * refuses UPDATE, DELETE and TRUNCATE; a flood is held to a bound by turning the flooder away
 * (RATE_LIMITED), never by forgetting or summarizing refusals; a Group Snapshot's Policy Log
 * references the Group's records without their diagnostics.
 */

import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { snapshotReference } from '../src/app/groupSnapshots.js';
import { GroupAuthority } from '../src/app/groupAuthority.js';
import { issueAgentCard } from '../src/app/issueDocuments.js';
import { PolicyLogRecorder } from '../src/app/recordPolicyLog.js';
import { generatePrivateKey, publicKeyBase64url } from '../src/protocol/signing/signDocument.js';
import { errorDocument } from '../src/app/wireError.js';
import { verifySignedDocument } from '../src/protocol/signing/verifySignedDocument.js';
import { createPool } from '../src/store/pool.js';
import { readPolicyLog, type PolicyLogRow } from '../src/store/sql/policyLog.js';
import type { Harness, Actor } from './support/harness.js';
import { createMission, type MissionRefs } from './support/missions.js';
import { tampered } from './support/refusals.js';
import { world } from './support/world.js';

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ h, owner, coordinator, mission } = await world({
    humans: { owner: 'dana' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
  }));
});

function post(actor: Actor, content: string) {
  return h.sign(actor, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content }, { groupId: mission.groupId, membershipEpoch: 1 });
}

async function records(): Promise<PolicyLogRow[]> {
  await h.authority.policyLog.flush();
  return readPolicyLog(h.pool, { limit: 10_000, keep: 'oldest' });
}

/** The records not among `before`. */
async function newRecords(before: readonly PolicyLogRow[]): Promise<PolicyLogRow[]> {
  const seen = new Set(before.map((r) => r.entryId));
  return (await records()).filter((r) => !seen.has(r.entryId));
}

describe('admission refusals', () => {
  it('records nothing for accepted Commands', async () => {
    await h.expectOk(h.authority.submit(post(owner, 'fine')));
    await h.expectOk(h.authority.submit(post(coordinator, 'also fine')));
    expect(await records()).toEqual([]);
  });

  it('records a backdated Command once, at stage admission, with its signing hash and claims', async () => {
    const before = await records();
    const command = post(owner, 'written long ago');
    h.clock.advance(h.settings.freshness.maxAgeSeconds + 60);
    const outcome = await h.authority.submit(command, undefined, { transport: 'https', address: '192.0.2.7' });
    h.clock.advance(-(h.settings.freshness.maxAgeSeconds + 60));
    expect(outcome.ok ? 'accepted' : outcome.error).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE', message: 'signed document rejected' });
    const written = await newRecords(before);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      stage: 'admission',
      reason: 'issued-at-too-old',
      code: 'AUTH_INVALID_SIGNATURE',
      transport: 'https',
      address: '192.0.2.7',
      occurrences: 1,
      claimedActorType: 'human',
      claimedActorId: owner.principal.id,
      claimedKeyId: owner.key.keyId,
      claimedActionId: command['actionId'],
      claimedKind: 'message.post',
      claimedGroupId: mission.groupId,
    });
    expect(written[0]?.signingHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(written[0]?.entryId).toMatch(/^urn:uuid:/);
  });

  it('records a Command of a fenced Session Epoch once, as AUTH_STALE_SESSION', async () => {
    const before = await records();
    const stale = post(coordinator, 'from the old runtime');
    await h.openSession(coordinator);
    const outcome = await h.authority.submit(stale);
    expect(outcome.ok ? 'accepted' : outcome.error.code).toBe('AUTH_STALE_SESSION');
    const written = await newRecords(before);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ stage: 'admission', reason: 'session-epoch-fenced', code: 'AUTH_STALE_SESSION', transport: 'cli', claimedActorId: coordinator.principal.id });
  });

  it('never sends the diagnostic on the wire', async () => {
    const command = post(owner, 'late again');
    h.clock.advance(h.settings.freshness.maxAgeSeconds + 60);
    const outcome = await h.authority.submit(command);
    h.clock.advance(-(h.settings.freshness.maxAgeSeconds + 60));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(JSON.stringify(errorDocument(outcome.error, h.now()))).not.toMatch(/issued-at|admission/);
  });
});

describe('the table', () => {
  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    const [first] = await records();
    expect(first).toBeDefined();
    await expect(h.pool.query("update policy_log set reason = 'nothing happened' where entry_id = $1", [first?.entryId])).rejects.toThrow(/append-only/);
    await expect(h.pool.query('delete from policy_log where entry_id = $1', [first?.entryId])).rejects.toThrow(/append-only/);
    await expect(h.pool.query('truncate policy_log')).rejects.toThrow(/append-only/);
    expect((await records())[0]).toEqual(first);
  });
});

describe('a record is durable before its refusal is answered', () => {
  it('is in PostgreSQL when submit answers, with no flush and no timer', async () => {
    const command = post(owner, 'backdated, then read back at once');
    h.clock.advance(h.settings.freshness.maxAgeSeconds + 60);
    const outcome = await h.authority.submit(command, undefined, { transport: 'https', address: '192.0.2.8' });
    h.clock.advance(-(h.settings.freshness.maxAgeSeconds + 60));
    expect(outcome.ok ? 'accepted' : outcome.error.code).toBe('AUTH_INVALID_SIGNATURE');
    const found = await h.pool.query('select stage, reason, claimed_group_id from policy_log where claimed_action_id = $1', [command['actionId']]);
    expect(found.rows).toEqual([{ stage: 'admission', reason: 'issued-at-too-old', claimed_group_id: mission.groupId }]);
  });

  it('refuses a tampered embedded Agent Card with the signature failure, and records it', async () => {
    const agentId = `urn:missionweave:agent:tampered-${randomUUID().slice(0, 8)}`;
    const card = issueAgentCard({
      agentId,
      organizationId: h.settings.services.organizationId,
      cardVersion: 1,
      displayName: 'as signed',
      owner: h.registry.principal,
      endpoint: 'wss://127.0.0.1:8443',
      keys: [{ keyId: `urn:uuid:${randomUUID()}`, publicKey: publicKeyBase64url(generatePrivateKey()), validFrom: h.now() }],
      capabilities: ['code.review@1.0.0'],
      maxConcurrency: 1,
      issuedAt: h.now(),
    }, h.registry.key);
    const command = h.sign(h.registry, 'ext.missionweaveprotocol.registry.agent_card_register', { card: { ...card, displayName: 'not as signed' } });
    const outcome = await h.authority.submit(command);
    expect(outcome.ok ? 'accepted' : outcome.error).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE', message: 'signed document rejected' });
    const found = await h.pool.query('select stage, reason, code, claimed_kind from policy_log where claimed_action_id = $1', [command['actionId']]);
    expect(found.rows).toEqual([{ stage: 'signature', reason: 'signature-mismatch', code: 'AUTH_INVALID_SIGNATURE', claimed_kind: 'ext.missionweaveprotocol.registry.agent_card_register' }]);
    expect(h.authority.registry.current.agents.get(agentId)).toBeUndefined();
  });
});

describe('a flood of refusals', () => {
  const limits = { maxPendingEntries: 50, maxRowsPerInsert: 20, maxClaimedChars: 32 };
  const refusal = (i: number) => ({
    diagnostic: { stage: 'signature' as const, reason: 'signature-mismatch', code: 'AUTH_INVALID_SIGNATURE' as const },
    origin: { transport: 'wss' as const, address: `198.51.100.${i % 10}` },
    document: { actor: { type: 'agent', id: 'x'.repeat(10_000) }, groupId: 'urn:flood', actionId: `urn:flood:${i}` },
  });

  it('holds at most its bound, writes each refusal it took whole, and turns the rest away instead of forgetting them', async () => {
    const recorder = new PolicyLogRecorder(h.pool, h.clock, pino({ level: 'silent' }), limits);
    const before = await records();
    const flood = 2_000;
    const answers: Promise<string>[] = [];
    for (let i = 0; i < flood; i++) {
      answers.push(recorder.record(refusal(i)));
      expect(recorder.pending).toBeLessThanOrEqual(limits.maxPendingEntries);
    }
    const outcomes = await Promise.all(answers);
    const recorded = outcomes.filter((o) => o === 'recorded').length;
    expect(recorded).toBeGreaterThanOrEqual(limits.maxPendingEntries);
    expect(outcomes.filter((o) => o !== 'recorded').every((o) => o === 'saturated')).toBe(true);
    expect(recorder.pending).toBe(0);
    const rows = await newRecords(before);
    expect(rows).toHaveLength(recorded);
    for (const row of rows) {
      expect(row).toMatchObject({ occurrences: 1, stage: 'signature', reason: 'signature-mismatch', code: 'AUTH_INVALID_SIGNATURE', claimedGroupId: 'urn:flood' });
      expect(row.claimedActorId?.length).toBeLessThanOrEqual(limits.maxClaimedChars + 1);
    }
    await recorder.close();
  });

  it('refuses the flooder RATE_LIMITED through the pipeline, and answers no refusal it did not record', async () => {
    const limited = await GroupAuthority.start({ pool: h.pool, settings: { ...h.settings, policyLogLimits: { maxPendingEntries: 4, maxRowsPerInsert: 1_000, maxClaimedChars: 256 } }, clock: h.clock, logger: pino({ level: 'silent' }), kinds: h.authority.kinds });
    const before = await records();
    const flood = Array.from({ length: 60 }, (_, i) => tampered(post(owner, `flood ${i}`)));
    const outcomes = await Promise.all(flood.map((command) => limited.submit(command, undefined, { transport: 'https', address: '203.0.113.9' })));
    const codes = outcomes.map((o) => (o.ok ? 'accepted' : o.error.code));
    expect(new Set(codes)).toEqual(new Set(['AUTH_INVALID_SIGNATURE', 'RATE_LIMITED']));
    const rows = await newRecords(before);
    const refused = flood.filter((_, i) => codes[i] === 'AUTH_INVALID_SIGNATURE').map((c) => c['actionId']);
    expect(rows.map((r) => r.claimedActionId).sort()).toEqual(refused.sort());
    for (const row of rows) expect(row).toMatchObject({ stage: 'signature', claimedGroupId: mission.groupId, occurrences: 1 });
    await limited.close();
  });
});

describe('a database outage', () => {
  it('answers that the refusal could not be recorded, and holds nothing', async () => {
    const away = createPool('postgres://missionweave@127.0.0.1:1/nowhere', { max: 1 });
    const recorder = new PolicyLogRecorder(away, h.clock, pino({ level: 'silent' }), { maxPendingEntries: 5, maxRowsPerInsert: 2, maxClaimedChars: 16 });
    const refusal = { diagnostic: { stage: 'schema' as const, reason: 'schema-invalid', code: 'SCHEMA_VALIDATION_FAILED' as const }, origin: { transport: 'https' as const } };
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => recorder.record(refusal)));
    expect(new Set(outcomes)).toEqual(new Set(['failed', 'saturated']));
    expect(recorder.pending).toBe(0);
    await recorder.close();
    await away.end();
  });
});

describe('Group Snapshots', () => {
  it('reference the Group’s refusals by entry ID, without stage or reason, and validate', async () => {
    const other = await createMission(h, owner, coordinator);
    // Signed before its key was valid: refused at key resolution, naming the other Group.
    const early = h.sign(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: other.mainConversationId, content: 'x' }, { groupId: other.groupId, membershipEpoch: 1, issuedAt: new Date(h.clock.millis - 1_000_000).toISOString() });
    expect((await h.authority.submit(early)).ok).toBe(false);
    expect((await records()).filter((r) => r.claimedGroupId === other.groupId)).toMatchObject([{ stage: 'key-resolution', code: 'AUTH_INVALID_SIGNATURE' }]);
    const ours = (await records()).filter((r) => r.claimedGroupId === mission.groupId);
    expect(ours.length).toBeGreaterThanOrEqual(2);
    // Later than every record (some were made with the clock moved on).
    const reference = await snapshotReference(h.pool, mission.groupId, h.settings, h.clock.millis + 3_600_000, 0);
    const body = await h.pool.query<{ body: string }>('select body from group_snapshots where snapshot_hash = $1', [reference.hash]);
    const { snapshot } = JSON.parse(body.rows[0]?.body ?? '{}') as { snapshot: { policyLog: Record<string, unknown>[] } };
    const verified = verifySignedDocument('group-snapshot', Buffer.from(JSON.stringify(snapshot)), h.authority.registry.current.registry, h.authority.schemas);
    expect(verified.ok).toBe(true);
    const referenced = snapshot.policyLog.map((e) => e['entryId']);
    expect(referenced.slice(0, -1)).toEqual(ours.map((r) => r.entryId));
    expect(JSON.stringify(snapshot.policyLog)).not.toMatch(/issued-at|session-epoch|admission/);
    expect(snapshot.policyLog.at(-1)).toMatchObject({ decision: 'snapshot issued for replay beyond the online window' });
  });
});
