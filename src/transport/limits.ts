/**
 * Every limit of the WebSocket and HTTPS binding, in one place, with why it has its value.
 * Deployments and tests may override any of them.
 */

export interface TransportLimits {
  /** Largest WebSocket message or HTTP body. Large content travels as Artifacts (§17.4). */
  readonly maxPayloadBytes: number;
  /** A connection must finish HELLO within this time or it is closed. */
  readonly handshakeTimeoutMs: number;
  /** A server challenge is valid for this long, and for one response only. */
  readonly challengeTtlMs: number;
  /** A connection that sends nothing at all for this long is closed (clients PING). */
  readonly idleTimeoutMs: number;
  /** WebSocket-level ping interval, to detect dead peers behind quiet NATs. */
  readonly heartbeatIntervalMs: number;
  /** Lifetime of a session token; the connection closes when it ends and the client re-HELLOs. */
  readonly sessionTtlMs: number;
  /** Connections accepted from one remote address (10,000 agents on one test host need many). */
  readonly maxConnectionsPerAddress: number;
  readonly maxConnections: number;
  /** Groups one connection may subscribe to. */
  readonly maxSubscriptionsPerConnection: number;
  /** Commands one connection may have in flight; beyond it the answer is RATE_LIMITED. */
  readonly maxInFlightCommands: number;
  /** Events queued for one Group on one connection before that Group is paused (§17.3). */
  readonly groupQueueLimit: number;
  /** Bytes buffered in the socket before the connection stops draining its queues. */
  readonly socketHighWaterBytes: number;
  /** Events read per replay page. */
  readonly replayPageSize: number;
  /** Retry guidance sent with BACKPRESSURE; the Group resumes by itself after this. */
  readonly backpressureRetryMs: number;
  /**
   * Events a subscriber may ask to replay online; older positions get CURSOR_TOO_OLD with a
   * signed snapshot reference. Unbounded by default: an active Group keeps its whole history.
   */
  readonly onlineReplayWindow: number;
  /** Browser origins allowed to open a WebSocket; non-browser clients send no Origin. */
  readonly allowedOrigins: readonly string[];
}

export const DEFAULT_LIMITS: TransportLimits = {
  maxPayloadBytes: 256 * 1024,
  handshakeTimeoutMs: 10_000,
  challengeTtlMs: 30_000,
  idleTimeoutMs: 120_000,
  heartbeatIntervalMs: 30_000,
  sessionTtlMs: 60 * 60_000,
  maxConnectionsPerAddress: 16_384,
  maxConnections: 65_536,
  maxSubscriptionsPerConnection: 1_000,
  maxInFlightCommands: 256,
  groupQueueLimit: 2_000,
  socketHighWaterBytes: 1024 * 1024,
  replayPageSize: 500,
  backpressureRetryMs: 1_000,
  onlineReplayWindow: Number.POSITIVE_INFINITY,
  allowedOrigins: [],
};

/** WebSocket close codes: 4000–4499 invite a reconnect, 4500–4999 say do not retry as is. */
export const CLOSE = {
  shutdown: 4000,
  sessionExpired: 4001,
  idle: 4002,
  handshakeTimeout: 4003,
  /** The server could not complete a request (its database is away): try again later. */
  unavailable: 4004,
  authenticationFailed: 4500,
  sessionReplaced: 4501,
  protocolViolation: 4502,
  /** The Agent's card was revoked (or deprecated) or its session key revoked or expired: HELLO would fail too. */
  credentialsRevoked: 4503,
} as const;
