/**
 * Registering an Extension Profile (§18) on real PostgreSQL: only a document whose approval
 * signature verifies under a human's or an Organization service's registered key is stored;
 * a version names one document forever; every refusal stores nothing.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { listProfiles, registerProfile, type ProfileRegistration } from '../src/app/extensionProfiles.js';
import { canonicalize } from '../src/protocol/jcs.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { Harness, type Actor } from './support/harness.js';
import { tallyProfileDocument } from './support/profileDocuments.js';
import { TALLY_URI, tallyProfile } from './support/tallyProfile.js';

let db: TestDatabase;
let h: Harness;
let approver: Actor;

beforeAll(async () => {
  db = await createTestDatabase();
  h = await Harness.start(db.pool);
  approver = await h.human('profile-owner');
});

function register(document: JsonObject | string): Promise<ProfileRegistration> {
  const text = typeof document === 'string' ? document : JSON.stringify(document);
  const deps = { pool: h.pool, registry: h.authority.registry.current.registry, schemas: h.authority.schemas, now: h.now() };
  return registerProfile(deps, Buffer.from(text, 'utf8'));
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
      const deps = { pool: h.pool, registry: h.authority.registry.current.registry, schemas: h.authority.schemas, now: h.now(), codeProfiles: [tallyProfile] };
      return registerProfile(deps, Buffer.from(JSON.stringify(document), 'utf8'));
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
