/**
 * Registering an Extension Profile (§18) on real PostgreSQL: only a document whose approval
 * signature verifies under a human's or an Organization service's registered key is stored;
 * a version names one document forever; every refusal stores nothing. Registration is a first
 * admission like any Signed Document's (§6.4): the key must be valid at the trusted acceptance
 * time too (a backdated `approvedAt` under a revoked key is refused), the document leaves a
 * First-Admission Record, and every signature or admission refusal a Policy Log record.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { listProfiles, registerProfile, type ProfileRegistration } from '../src/app/extensionProfiles.js';
import { canonicalize } from '../src/protocol/jcs.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { timestampOf } from '../src/app/issueDocuments.js';
import { generatePrivateKey, publicKeyBase64url } from '../src/protocol/signing/signDocument.js';
import { insertValidityRecord } from '../src/store/sql/registry.js';
import type { Harness, Actor } from './support/harness.js';
import { tallyProfileDocument } from './support/profileDocuments.js';
import { TALLY_URI, tallyProfile } from './support/tallyProfile.js';
import { world } from './support/world.js';

let h: Harness;
let approver: Actor;

beforeAll(async () => {
  ({ h, approver } = await world({ humans: { approver: 'profile-owner' } }));
});

function register(document: JsonObject | string): Promise<ProfileRegistration> {
  const text = typeof document === 'string' ? document : JSON.stringify(document);
  return registerProfile({ pool: h.pool, authority: h.authority }, Buffer.from(text, 'utf8'));
}

function codeOf(outcome: ProfileRegistration): string | undefined {
  return outcome.ok ? undefined : outcome.error.code;
}

describe('profile registration', () => {
  it('stores a document approved by a registered human, as JCS, with its major version; again is a no-op', async () => {
    const document = tallyProfileDocument(approver, h.now());
    const first = await register(document);
    expect(first.ok && first.inserted).toBe(true);
    expect(first.ok && first.profile).toMatchObject({ profileUri: TALLY_URI, version: '1.0.0', majorVersion: 1, critical: true, document: canonicalize(document) });
    const again = await register(document);
    expect(again.ok && again.inserted).toBe(false);
    expect((await listProfiles(h.pool, TALLY_URI)).map((p) => p.version)).toEqual(['1.0.0']);
  });

  it('refuses another document under a registered version, and stores a new version beside it', async () => {
    const other = await register(tallyProfileDocument(approver, h.now(), { name: 'Tally, renamed' }));
    expect(codeOf(other)).toBe('INVALID_COMMAND');
    const next = await register(tallyProfileDocument(approver, h.now(), { version: '2.1.0' }));
    expect(next.ok && next.profile.majorVersion).toBe(2);
    expect((await listProfiles(h.pool, TALLY_URI)).map((p) => p.version)).toEqual(['1.0.0', '2.1.0']);
  });

  it('refuses a bad approval signature: a changed member, another key, an unregistered approver', async () => {
    const tampered = { ...tallyProfileDocument(approver, h.now(), { version: '3.0.0' }), critical: false };
    expect(codeOf(await register(tampered))).toBe('AUTH_INVALID_SIGNATURE');
    const impostor = await h.human('impostor');
    const forged = tallyProfileDocument({ principal: approver.principal, key: impostor.key }, h.now(), { version: '3.0.1' });
    expect(codeOf(await register(forged))).toBe('AUTH_INVALID_SIGNATURE');
    const unknown = tallyProfileDocument({ principal: { type: 'human', id: 'urn:missionweave:human:nobody' }, key: { ...approver.key, keyId: 'urn:missionweave:key:nobody' } }, h.now(), { version: '3.0.2' });
    expect(codeOf(await register(unknown))).toBe('AUTH_INVALID_SIGNATURE');
    expect((await listProfiles(h.pool, TALLY_URI)).map((p) => p.version)).toEqual(['1.0.0', '2.1.0']);
  });

  it('refuses an Agent as approver, a schema-invalid document, split namespaces and bad JSON', async () => {
    const agent = await h.agent('profile-writer');
    expect(codeOf(await register(tallyProfileDocument(agent, h.now(), { version: '4.0.0' })))).toBe('AUTH_FORBIDDEN');
    expect(codeOf(await register(tallyProfileDocument(approver, h.now(), { version: '4.0.1', overridesCoreInvariants: true })))).toBe('SCHEMA_VALIDATION_FAILED');
    const split = await register(tallyProfileDocument(approver, h.now(), { version: '4.0.2', eventKinds: ['ext.other.tally.tallied'] }));
    expect(codeOf(split)).toBe('SCHEMA_VALIDATION_FAILED');
    expect(!split.ok && split.error.message).toMatch(/ext\.missionweave\.tally\., ext\.other\.tally\./);
    expect(codeOf(await register('{"profileUri": 1,'))).toBe('PROTOCOL_VIOLATION');
    expect((await listProfiles(h.pool, TALLY_URI)).map((p) => p.version)).toEqual(['1.0.0', '2.1.0']);
  });

  it('refuses a document for a major this node implements unless it declares exactly the code\'s kinds', async () => {
    const withCode = (document: JsonObject) => {
      return registerProfile({ pool: h.pool, authority: h.authority, codeProfiles: [tallyProfile] }, Buffer.from(JSON.stringify(document), 'utf8'));
    };
    const extra = await withCode(tallyProfileDocument(approver, h.now(), { version: '1.5.0', commandKinds: ['ext.missionweave.tally.add', 'ext.missionweave.tally.reset'] }));
    expect(!extra.ok && extra.error).toMatchObject({ code: 'INVALID_COMMAND', message: expect.stringMatching(/ext\.missionweave\.tally\.add/) });
    const missing = await withCode(tallyProfileDocument(approver, h.now(), { version: '1.5.1', eventKinds: ['ext.missionweave.tally.other'] }));
    expect(codeOf(missing)).toBe('INVALID_COMMAND');
    // Without the code (a node that does not run the profile) the same document is a plain registration.
    expect((await register(tallyProfileDocument(approver, h.now(), { version: '1.5.2', eventKinds: ['ext.missionweave.tally.other'] }))).ok).toBe(true);
    const exact = await withCode(tallyProfileDocument(approver, h.now(), { version: '1.6.0' }));
    expect(exact.ok && exact.inserted).toBe(true);
    // A major the code does not implement is not compared.
    expect((await withCode(tallyProfileDocument(approver, h.now(), { version: '3.0.0', eventKinds: ['ext.missionweave.tally.other'] }))).ok).toBe(true);
    expect((await listProfiles(h.pool, TALLY_URI)).map((p) => p.version).sort()).toEqual(['1.0.0', '1.5.2', '1.6.0', '2.1.0', '3.0.0']);
  });
});

describe('registration is a first admission (§6.4)', () => {
  async function revoke(actor: Actor, revokedAt: string): Promise<void> {
    const { rows } = await h.pool.query<{ registry_revision: number }>('update organization_state set registry_revision = registry_revision + 1 returning registry_revision');
    const last = await h.pool.query<{ sequence: number | null }>('select max(sequence)::int as sequence from key_validity_records where key_id = $1', [actor.key.keyId]);
    await insertValidityRecord(h.pool, actor.key.keyId, { sequence: (last.rows[0]?.sequence ?? 0) + 1, recordedAt: revokedAt, revokedAt }, rows[0]?.registry_revision as number);
    await h.authority.refreshRegistry();
  }

  const recordsOf = async (keyId: string) =>
    (await h.pool.query('select stage, reason, code, transport, claimed_actor_id, signing_hash from policy_log where claimed_key_id = $1', [keyId])).rows;
  const admissionsOf = async (signingHash: string) =>
    (await h.pool.query('select document_kind, key_id, principal_type, principal_id, trusted_accepted_at from embedded_admissions where signing_hash = $1', [signingHash])).rows;

  it('refuses a document signed under a revoked key with a backdated approvedAt, records why, and stores nothing', async () => {
    const signer = await h.human('revoked-approver');
    const document = tallyProfileDocument(signer, timestampOf(h.clock.millis - 30_000), { version: '7.0.0' });
    await revoke(signer, timestampOf(h.clock.millis - 10_000));
    const outcome = await register(document);
    expect(outcome.ok ? 'stored' : outcome.error).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE', message: 'signed document rejected' });
    expect((await listProfiles(h.pool, TALLY_URI)).map((p) => p.version)).not.toContain('7.0.0');
    expect(await recordsOf(signer.key.keyId)).toEqual([
      { stage: 'admission', reason: 'trusted-time-outside-key-interval', code: 'AUTH_INVALID_SIGNATURE', transport: 'cli', claimed_actor_id: signer.principal.id, signing_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
    ]);
  });

  it('leaves one First-Admission Record, found again when the same document is registered again', async () => {
    const document = tallyProfileDocument(approver, h.now(), { version: '8.0.0' });
    const first = await register(document);
    if (!first.ok) throw new Error(first.error.code);
    const records = await admissionsOf(first.profile.signingHash);
    expect(records).toEqual([{ document_kind: 'extension-profile', key_id: approver.key.keyId, principal_type: 'human', principal_id: approver.principal.id, trusted_accepted_at: first.profile.registeredAt }]);
    expect(await register(document)).toMatchObject({ ok: true, inserted: false });
    expect(await admissionsOf(first.profile.signingHash)).toEqual(records);
  });

  it('refuses the same signing bytes under another key of the approver: the record binds the first key', async () => {
    const privateKey = generatePrivateKey();
    const other = { keyId: `urn:uuid:${randomUUID()}`, privateKey };
    await h.authority.enrolKey({ keyId: other.keyId, principal: approver.principal, algorithm: 'Ed25519', publicKey: publicKeyBase64url(privateKey), validFrom: timestampOf(h.clock.millis - 60_000), validityHistory: [] });
    const approvedAt = h.now();
    expect((await register(tallyProfileDocument(approver, approvedAt, { version: '9.0.0' }))).ok).toBe(true);
    const again = await register(tallyProfileDocument({ principal: approver.principal, key: other }, approvedAt, { version: '9.0.0' }));
    expect(again.ok ? 'stored' : again.error.code).toBe('AUTH_INVALID_SIGNATURE');
    expect(await recordsOf(other.keyId)).toMatchObject([{ stage: 'admission', reason: 'record-binding-mismatch' }]);
  });

  it('refuses an approval dated beyond the clock-skew window', async () => {
    const early = await h.human('approves-ahead');
    const ahead = timestampOf(h.clock.millis + (h.settings.freshness.maxFutureSkewSeconds + 60) * 1000);
    const outcome = await register(tallyProfileDocument(early, ahead, { version: '10.0.0' }));
    expect(outcome.ok ? 'stored' : outcome.error.code).toBe('AUTH_INVALID_SIGNATURE');
    expect(await recordsOf(early.key.keyId)).toMatchObject([{ stage: 'admission', reason: 'protected-time-too-far-ahead' }]);
  });
});
