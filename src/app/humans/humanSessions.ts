/**
 * Human sessions (docs/human-api.md): HELLO is Agent-only (§6.3), so a human proves the key the
 * Registry binds to them the same way over HTTPS — a fresh, single-use server challenge whose
 * JCS bytes they sign with Ed25519 — and gets a short-lived bearer token that authorizes reads
 * only. Commands stay individually signed.
 *
 * A challenge is stateless (`challengeCodec.ts`): its id carries the transcript's fields under
 * this node's HMAC, so issuing one stores nothing and no flood of challenges locks a human out.
 * The server verifies against the transcript it rebuilds from those authenticated fields, never
 * against anything else echoed back. `open` refuses in cost order: MAC and expiry (a hash), then
 * reuse (`consumedChallenges.ts`, recorded for every authentic unexpired attempt), then the key
 * in the Registry, and only then an Ed25519 verification. An unknown human or key gets a challenge
 * of the same shape that can never verify, so the endpoint does not tell who is registered; every
 * failure to open a session is the same AUTH_REQUIRED. A session lasts while its key stays valid:
 * a key revoked or expired in the Registry ends it at its next use. Time and randomness come in,
 * so a unit test drives expiry.
 */

import { decodeBase64url, encodeBase64url } from '../../protocol/base64url.js';
import { isCanonicalScalar, verifyEd25519 } from '../../protocol/ed25519.js';
import { canonicalBytes } from '../../protocol/jcs.js';
import type { Principal } from '../../protocol/principal.js';
import { keyValidAt } from '../../protocol/signing/keyRegistry.js';
import { instantFromMillis } from '../../protocol/timestamp.js';
import type { RegistrySnapshot } from '../registrySnapshot.js';
import { wireError, type WireError } from '../wireError.js';
import { CHALLENGE_NONCE_BYTES, decodeChallengeId, encodeChallengeId, type ChallengeFields } from './challengeCodec.js';
import { ConsumedChallenges } from './consumedChallenges.js';
import { ExpiringEntries, type AddResult } from './expiringEntries.js';

export const HUMAN_SESSION_TRANSCRIPT_TYPE = 'missionweave.human-session.v1';

export interface HumanSessionLimits {
  readonly humanChallengeTtlMs: number;
  readonly humanSessionTtlMs: number;
  readonly maxConsumedChallenges: number;
  readonly maxSessionsPerHuman: number;
  readonly maxHumanSessions: number;
}

export interface HumanSessionDeps {
  readonly nowMillis: () => number;
  /** `n` cryptographically random bytes (the challenge MAC secret, nonces, tokens). */
  readonly randomBytes: (n: number) => Buffer;
  /** The Registry as this node knows it now. */
  readonly registry: () => RegistrySnapshot;
  /**
   * The challenge MAC secret, when the processes of one node share it (clusteredHumanSessions.ts);
   * otherwise made here from `randomBytes`.
   */
  readonly secret?: Buffer;
}

export interface HumanSessionTranscript {
  readonly type: typeof HUMAN_SESSION_TRANSCRIPT_TYPE;
  readonly humanId: string;
  readonly keyId: string;
  readonly challenge: string;
  readonly audience: string;
  readonly expiresAt: string;
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

export const NOT_AUTHENTICATED = 'the challenge response does not authenticate a human session';

export function transcriptOf(fields: ChallengeFields): HumanSessionTranscript {
  const { humanId, keyId, nonce, audience, expiresAtMillis } = fields;
  return { type: HUMAN_SESSION_TRANSCRIPT_TYPE, humanId, keyId, challenge: nonce, audience, expiresAt: new Date(expiresAtMillis).toISOString() };
}

/** The string as its UTF-8 bytes give it back (a lone surrogate becomes U+FFFD), as the challengeId keeps it. */
function asUtf8(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** The answer to a sign-in once its session was offered to the session table (local or node-wide). */
export function openResultOf(added: AddResult, session: HumanSession, token: string, limits: HumanSessionLimits): OpenResult {
  if (added !== 'added') {
    const scope = added === 'owner-full' ? 'for this human' : 'on this node';
    return { ok: false, error: wireError('RATE_LIMITED', `too many open sessions ${scope}`, { retryAfterMs: limits.humanSessionTtlMs }) };
  }
  return { ok: true, token, humanId: session.humanId, keyId: session.keyId, expiresAt: new Date(session.expiresAtMillis).toISOString() };
}

export class HumanSessions {
  private readonly secret: Buffer;
  private readonly consumed: ConsumedChallenges;
  private readonly sessions: ExpiringEntries<HumanSession>;

  constructor(
    private readonly limits: HumanSessionLimits,
    private readonly deps: HumanSessionDeps,
  ) {
    // Per node and per start, never stored: a restart or another node answers AUTH_REQUIRED.
    this.secret = deps.secret ?? deps.randomBytes(32);
    this.consumed = new ConsumedChallenges(limits.maxConsumedChallenges);
    this.sessions = new ExpiringEntries(limits.maxSessionsPerHuman, limits.maxHumanSessions);
  }

  /**
   * A fresh challenge for `humanId` and `keyId`, whoever they are; `audience` names this server.
   * Stores nothing, so it is never refused.
   */
  challenge(humanId: string, keyId: string, audience: string): ChallengeResult {
    const fields: ChallengeFields = {
      expiresAtMillis: this.deps.nowMillis() + this.limits.humanChallengeTtlMs,
      nonce: encodeBase64url(this.deps.randomBytes(CHALLENGE_NONCE_BYTES)),
      humanId: asUtf8(humanId),
      keyId: asUtf8(keyId),
      audience: asUtf8(audience),
    };
    const transcript = transcriptOf(fields);
    return { ok: true, challengeId: encodeChallengeId(this.secret, fields), transcript, expiresAt: transcript.expiresAt };
  }

  /** Challenges answered and remembered now, so that none is used twice. */
  get consumedChallenges(): number {
    return this.consumed.size;
  }

  /** The fields of an authentic challengeId that has not expired at `now`. */
  live(challengeId: string, now: number): ChallengeFields | undefined {
    const fields = decodeChallengeId(this.secret, challengeId);
    return fields !== undefined && fields.expiresAtMillis > now ? fields : undefined;
  }

  /**
   * Whether a live challenge names a key this node's Registry does not yet bind to its human: one
   * enrolled a moment ago elsewhere, worth a Registry refresh before `open`. False for an unknown
   * forged, expired or already answered challenge, so a bogus request never costs a database read
   * and each refresh costs its requester a fresh challenge.
   */
  awaitsKey(challengeId: string): boolean {
    const now = this.deps.nowMillis();
    const fields = this.live(challengeId, now);
    return fields !== undefined && !this.consumed.has(fields.nonce, now) && !this.keyValid(fields.humanId, fields.keyId, now);
  }

  /** Opens a session when `signature` signs the challenge's transcript with a key valid now. */
  open(challengeId: string, signature: string): OpenResult {
    const now = this.deps.nowMillis();
    const fields = this.live(challengeId, now);
    // Single use: whatever the answer, an authentic challenge is spent by its first attempt.
    if (fields === undefined || !this.consumed.consume(fields.nonce, fields.expiresAtMillis, now) || !this.verifies(transcriptOf(fields), signature, now)) {
      return { ok: false, error: wireError('AUTH_REQUIRED', NOT_AUTHENTICATED) };
    }
    const { humanId, keyId } = fields;
    const token = encodeBase64url(this.deps.randomBytes(32));
    const expiresAtMillis = now + this.limits.humanSessionTtlMs;
    const session = { owner: humanId, expiresAtMillis, humanId, keyId };
    return openResultOf(this.sessions.add(token, session, now), session, token, this.limits);
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

  /** Whether the Registry binds `keyId` to human `humanId`, valid at `now`. */
  keyValid(humanId: string, keyId: string, now: number): boolean {
    const key = this.deps.registry().registry.resolve(keyId);
    return key !== undefined && key.principal.type === 'human' && key.principal.id === humanId && keyValidAt(key, instantFromMillis(now));
  }

  /** Whether `signature` signs the transcript with its human's key, valid at `now`. */
  verifies(transcript: HumanSessionTranscript, signature: string, now: number): boolean {
    if (!this.keyValid(transcript.humanId, transcript.keyId, now)) return false;
    const key = this.deps.registry().registry.resolve(transcript.keyId);
    const bytes = decodeBase64url(signature);
    if (key === undefined || bytes === null || bytes.length !== 64 || !isCanonicalScalar(bytes.subarray(32))) return false;
    return verifyEd25519(key.keyObject, canonicalBytes(transcript), bytes);
  }
}
