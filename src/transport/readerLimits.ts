/**
 * The limits of human sessions and of the read API (docs/human-api.md), each with why it has its
 * value. `TransportLimits` includes them, so deployments and tests override them like the others.
 * Every bound is in memory of one node. A bound on something that exists only after a valid
 * signature (a session) or a reader's token (a stream) refuses the next request at once with
 * RATE_LIMITED, which costs a map lookup, never a database read or a signature check. Sign-in
 * itself has no bound that refuses: a challenge stores nothing (`challengeCodec.ts`), and the
 * table of answered challenges evicts instead of refusing, so no outsider can lock a human out.
 */

import { maxChallengeIdChars } from '../app/humans/challengeCodec.js';

export interface ReaderLimits {
  /**
   * A human-session challenge is answered within this time or never: the console signs it at
   * once with a key it holds, so a minute is generous and keeps the table of open ones short.
   */
  readonly humanChallengeTtlMs: number;
  /**
   * A human session token lives this long; the console renews it with a new challenge first.
   * Short, because a bearer token copied out of a browser reads until it expires.
   */
  readonly humanSessionTtlMs: number;
  /**
   * Answered challenges remembered until their expiry, so that each opens at most one session
   * (`consumedChallenges.ts`, about 150 bytes each: some 15 MiB at most). Honest sign-ins are a
   * few a minute; when a flood of authentic challenges fills it, the entry nearest its expiry is
   * evicted rather than anyone refused: it expires within `humanChallengeTtlMs` anyway, and a
   * replay of it still needs the human's signature over that transcript.
   */
  readonly maxConsumedChallenges: number;
  /** Live sessions of one human: one per tab or device, with room for renewals overlapping. */
  readonly maxSessionsPerHuman: number;
  /** Live human sessions on the node. */
  readonly maxHumanSessions: number;
  /** Open event streams of one reader (a human or an Agent): one per open Group panel. */
  readonly maxStreamsPerReader: number;
  /**
   * Open event streams on the node: each holds a socket, a timer and a wake-up listener, so
   * this stays well below `maxHttpsConnectionsPerAddress` times a handful of addresses.
   */
  readonly maxStreams: number;
  /**
   * A comment line on every stream this often: it keeps proxies from closing a quiet stream,
   * and each one also re-reads the Group and re-checks the reader (a lost wake-up costs at most
   * this much latency, §17 "NOTIFY is a hint").
   */
  readonly streamHeartbeatMs: number;
  /**
   * Events one `/events` answer or one stream read carries: a page of signed Events of up to
   * 64 KiB each stays within tens of MiB, and the console pages on with `after`.
   */
  readonly maxEventsPerRead: number;
}

/** Longest `humanId`, `keyId` or `signature` accepted, and the longest `audience` kept. */
export const MAX_IDENTIFIER_CHARS = 1_024;
/**
 * Longest `challengeId` accepted: it carries `humanId`, `keyId` and `audience` (each at most
 * `MAX_IDENTIFIER_CHARS`) with its nonce, expiry and MAC, so it is exactly as long as that needs.
 */
export const MAX_CHALLENGE_ID_CHARS = maxChallengeIdChars(MAX_IDENTIFIER_CHARS);
/** A sign-in body is two strings, the longest a `challengeId` and a signature; 16 KiB holds them and little else. */
export const MAX_SIGN_IN_BODY_BYTES = 16 * 1024;
/**
 * Agents one `GET /v1/agents` answer lists (`agentDirectoryRoute.ts`): a picker's worth, about
 * 200 bytes each, so some 200 KiB at most; beyond it the answer says `truncated`. Agent Cards are
 * registered by the operator's Registry service, not by outsiders, yet the answer is bounded all the same.
 */
export const MAX_DIRECTORY_AGENTS = 1_000;
/** Events one `/events` answer carries when `limit` is not given: a screenful or two of history. */
export const DEFAULT_EVENTS_PER_READ = 200;

export const DEFAULT_READER_LIMITS: ReaderLimits = {
  humanChallengeTtlMs: 60_000,
  humanSessionTtlMs: 15 * 60_000,
  maxConsumedChallenges: 100_000,
  maxSessionsPerHuman: 16,
  maxHumanSessions: 10_000,
  maxStreamsPerReader: 16,
  maxStreams: 4_096,
  streamHeartbeatMs: 15_000,
  maxEventsPerRead: 500,
};
