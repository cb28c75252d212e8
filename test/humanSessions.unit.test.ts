/**
 * Human sessions without a server (docs/human-api.md): a challenge is single-use and expires,
 * a wrong signature or a key that is unknown, another principal's, revoked or expired never
 * opens a session, a session ends at its expiry or when its key is revoked, and the session
 * bounds refuse with RATE_LIMITED once full. Challenges are stateless: no flood of them stores
 * anything or stops a real sign-in, a forged one is refused before any key lookup, and the table
 * of answered ones stays at its bound. Time and randomness are driven by the test.
 */

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HumanSessions, type HumanSessionLimits } from '../src/app/humans/humanSessions.js';
import type { RegistrySnapshot } from '../src/app/registrySnapshot.js';
import { canonicalBytes } from '../src/protocol/jcs.js';
import { KeyRegistry } from '../src/protocol/signing/keyRegistry.js';
import { signBytes } from '../src/protocol/signing/signDocument.js';
import { MAX_CHALLENGE_ID_CHARS, MAX_IDENTIFIER_CHARS } from '../src/transport/readerLimits.js';
import { evidence, makeKey, type TestKey } from './support/keys.js';

const alice = { type: 'human' as const, id: 'urn:missionweave:human:alice' };
const bob = { type: 'human' as const, id: 'urn:missionweave:human:bob' };
const T0 = Date.parse('2026-07-15T12:00:00Z');

const LIMITS: HumanSessionLimits = {
  humanChallengeTtlMs: 60_000,
  humanSessionTtlMs: 15 * 60_000,
  maxConsumedChallenges: 100_000,
  maxSessionsPerHuman: 16,
  maxHumanSessions: 10_000,
};

function world(keys: TestKey[], limits: Partial<HumanSessionLimits> = {}) {
  const clock = { now: T0 };
  let snapshot: RegistrySnapshot = { revision: 1, registry: KeyRegistry.fromEvidence(evidence(...keys)), agents: new Map() };
  // Every key lookup, and so every signature verification, reads the Registry first.
  const lookups = { count: 0 };
  const registry = () => {
    lookups.count += 1;
    return snapshot;
  };
  const sessions = new HumanSessions({ ...LIMITS, ...limits }, { nowMillis: () => clock.now, randomBytes, registry });
  return {
    clock,
    lookups,
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

  it('says when a challenge names a key the Registry does not bind yet', () => {
    const key = makeKey(alice);
    const later = makeKey(bob);
    const w = world([key]);
    const known = signIn(w, key);
    const pending = signIn(w, later);
    expect([w.sessions.awaitsKey(known.issued.challengeId), w.sessions.awaitsKey(pending.issued.challengeId), w.sessions.awaitsKey('bogus')]).toEqual([false, true, false]);
    w.setKeys([key, later]);
    expect(w.sessions.awaitsKey(pending.issued.challengeId)).toBe(false);
    expect(w.sessions.open(pending.issued.challengeId, pending.signature).ok).toBe(true);
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

  it('stores nothing for 10,000 challenges for one human or for made-up ones, and still signs the human in', () => {
    const key = makeKey(alice);
    const w = world([key]);
    const refused: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const mine = w.sessions.challenge(alice.id, key.signingKey.keyId, 'a');
      const madeUp = w.sessions.challenge(`urn:missionweave:human:nobody-${i}`, `urn:uuid:${i}`, 'a');
      for (const r of [mine, madeUp]) if (!r.ok) refused.push(r.error.code);
    }
    expect({ refused, consumed: w.sessions.consumedChallenges, sessions: w.sessions.openSessions, lookups: w.lookups.count }).toEqual({ refused: [], consumed: 0, sessions: 0, lookups: 0 });
    const { issued, signature } = signIn(w, key);
    expect(w.sessions.open(issued.challengeId, signature).ok).toBe(true);
  });

  it('refuses a forged or modified challengeId before any key lookup', () => {
    const key = makeKey(alice);
    const w = world([key]);
    const { issued, signature } = signIn(w, key);
    const bytes = Buffer.from(issued.challengeId, 'base64url');
    const tampered = (index: number) => {
      const copy = Buffer.from(bytes);
      copy[index] = (copy[index] as number) ^ 1;
      return copy.toString('base64url');
    };
    // Another node's (or an earlier start's) secret: the same shape, another MAC.
    const elsewhere = world([key]);
    const foreign = elsewhere.sessions.challenge(alice.id, key.signingKey.keyId, '127.0.0.1:8443');
    if (!foreign.ok) throw new Error(foreign.error.code);
    const forged = [tampered(3), tampered(10), tampered(bytes.length - 1), issued.challengeId.slice(0, -4), 'bogus', foreign.challengeId];
    const codes = forged.map((id) => {
      const r = w.sessions.open(id, signature);
      return r.ok ? 'opened' : r.error.code;
    });
    expect({ codes, lookups: w.lookups.count, awaits: forged.some((id) => w.sessions.awaitsKey(id)), consumed: w.sessions.consumedChallenges }).toEqual({
      codes: forged.map(() => 'AUTH_REQUIRED'),
      lookups: 0,
      awaits: false,
      consumed: 0,
    });
    expect(w.sessions.open(issued.challengeId, signature).ok).toBe(true);
    expect(w.lookups.count).toBeGreaterThan(0);
  });

  it('refuses an expired challenge before any key lookup, and a reused one', () => {
    const key = makeKey(alice);
    const w = world([key]);
    const late = signIn(w, key);
    w.clock.now += 60_000;
    const expired = w.sessions.open(late.issued.challengeId, late.signature);
    expect({ code: expired.ok ? 'opened' : expired.error.code, lookups: w.lookups.count }).toEqual({ code: 'AUTH_REQUIRED', lookups: 0 });
    const once = signIn(w, key);
    const badFirst = w.sessions.open(once.issued.challengeId, 'not-a-signature');
    // The first attempt spent it, though it failed: the right signature no longer opens it.
    const retried = w.sessions.open(once.issued.challengeId, once.signature);
    expect([badFirst, retried].map((r) => (r.ok ? 'opened' : r.error.code))).toEqual(['AUTH_REQUIRED', 'AUTH_REQUIRED']);
  });

  it('keeps the table of answered challenges at its bound under a flood, and still refuses a recent reuse', () => {
    const key = makeKey(alice);
    const w = world([key], { maxConsumedChallenges: 100 });
    // The flood: authentic challenges for made-up humans, fetched before the human signs in and
    // answered with junk afterwards; each answer is remembered, so the table fills.
    const flood = Array.from({ length: 1_000 }, (_, i) => {
      const r = w.sessions.challenge(`urn:missionweave:human:x-${i}`, 'urn:uuid:x', 'a');
      if (!r.ok) throw new Error(r.error.code);
      return r.challengeId;
    });
    w.clock.now += 1_000;
    const recent = signIn(w, key);
    expect(w.sessions.open(recent.issued.challengeId, recent.signature).ok).toBe(true);
    const sizes: number[] = [];
    for (const challengeId of flood) {
      expect(w.sessions.open(challengeId, 'junk').ok).toBe(false);
      sizes.push(w.sessions.consumedChallenges);
    }
    expect(Math.max(...sizes)).toBe(100);
    // Eviction takes the entry nearest its expiry (an earlier flood entry), never refuses: the
    // human's answered challenge is still remembered, and a real sign-in still works.
    const reuse = w.sessions.open(recent.issued.challengeId, recent.signature);
    expect({ code: reuse.ok ? 'opened' : reuse.error.code, consumed: w.sessions.consumedChallenges }).toEqual({ code: 'AUTH_REQUIRED', consumed: 100 });
    const during = signIn(w, key);
    expect(w.sessions.open(during.issued.challengeId, during.signature).ok).toBe(true);
    expect(w.sessions.consumedChallenges).toBe(100);
  });

  it('fits the longest identifiers into a challengeId the sign-in route accepts', () => {
    const w = world([]);
    const longest = '\u20ac'.repeat(MAX_IDENTIFIER_CHARS); // 3 UTF-8 bytes each, the most per UTF-16 unit
    const issued = w.sessions.challenge(longest, longest, longest);
    if (!issued.ok) throw new Error(issued.error.code);
    expect({ fits: issued.challengeId.length <= MAX_CHALLENGE_ID_CHARS, tight: issued.challengeId.length > MAX_CHALLENGE_ID_CHARS - 4 }).toEqual({ fits: true, tight: true });
    expect(issued.transcript).toMatchObject({ humanId: longest, keyId: longest, audience: longest });
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
