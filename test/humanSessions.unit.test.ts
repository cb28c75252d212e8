/**
 * Human sessions without a server (docs/human-api.md): a challenge is single-use and expires,
 * a wrong signature or a key that is unknown, another principal's, revoked or expired never
 * opens a session, a session ends at its expiry or when its key is revoked, and every bound
 * refuses with RATE_LIMITED once full. Time and randomness are driven by the test.
 */

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HumanSessions, type HumanSessionLimits } from '../src/app/humans/humanSessions.js';
import type { RegistrySnapshot } from '../src/app/registryCache.js';
import { canonicalBytes } from '../src/protocol/jcs.js';
import { KeyRegistry } from '../src/protocol/signing/keyRegistry.js';
import { signBytes } from '../src/protocol/signing/signDocument.js';
import { evidence, makeKey, type TestKey } from './support/keys.js';

const alice = { type: 'human' as const, id: 'urn:missionweave:human:alice' };
const bob = { type: 'human' as const, id: 'urn:missionweave:human:bob' };
const T0 = Date.parse('2026-07-15T12:00:00Z');

const LIMITS: HumanSessionLimits = {
  humanChallengeTtlMs: 60_000,
  humanSessionTtlMs: 15 * 60_000,
  maxChallengesPerHuman: 8,
  maxHumanChallenges: 10_000,
  maxSessionsPerHuman: 16,
  maxHumanSessions: 10_000,
};

function world(keys: TestKey[], limits: Partial<HumanSessionLimits> = {}) {
  const clock = { now: T0 };
  let snapshot: RegistrySnapshot = { revision: 1, registry: KeyRegistry.fromEvidence(evidence(...keys)), agents: new Map() };
  const sessions = new HumanSessions({ ...LIMITS, ...limits }, { nowMillis: () => clock.now, randomBytes, registry: () => snapshot });
  return {
    clock,
    sessions,
    setKeys(next: TestKey[]) {
      snapshot = { revision: snapshot.revision + 1, registry: KeyRegistry.fromEvidence(evidence(...next)), agents: new Map() };
    },
  };
}

function signIn(w: ReturnType<typeof world>, key: TestKey, humanId = key.principal.id) {
  const issued = w.sessions.challenge(humanId, key.signingKey.keyId, '127.0.0.1:8443');
  if (!issued.ok) throw new Error(issued.error.code);
  return { issued, signature: signBytes(key.signingKey.privateKey, canonicalBytes(issued.transcript)) };
}

describe('human sessions', () => {
  it('opens a session for a signed transcript, once', () => {
    const key = makeKey(alice);
    const w = world([key]);
    const { issued, signature } = signIn(w, key);
    expect(issued.transcript).toMatchObject({ type: 'missionweave.human-session.v1', humanId: alice.id, keyId: key.signingKey.keyId, audience: '127.0.0.1:8443', expiresAt: '2026-07-15T12:01:00.000Z' });
    const opened = w.sessions.open(issued.challengeId, signature);
    if (!opened.ok) throw new Error(opened.error.code);
    expect(opened).toMatchObject({ humanId: alice.id, keyId: key.signingKey.keyId, expiresAt: '2026-07-15T12:15:00.000Z' });
    expect(w.sessions.principalOf(opened.token)).toEqual(alice);
    const again = w.sessions.open(issued.challengeId, signature);
    expect(again.ok ? 'opened' : again.error.code).toBe('AUTH_REQUIRED');
  });

  it('refuses an expired challenge and expires the session', () => {
    const key = makeKey(alice);
    const w = world([key]);
    const late = signIn(w, key);
    w.clock.now += 60_000;
    const refused = w.sessions.open(late.issued.challengeId, late.signature);
    expect(refused.ok ? 'opened' : refused.error.code).toBe('AUTH_REQUIRED');
    const fresh = signIn(w, key);
    const opened = w.sessions.open(fresh.issued.challengeId, fresh.signature);
    if (!opened.ok) throw new Error(opened.error.code);
    w.clock.now += 15 * 60_000 - 1;
    expect(w.sessions.principalOf(opened.token)).toEqual(alice);
    w.clock.now += 1;
    expect(w.sessions.principalOf(opened.token)).toBeUndefined();
  });

  it('refuses a wrong signature, a challenge made out for another human, and an unknown key alike', () => {
    const key = makeKey(alice);
    const other = makeKey(bob);
    const w = world([key, other]);
    const { issued } = signIn(w, key);
    const wrong = w.sessions.open(issued.challengeId, signBytes(other.signingKey.privateKey, canonicalBytes(issued.transcript)));
    // Alice's key, claimed for Bob: the key is not bound to him.
    const claimed = signIn(w, key, bob.id);
    const misbound = w.sessions.open(claimed.issued.challengeId, claimed.signature);
    // An unknown key gets a challenge of the same shape, which never verifies.
    const stranger = makeKey({ type: 'human', id: 'urn:missionweave:human:mallory' });
    const unknown = signIn(w, stranger);
    expect(Object.keys(unknown.issued).sort()).toEqual(Object.keys(issued).sort());
    const refused = w.sessions.open(unknown.issued.challengeId, unknown.signature);
    const garbage = signIn(w, key);
    const malformed = w.sessions.open(garbage.issued.challengeId, 'not-a-signature');
    expect([wrong, misbound, refused, malformed].map((r) => (r.ok ? 'opened' : r.error.code))).toEqual(['AUTH_REQUIRED', 'AUTH_REQUIRED', 'AUTH_REQUIRED', 'AUTH_REQUIRED']);
  });

  it('refuses a revoked key and ends its sessions', () => {
    const key = makeKey(alice);
    const w = world([key]);
    const first = signIn(w, key);
    const opened = w.sessions.open(first.issued.challengeId, first.signature);
    if (!opened.ok) throw new Error(opened.error.code);
    const pending = signIn(w, key);
    const revoked = { ...key, binding: { ...key.binding, validityHistory: [{ sequence: 1, recordedAt: '2026-07-15T11:00:00Z', revokedAt: '2026-07-15T11:30:00Z' }] } };
    w.setKeys([revoked]);
    expect(w.sessions.principalOf(opened.token)).toBeUndefined();
    const refused = w.sessions.open(pending.issued.challengeId, pending.signature);
    expect(refused.ok ? 'opened' : refused.error.code).toBe('AUTH_REQUIRED');
  });

  it('ends a session on request', () => {
    const key = makeKey(alice);
    const w = world([key]);
    const { issued, signature } = signIn(w, key);
    const opened = w.sessions.open(issued.challengeId, signature);
    if (!opened.ok) throw new Error(opened.error.code);
    expect(w.sessions.end(opened.token)).toBe(true);
    expect(w.sessions.principalOf(opened.token)).toBeUndefined();
    expect(w.sessions.end(opened.token)).toBe(false);
  });

  it('bounds challenges per human and in all, and frees them as they expire', () => {
    const key = makeKey(alice);
    const w = world([key], { maxChallengesPerHuman: 2, maxHumanChallenges: 3 });
    const codes = () => {
      const r = w.sessions.challenge(alice.id, key.signingKey.keyId, 'a');
      return r.ok ? 'ok' : `${r.error.code} ${r.error.message}`;
    };
    expect([codes(), codes(), codes()]).toEqual(['ok', 'ok', 'RATE_LIMITED too many open challenges for this human']);
    expect(w.sessions.challenge(bob.id, 'urn:uuid:x', 'a').ok).toBe(true);
    const full = w.sessions.challenge('urn:missionweave:human:carol', 'urn:uuid:y', 'a');
    expect(full.ok ? 'ok' : full.error.message).toBe('too many open challenges on this node');
    w.clock.now += 60_000;
    expect(codes()).toBe('ok');
  });

  it('bounds sessions per human and in all', () => {
    const key = makeKey(alice);
    const other = makeKey(bob);
    const w = world([key, other], { maxSessionsPerHuman: 1, maxHumanSessions: 2 });
    const open = (k: TestKey) => {
      const { issued, signature } = signIn(w, k);
      const r = w.sessions.open(issued.challengeId, signature);
      return r.ok ? 'ok' : `${r.error.code} ${r.error.message}`;
    };
    expect([open(key), open(key)]).toEqual(['ok', 'RATE_LIMITED too many open sessions for this human']);
    expect(open(other)).toBe('ok');
    w.clock.now += 15 * 60_000;
    expect(open(key)).toBe('ok');
  });
});
