/**
 * Every limit of the WebSocket and HTTPS binding, in one place, with why it has its value.
 * Deployments and tests may override any of them. Human sessions and the read API have theirs
 * in `readerLimits.ts`.
 */

import { DEFAULT_READER_LIMITS, type ReaderLimits } from './readerLimits.js';

export interface TransportLimits extends ReaderLimits {
  /** Largest WebSocket message or HTTP body. Large content travels as Artifacts (§17.4). */
  readonly maxPayloadBytes: number;
  /** A connection must finish HELLO within this time or it is closed. */
  readonly handshakeTimeoutMs: number;
  /** A server challenge is valid for this long, and for one response only. */
  readonly challengeTtlMs: number;
  /**
   * An authenticated connection that sends no frame for this long is closed (clients PING).
   * Pongs to the server's heartbeat do not count: they prove the peer alive, not active.
   */
  readonly idleTimeoutMs: number;
  /** WebSocket-level ping interval, to detect dead peers behind quiet NATs. */
  readonly heartbeatIntervalMs: number;
  /** Lifetime of a session token; the connection closes when it ends and the client re-HELLOs. */
  readonly sessionTtlMs: number;
  /**
   * WebSocket connections open from one remote address (10,000 agents on one test host need
   * many). Counted from the upgrade until the socket closes, never for a refused upgrade.
   */
  readonly maxConnectionsPerAddress: number;
  /**
   * TLS connections from one address that are not WebSockets: HTTPS requests, keep-alive and
   * upgrades not yet answered. Humans and services need a handful; room is left for a NAT and for
   * agents connecting in bursts. Beyond it a new connection is closed right after TLS.
   */
  readonly maxHttpsConnectionsPerAddress: number;
  /** A TLS handshake (from the TCP accept) must finish within this time, or the socket is closed. */
  readonly tlsHandshakeTimeoutMs: number;
  /**
   * A connection must send a request's headers within this time, counted from the connection or
   * from the previous response; otherwise it is answered 408 and closed (slow-header attacks).
   */
  readonly requestHeadersTimeoutMs: number;
  /**
   * A whole request, body included, must arrive within this time (256 KiB needs 26 KiB/s);
   * otherwise it is answered 408 and closed (slow-body attacks).
   */
  readonly requestTimeoutMs: number;
  /** A keep-alive HTTPS connection waits this long for its next request before it is closed. */
  readonly httpKeepAliveTimeoutMs: number;
  readonly maxConnections: number;
  /** Groups one connection may subscribe to. */
  readonly maxSubscriptionsPerConnection: number;
  /** Commands one connection may have in flight; beyond it the answer is RATE_LIMITED. */
  readonly maxInFlightCommands: number;
  /** Events queued for one Group on one connection before that Group is paused (§17.3). */
  readonly groupQueueLimit: number;
  /** Bytes buffered in the socket before the connection stops draining its queues. */
  readonly socketHighWaterBytes: number;
  /**
   * Bytes of direct answers (Command results, ERROR, PING replies) queued for a client that does
   * not read. Answers cannot be paused like a Group, so past this the client is a slow consumer
   * and the connection is closed with `CLOSE.slowConsumer` (as ws and NATS do); it holds a full
   * pipeline of in-flight Commands with large Events (256 × 64 KiB).
   */
  readonly maxQueuedReplyBytes: number;
  /**
   * Bytes of Group Event frames queued on one connection, all its Groups together: counted in
   * bytes, since `groupQueueLimit` counts Events and an Event may be large. The Group whose Event
   * crosses it is paused with BACKPRESSURE (§17.3) and resumes by replay once the socket drains.
   */
  readonly maxQueuedEventBytes: number;
  /**
   * SUBSCRIBE, ACK and PING frames waiting behind earlier ones on one connection (they run one
   * at a time, in order). Beyond it a frame is refused at once with RATE_LIMITED, so a flood
   * costs the server one short ERROR each, not parked work. Far above an honest client's burst.
   */
  readonly maxQueuedControlFrames: number;
  /** Bytes of those waiting frames: 16 frames of the largest size. */
  readonly maxQueuedControlBytes: number;
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
  maxHttpsConnectionsPerAddress: 1_024,
  tlsHandshakeTimeoutMs: 10_000,
  requestHeadersTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  httpKeepAliveTimeoutMs: 5_000,
  maxConnections: 65_536,
  maxSubscriptionsPerConnection: 1_000,
  maxInFlightCommands: 256,
  groupQueueLimit: 2_000,
  socketHighWaterBytes: 1024 * 1024,
  maxQueuedReplyBytes: 16 * 1024 * 1024,
  maxQueuedEventBytes: 16 * 1024 * 1024,
  maxQueuedControlFrames: 1_024,
  maxQueuedControlBytes: 16 * 256 * 1024,
  replayPageSize: 500,
  backpressureRetryMs: 1_000,
  onlineReplayWindow: Number.POSITIVE_INFINITY,
  allowedOrigins: [],
  ...DEFAULT_READER_LIMITS,
};

/** WebSocket close codes: 4000–4499 invite a reconnect, 4500–4999 say do not retry as is. */
export const CLOSE = {
  shutdown: 4000,
  sessionExpired: 4001,
  idle: 4002,
  handshakeTimeout: 4003,
  /** The server could not complete a request (its database is away): try again later. */
  unavailable: 4004,
  /**
   * A slow consumer: its unread answers passed `maxQueuedReplyBytes` (the reason says
   * BACKPRESSURE, §19). Reconnect, read faster, and resume from the Cursors.
   */
  slowConsumer: 4005,
  authenticationFailed: 4500,
  sessionReplaced: 4501,
  protocolViolation: 4502,
  /** The Agent's card was revoked (or deprecated) or its session key revoked or expired: HELLO would fail too. */
  credentialsRevoked: 4503,
} as const;

/**
 * One process's share of the per-address and per-node caps when `missionweave serve --processes
 * n` runs n processes behind one listener (src/cli/serveCluster.ts). These caps count sockets,
 * which only the process holding them can release, so each process gets 1/n of each (rounded
 * down, at least one): an address or a reader never holds more than the node's cap in all. The
 * primary hands connections round-robin, so the shares fill evenly; an address may be refused a
 * little below the cap when they do not. Human sessions and answered challenges are not split:
 * the primary keeps them whole (src/cli/clusterTables.ts).
 */
export function shareOfLimits(limits: TransportLimits, processes: number): TransportLimits {
  const share = (cap: number): number => Math.max(1, Math.floor(cap / processes));
  return {
    ...limits,
    maxConnectionsPerAddress: share(limits.maxConnectionsPerAddress),
    maxHttpsConnectionsPerAddress: share(limits.maxHttpsConnectionsPerAddress),
    maxConnections: share(limits.maxConnections),
    maxStreamsPerReader: share(limits.maxStreamsPerReader),
    maxStreams: share(limits.maxStreams),
  };
}
