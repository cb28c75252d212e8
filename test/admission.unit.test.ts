/**
 * First admission and historical replay against an in-memory Admission Log that behaves like
 * a real one: one record per (organizationId, signingHash), append-or-return-existing.
 */

import { describe, expect, it } from 'vitest';
import type { Principal } from '../src/protocol/principal.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import {
  admitFirst,
  replayHistorical,
  type AdmissionLog,
  type AppendResult,
  type FirstAdmissionRecord,
  type LookupResult,
} from '../src/protocol/signing/admission.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import { registryInput, verifySignedDocument } from '../src/protocol/signing/verifySignedDocument.js';
import type { VerifiedDocument } from '../src/protocol/signing/verification.js';
import { evidence, makeKey, unsignedCommand } from './support/keys.js';

const schemas = schemaRegistry();
const service: Principal = { type: 'service', id: 'urn:missionweave:service:admission' };
const agent: Principal = { type: 'agent', id: 'urn:missionweave:agent:writer' };

class MemoryLog implements AdmissionLog {
  readonly records = new Map<string, FirstAdmissionRecord>();
  appends = 0;
  constructor(private readonly authenticated: Principal = service) {}

  lookup(organizationId: string, signingHash: string): Promise<LookupResult> {
    const found = this.records.get(`${organizationId} ${signingHash}`);
    if (found === undefined) return Promise.resolve({ status: 'authoritative-absence' });
    return Promise.resolve({ status: 'found', recordBytes: Buffer.from(JSON.stringify(found)), authenticatedService: this.authenticated });
  }

  appendOrReturnExisting(candidate: FirstAdmissionRecord): Promise<AppendResult> {
    this.appends++;
    const key = `${candidate.organizationId} ${candidate.signingHash}`;
    const existing = this.records.get(key);
    if (existing !== undefined && existing.admissionRecordId !== candidate.admissionRecordId) {
      return Promise.resolve({ status: 'existing', recordBytes: Buffer.from(JSON.stringify(existing)), authenticatedService: this.authenticated });
    }
    this.records.set(key, candidate);
    return Promise.resolve({ status: 'committed', recordBytes: Buffer.from(JSON.stringify(candidate)), authenticatedService: this.authenticated });
  }
}

function verified(validUntil?: string): VerifiedDocument {
  const key = makeKey(agent, validUntil === undefined ? {} : { validityHistory: [{ sequence: 1, recordedAt: '2026-07-20T00:00:00Z', validUntil }] });
  const document = signDocument('command', unsignedCommand(agent), key.signingKey);
  const result = verifySignedDocument('command', Buffer.from(JSON.stringify(document)), registryInput(evidence(key)), schemas);
  if (!result.ok) throw new Error(result.failure.reason);
  return result.verified;
}

const context = (at: string, id = 'urn:missionweave:admission-record:1') => () => ({ admissionRecordId: id, trustedAcceptedAt: at, acceptedBy: service });

describe('first admission', () => {
  it('appends once, then returns the same record idempotently without appending', async () => {
    const log = new MemoryLog();
    const doc = verified();
    const first = await admitFirst(doc, log, context('2026-07-15T00:00:05Z'), schemas);
    expect(first.ok && first.record.signingHash).toBe(doc.signingHash);
    const again = await admitFirst(doc, log, () => {
      throw new Error('no new trusted context on retry');
    }, schemas);
    expect(again).toEqual(first);
    expect(log.appends).toBe(1);
  });

  it('accepts the concurrent winner record returned by append-or-return-existing', async () => {
    // The loser looked up before the winner appended, so it saw an authoritative absence.
    class RacingLog extends MemoryLog {
      override lookup(): Promise<LookupResult> {
        return Promise.resolve({ status: 'authoritative-absence' });
      }
    }
    const log = new RacingLog();
    const doc = verified();
    await admitFirst(doc, log, context('2026-07-15T00:00:05Z', 'urn:missionweave:admission-record:winner'), schemas);
    const outcome = await admitFirst(doc, log, context('2026-07-15T00:00:06Z', 'urn:missionweave:admission-record:loser'), schemas);
    expect(outcome.ok && outcome.record.admissionRecordId).toBe('urn:missionweave:admission-record:winner');
  });

  it('refuses a trusted time outside the key interval, malformed, or a log that lies about who it is', async () => {
    const doc = verified('2026-07-16T00:00:00Z');
    const outside = await admitFirst(doc, new MemoryLog(), context('2026-07-16T00:00:00Z'), schemas);
    expect(outside).toMatchObject({ ok: false, reason: 'trusted-time-outside-key-interval', code: 'AUTH_INVALID_SIGNATURE' });
    const malformed = await admitFirst(doc, new MemoryLog(), context('yesterday'), schemas);
    expect(malformed).toMatchObject({ ok: false, reason: 'malformed-trusted-time' });
    const impostor = await admitFirst(doc, new MemoryLog({ type: 'service', id: 'urn:missionweave:service:other' }), context('2026-07-15T00:00:05Z'), schemas);
    expect(impostor).toMatchObject({ ok: false, reason: 'record-service-mismatch' });
  });

  it('refuses a found record bound to another Principal, kind or key', async () => {
    const log = new MemoryLog();
    const doc = verified();
    await admitFirst(doc, log, context('2026-07-15T00:00:05Z'), schemas);
    for (const change of [{ principal: { type: 'agent', id: 'urn:missionweave:agent:other' } }, { documentKind: 'event' }, { keyId: 'urn:missionweave:key:other' }]) {
      const [key, record] = [...log.records][0]!;
      log.records.set(key, { ...record, ...change } as FirstAdmissionRecord);
      expect(await admitFirst(doc, log, context('2026-07-15T00:00:05Z'), schemas)).toMatchObject({ ok: false, reason: 'record-binding-mismatch' });
      log.records.set(key, record);
    }
  });
});

describe('historical replay', () => {
  it('needs a found record and never appends', async () => {
    const doc = verified();
    const log = new MemoryLog();
    expect(await replayHistorical(doc, log, schemas)).toMatchObject({ ok: false, reason: 'record-missing' });
    expect(log.appends).toBe(0);
    await admitFirst(doc, log, context('2026-07-15T00:00:05Z'), schemas);
    expect((await replayHistorical(doc, log, schemas)).ok).toBe(true);
  });
});
