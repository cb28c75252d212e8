/**
 * The Policy Log on real PostgreSQL (§6.4): admission refusals inside the write transaction
 * (freshness, a fenced Session Epoch) each leave exactly one protected audit record with their
 * stage, reason and §19 code; accepted Commands leave none; the table refuses UPDATE, DELETE and
 * TRUNCATE; a flood is held to the buffer's bound; a Group Snapshot's Policy Log references the
 * Group's records without their diagnostics.
 */

import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { snapshotReference } from '../src/app/groupSnapshots.js';
import { PolicyLogRecorder } from '../src/app/recordPolicyLog.js';
import { errorDocument } from '../src/app/wireError.js';
import { verifySignedDocument } from '../src/protocol/signing/verifySignedDocument.js';
import { createPool } from '../src/store/pool.js';
import { readPolicyLog, type PolicyLogRow } from '../src/store/sql/policyLog.js';
import { createTestDatabase } from './support/database.js';
import { Harness, type Actor } from './support/harness.js';
import { createMission, type MissionRefs } from './support/missions.js';

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  const db = await createTestDatabase();
  h = await Harness.start(db.pool);
  owner = await h.human('dana');
  coordinator = await h.agent('coordinator');
  mission = await createMission(h, owner, coordinator);
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

describe('a flood of refusals', () => {
  it('holds at most the buffer and the summaries in memory, and writes every refusal counted', async () => {
    const limits = { maxBufferedEntries: 50, maxSummaries: 3, flushIntervalMs: 3_600_000, maxRowsPerInsert: 20, maxClaimedChars: 16 };
    const recorder = new PolicyLogRecorder(h.pool, h.clock, pino({ level: 'silent' }), limits);
    const before = await records();
    const flood = 20_000;
    for (let i = 0; i < flood; i++) {
      recorder.record({
        diagnostic: { stage: 'signature', reason: 'signature-mismatch', code: 'AUTH_INVALID_SIGNATURE' },
        origin: { transport: 'wss', address: `198.51.100.${i % 10}` },
        document: { actor: { type: 'agent', id: 'x'.repeat(10_000) }, groupId: 'urn:flood' },
      });
      const held = recorder.held;
      expect(held.entries).toBeLessThanOrEqual(limits.maxBufferedEntries);
      expect(held.summaries).toBeLessThanOrEqual(limits.maxSummaries + 1);
    }
    expect(recorder.held.refusals).toBe(flood);
    await recorder.close();
    expect(recorder.held).toEqual({ entries: 0, summaries: 0, refusals: 0 });
    const rows = await newRecords(before);
    expect(rows).toHaveLength(limits.maxBufferedEntries + limits.maxSummaries + 1);
    expect(rows.reduce((sum, r) => sum + r.occurrences, 0)).toBe(flood);
    expect(rows.every((r) => (r.claimedActorId ?? '').length <= limits.maxClaimedChars + 1)).toBe(true);
    expect(rows.filter((r) => r.occurrences > 1).map((r) => r.stage).sort()).toEqual(['*', 'signature', 'signature', 'signature']);
  });
});

describe('flush', () => {
  it('writes what was recorded before it was called, even while an earlier write is in flight', async () => {
    const limits = { maxBufferedEntries: 50, maxSummaries: 3, flushIntervalMs: 3_600_000, maxRowsPerInsert: 20, maxClaimedChars: 16 };
    const recorder = new PolicyLogRecorder(h.pool, h.clock, pino({ level: 'silent' }), limits);
    const before = await records();
    const refusal = (reason: string) => ({ diagnostic: { stage: 'schema' as const, reason, code: 'SCHEMA_VALIDATION_FAILED' as const }, origin: { transport: 'https' as const } });
    recorder.record(refusal('first'));
    const earlier = recorder.flush(); // in flight: it covers 'first' only
    recorder.record(refusal('second'));
    await recorder.flush();
    expect((await newRecords(before)).map((r) => r.reason).sort()).toEqual(['first', 'second']);
    await earlier;
    await recorder.close();
  });
});

describe('a database outage', () => {
  it('keeps refusals buffered, still bounded, and writes nothing twice', async () => {
    const away = createPool('postgres://missionweave@127.0.0.1:1/nowhere', { max: 1 });
    const limits = { maxBufferedEntries: 5, maxSummaries: 2, flushIntervalMs: 3_600_000, maxRowsPerInsert: 2, maxClaimedChars: 16 };
    const recorder = new PolicyLogRecorder(away, h.clock, pino({ level: 'silent' }), limits);
    const refusal = { diagnostic: { stage: 'schema' as const, reason: 'schema-invalid', code: 'SCHEMA_VALIDATION_FAILED' as const }, origin: { transport: 'https' as const } };
    for (let i = 0; i < 100; i++) recorder.record(refusal);
    await recorder.flush();
    expect(recorder.held).toEqual({ entries: 5, summaries: 1, refusals: 100 });
    for (let i = 0; i < 100; i++) recorder.record(refusal);
    await recorder.close();
    expect(recorder.held).toEqual({ entries: 5, summaries: 1, refusals: 200 });
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
