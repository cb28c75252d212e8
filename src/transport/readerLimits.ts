/**
 * The limits of human sessions and of the read API (docs/human-api.md), each with why it has its
 * value. `TransportLimits` includes them, so deployments and tests override them like the others.
 * Every bound is in memory of one node; when one is full the next request is refused at once
 * with RATE_LIMITED, which costs a map lookup, never a database read or a signature check.
 */

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
   * Open challenges naming one human: a console needs one at a time, a few tabs a few. The
   * human ID is claimed, not proven, so `maxHumanChallenges` is what really bounds memory.
   */
  readonly maxChallengesPerHuman: number;
  /** Open challenges on the node: each is a few hundred bytes and lives a minute. */
  readonly maxHumanChallenges: number;
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

/** A sign-in body is two identifiers; 4 KiB leaves room for long URNs and nothing else. */
export const MAX_SIGN_IN_BODY_BYTES = 4 * 1024;
/** Longest `humanId`, `keyId`, `challengeId` or `signature` accepted, and the longest `audience` kept. */
export const MAX_IDENTIFIER_CHARS = 1_024;
/** Events one `/events` answer carries when `limit` is not given: a screenful or two of history. */
export const DEFAULT_EVENTS_PER_READ = 200;

export const DEFAULT_READER_LIMITS: ReaderLimits = {
  humanChallengeTtlMs: 60_000,
  humanSessionTtlMs: 15 * 60_000,
  maxChallengesPerHuman: 8,
  maxHumanChallenges: 10_000,
  maxSessionsPerHuman: 16,
  maxHumanSessions: 10_000,
  maxStreamsPerReader: 16,
  maxStreams: 4_096,
  streamHeartbeatMs: 15_000,
  maxEventsPerRead: 500,
};
