/**
 * Human sessions (docs/human-api.md): HELLO is Agent-only (§6.3), so a human proves the key the
 * Registry binds to them the same way over HTTPS — a fresh, single-use server challenge whose
 * JCS bytes they sign with Ed25519 — and gets a short-lived bearer token that authorizes reads
 * only. Commands stay individually signed.
 *
 * The server verifies against the transcript it kept, never against anything echoed back. An
 * unknown human or key gets a challenge of the same shape that can never verify, so the
 * endpoint does not tell who is registered; every failure to open a session is the same
 * AUTH_REQUIRED. A session lasts while its key stays valid: a key revoked or expired in the
 * Registry ends it at its next use. Time and randomness come in, so a unit test drives expiry.
 */

import { decodeBase64url, encodeBase64url } from '../../protocol/base64url.js';
import { isCanonicalScalar, verifyEd25519 } from '../../protocol/ed25519.js';
import { canonicalBytes } from '../../protocol/jcs.js';
import type { Principal } from '../../protocol/principal.js';
import { keyValidAt } from '../../protocol/signing/keyRegistry.js';
import { instantFromMillis } from '../../protocol/timestamp.js';
import type { RegistrySnapshot } from '../registryCache.js';
import { wireError, type WireError } from '../wireError.js';
import { ExpiringEntries, type AddResult } from './expiringEntries.js';

export const HUMAN_SESSION_TRANSCRIPT_TYPE = 'missionweave.human-session.v1';

export interface HumanSessionLimits {
  readonly humanChallengeTtlMs: number;
  readonly humanSessionTtlMs: number;
  readonly maxChallengesPerHuman: number;
  readonly maxHumanChallenges: number;
  readonly maxSessionsPerHuman: number;
  readonly maxHumanSessions: number;
}

export interface HumanSessionDeps {
  readonly nowMillis: () => number;
  /** `n` cryptographically random bytes. */
  readonly randomBytes: (n: number) => Buffer;
  /** The Registry as this node knows it now. */
  readonly registry: () => RegistrySnapshot;
}

export interface HumanSessionTranscript {
  readonly type: typeof HUMAN_SESSION_TRANSCRIPT_TYPE;
  readonly humanId: string;
  readonly keyId: string;
  readonly challenge: string;
  readonly audience: string;
  readonly expiresAt: string;
}

interface PendingChallenge {
  readonly owner: string;
  readonly expiresAtMillis: number;
  readonly transcript: HumanSessionTranscript;
}

export interface HumanSession {
  readonly owner: string;
  readonly expiresAtMillis: number;
  readonly humanId: string;
  readonly keyId: string;
}

export type ChallengeResult =
  | { readonly ok: true; readonly challengeId: string; readonly transcript: HumanSessionTranscript; readonly expiresAt: string }
  | { readonly ok: false; readonly error: WireError };

export type OpenResult =
  | { readonly ok: true; readonly token: string; readonly humanId: string; readonly keyId: string; readonly expiresAt: string }
  | { readonly ok: false; readonly error: WireError };

const NOT_AUTHENTICATED = 'the challenge response does not authenticate a human session';

function boundRefusal(result: AddResult, what: string, retryAfterMs: number): WireError {
  const scope = result === 'owner-full' ? 'for this human' : 'on this node';
  return wireError('RATE_LIMITED', `too many open ${what} ${scope}`, { retryAfterMs });
}

export class HumanSessions {
  private readonly challenges: ExpiringEntries<PendingChallenge>;
  private readonly sessions: ExpiringEntries<HumanSession>;

  constructor(
    private readonly limits: HumanSessionLimits,
    private readonly deps: HumanSessionDeps,
  ) {
    this.challenges = new ExpiringEntries(limits.maxChallengesPerHuman, limits.maxHumanChallenges);
    this.sessions = new ExpiringEntries(limits.maxSessionsPerHuman, limits.maxHumanSessions);
  }

  /** A fresh challenge for `humanId` and `keyId`, whoever they are; `audience` names this server. */
  challenge(humanId: string, keyId: string, audience: string): ChallengeResult {
    const now = this.deps.nowMillis();
    const expiresAtMillis = now + this.limits.humanChallengeTtlMs;
    const expiresAt = new Date(expiresAtMillis).toISOString();
    const transcript: HumanSessionTranscript = {
      type: HUMAN_SESSION_TRANSCRIPT_TYPE,
      humanId,
      keyId,
      challenge: encodeBase64url(this.deps.randomBytes(32)),
      audience,
      expiresAt,
    };
    const challengeId = encodeBase64url(this.deps.randomBytes(18));
    const added = this.challenges.add(challengeId, { owner: humanId, expiresAtMillis, transcript }, now);
    if (added !== 'added') return { ok: false, error: boundRefusal(added, 'challenges', this.limits.humanChallengeTtlMs) };
    return { ok: true, challengeId, transcript, expiresAt };
  }

  /**
   * Whether a live challenge names a key this node's Registry does not yet bind to its human: one
   * enrolled a moment ago elsewhere, worth a Registry refresh before `open`. False for an unknown
   * challenge, so a bogus request never costs a database read.
   */
  awaitsKey(challengeId: string): boolean {
    const now = this.deps.nowMillis();
    const pending = this.challenges.get(challengeId, now);
    return pending !== undefined && !this.keyValid(pending.transcript.humanId, pending.transcript.keyId, now);
  }

  /** Opens a session when `signature` signs the challenge's transcript with a key valid now. */
  open(challengeId: string, signature: string): OpenResult {
    const now = this.deps.nowMillis();
    // Single use: whatever the answer, the challenge is gone.
    const pending = this.challenges.take(challengeId, now);
    if (pending === undefined || !this.verifies(pending.transcript, signature, now)) {
      return { ok: false, error: wireError('AUTH_REQUIRED', NOT_AUTHENTICATED) };
    }
    const { humanId, keyId } = pending.transcript;
    const token = encodeBase64url(this.deps.randomBytes(32));
    const expiresAtMillis = now + this.limits.humanSessionTtlMs;
    const added = this.sessions.add(token, { owner: humanId, expiresAtMillis, humanId, keyId }, now);
    if (added !== 'added') return { ok: false, error: boundRefusal(added, 'sessions', this.limits.humanSessionTtlMs) };
    return { ok: true, token, humanId, keyId, expiresAt: new Date(expiresAtMillis).toISOString() };
  }

  /** The human a token authenticates now, or undefined (unknown, expired, ended, key no longer valid). */
  principalOf(token: string): Principal | undefined {
    const now = this.deps.nowMillis();
    const session = this.sessions.get(token, now);
    if (session === undefined) return undefined;
    if (!this.keyValid(session.humanId, session.keyId, now)) {
      this.sessions.delete(token);
      return undefined;
    }
    return { type: 'human', id: session.humanId };
  }

  /** Sessions held in memory now (an expired one counts until its table is next pruned). */
  get openSessions(): number {
    return this.sessions.size;
  }

  /** Ends the session at once; false when the token names none. */
  end(token: string): boolean {
    return this.sessions.delete(token);
  }

  private keyValid(humanId: string, keyId: string, now: number): boolean {
    const key = this.deps.registry().registry.resolve(keyId);
    return key !== undefined && key.principal.type === 'human' && key.principal.id === humanId && keyValidAt(key, instantFromMillis(now));
  }

  private verifies(transcript: HumanSessionTranscript, signature: string, now: number): boolean {
    if (!this.keyValid(transcript.humanId, transcript.keyId, now)) return false;
    const key = this.deps.registry().registry.resolve(transcript.keyId);
    const bytes = decodeBase64url(signature);
    if (key === undefined || bytes === null || bytes.length !== 64 || !isCanonicalScalar(bytes.subarray(32))) return false;
    return verifyEd25519(key.keyObject, canonicalBytes(transcript), bytes);
  }
}
