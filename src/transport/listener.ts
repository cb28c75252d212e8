/**
 * The network face of one node: a TLS 1.3-only HTTPS server that upgrades `/v1/ws` to the
 * WebSocket binding and serves the HTTPS API, wired to delivery and cross-node wake-ups.
 */

import { createServer, type Server } from 'node:https';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { randomBytes } from 'node:crypto';
import type { GroupAccess } from '../app/groupAccess.js';
import type { GroupAuthority } from '../app/groupAuthority.js';
import { ClusteredHumanSessions, type HumanSessionService } from '../app/humans/clusteredHumanSessions.js';
import { HumanSessions } from '../app/humans/humanSessions.js';
import { affectedAgents } from '../app/registrySnapshot.js';
import type { Clock } from '../app/settings.js';
import { wireError } from '../app/wireError.js';
import { DeliveryHub } from '../delivery/deliveryHub.js';
import { Notifier } from '../delivery/notifier.js';
import type { Principal } from '../protocol/principal.js';
import type { SigningKey } from '../protocol/signing/signDocument.js';
import type { JsonObject } from '../protocol/strictJson.js';
import { AddressSlots } from './addressSlots.js';
import type { ClusterLink } from './clusterLink.js';
import { StreamSlots } from './streamSlots.js';
import { Connection } from './connection.js';
import { CORE_ROUTES } from './coreRoutes.js';
import { handleHttp } from './httpApi.js';
import { CLOSE, DEFAULT_LIMITS, type TransportLimits } from './limits.js';
import type { Route } from './routeTable.js';
import { SessionRegistry } from './sessions.js';
import { watchListener } from './listenerMetrics.js';
import type { FrameConnection, TransportContext } from './transportContext.js';

export interface ListenerOptions {
  readonly host: string;
  readonly port: number;
  readonly tls: { readonly cert: string | Buffer; readonly key: string | Buffer };
  readonly limits?: Partial<TransportLimits>;
  /** For the LISTEN connection of cross-node wake-ups. */
  readonly databaseUrl: string;
  readonly groups: GroupAccess;
  readonly authority: GroupAuthority;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly service: { readonly principal: Principal; readonly key: SigningKey };
  /**
   * This process's link to the others when the node runs several behind one listener
   * (src/cli/serveCluster.ts), with the human-session challenge secret they share.
   */
  readonly cluster?: { readonly link: ClusterLink; readonly humanSecret: Buffer };
  /** The HTTPS routes of the node's Extension Profiles' read sides, served after the core's. */
  readonly routes?: readonly Route[];
}

export interface RunningListener {
  /** The WebSocket endpoint a client connects to, path included (`wss://host:port/v1/ws`). */
  readonly url: string;
  /** The origin of the HTTPS endpoints (`https://host:port`). */
  readonly httpsUrl: string;
  /**
   * Serves `tls` to every handshake from now on; open sessions keep theirs. Throws, changing
   * nothing, when the key does not match the certificate or either does not parse.
   */
  useCertificate(tls: ListenerOptions['tls']): void;
  readonly port: number;
  readonly sessions: SessionRegistry;
  readonly hub: DeliveryHub;
  /** The latest Presence Record each Agent sent on a PING (§6.2). */
  readonly presence: ReadonlyMap<string, JsonObject>;
  close(): Promise<void>;
}

const PATHS = new Set(['/v1/ws', '/ws']);

/** One process's human sessions, or the node's when it runs several processes (clusteredHumanSessions.ts). */
function humanSessions(limits: TransportLimits, options: ListenerOptions): HumanSessionService {
  const deps = { nowMillis: () => options.clock.nowMillis(), randomBytes, registry: () => options.authority.registry.current };
  if (options.cluster === undefined) return new HumanSessions(limits, deps);
  return new ClusteredHumanSessions(limits, { ...deps, secret: options.cluster.humanSecret }, options.cluster.link.humanTable());
}

export async function startListener(options: ListenerOptions): Promise<RunningListener> {
  const limits: TransportLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const { groups, logger } = options;
  const routes: readonly Route[] = [...CORE_ROUTES, ...(options.routes ?? [])];
  const sessions = new SessionRegistry(options.cluster?.link);
  const connections = new Set<FrameConnection>();
  const webSocketSlots = new AddressSlots(limits.maxConnectionsPerAddress);
  const httpsSlots = new AddressSlots(limits.maxHttpsConnectionsPerAddress);
  /** The HTTPS slot each open TLS connection holds until it closes or becomes a WebSocket. */
  const httpsSlotOf = new WeakMap<Socket, () => void>();
  const hub: DeliveryHub = new DeliveryHub({
    groups,
    kinds: options.authority.kinds,
    logger,
    replayPageSize: limits.replayPageSize,
    retryAfterMs: limits.backpressureRetryMs,
    onMembershipLost: (subscription, error) => {
      const connection = [...connections].find((c) => c.subscriptions.get(subscription.groupId) === subscription);
      connection?.subscriptions.delete(subscription.groupId);
      connection?.fail(error);
    },
    onPaused: (subscription) => {
      const connection = [...connections].find((c) => c.subscriptions.get(subscription.groupId) === subscription);
      connection?.fail(wireError('BACKPRESSURE', 'this Group is paused until the connection drains', {
        groupId: subscription.groupId,
        retryAfterMs: limits.backpressureRetryMs,
        details: { resumeAfterSequence: subscription.position },
      }));
    },
  });
  const context: TransportContext = {
    authority: options.authority,
    hub,
    sessions,
    humans: humanSessions(limits, options),
    ...(options.cluster === undefined ? {} : { cluster: options.cluster.link }),
    streams: new StreamSlots(limits.maxStreamsPerReader, limits.maxStreams),
    limits,
    logger,
    clock: options.clock,
    groups,
    service: options.service,
    presence: new Map<string, JsonObject>(),
    connectionClosed(connection) {
      // Its address slot went back when its socket closed (AddressSlots.holdWhileOpen).
      connections.delete(connection);
    },
    async cursorTooOld(connection, groupId, frameId) {
      const reference = await groups.snapshotReference(groupId, connection.agentId, options.clock.nowMillis(), Math.min(limits.onlineReplayWindow, 1_000));
      connection.fail(wireError('CURSOR_TOO_OLD', 'the requested position is no longer online; restore the snapshot', {
        groupId,
        snapshotArtifactHash: reference.hash,
        details: { throughSequence: reference.throughSequence, snapshotUrl: `/v1/groups/${encodeURIComponent(groupId)}/snapshots/${reference.hash}` },
      }), frameId, false);
    },
  };
  options.authority.onCommitted((events) => hub.committed(events));
  const unwatch = watchListener(options.authority.metrics, sessions, connections, hub, context);
  options.authority.registry.onChange((previous, next) => sessions.closeRevoked(next, options.clock.nowMillis(), affectedAgents(previous, next)));
  const notifier = new Notifier(options.databaseUrl, groups, {
    groupAdvanced: (groupId, sequence) => hub.wake(groupId, sequence),
    sessionOpened: (agentId, epoch) => sessions.fence(agentId, epoch),
    registryChanged: (revision) => {
      if (revision === options.authority.registry.current.revision) return undefined;
      return options.authority.refreshRegistry().catch((error: unknown) => logger.warn({ err: error }, 'Registry refresh failed'));
    },
    watched: () => hub.heads(),
    polled: () => options.authority.refreshRegistry().catch((error: unknown) => logger.debug({ err: error }, 'Registry poll failed')),
  }, logger);
  await notifier.start();

  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxPayloadBytes, perMessageDeflate: false, clientTracking: false });
  const server: Server = createServer({
    ...secureContextOptions(options.tls),
    // Node's defaults (120 s handshake, 60 s headers, 300 s request) let a silent or trickling
    // client hold a socket for minutes; the documented limits are seconds.
    handshakeTimeout: limits.tlsHandshakeTimeoutMs,
    headersTimeout: limits.requestHeadersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // Node checks both timeouts on this period (30 s by default), so it bounds how late they fire.
    connectionsCheckingInterval: Math.max(10, Math.floor(Math.min(limits.requestHeadersTimeoutMs, limits.requestTimeoutMs) / 10)),
  }, (request, response) => {
    void handleHttp(context, routes, request, response);
  });
  server.keepAliveTimeout = limits.httpKeepAliveTimeoutMs;
  server.on('secureConnection', (socket: Socket) => {
    const release = httpsSlots.holdWhileOpen(socket.remoteAddress ?? 'unknown', socket);
    // Refused after TLS, before any request is read: the cheapest point that knows the address.
    if (release === undefined) socket.destroy();
    else httpsSlotOf.set(socket, release);
  });
  server.on('upgrade', (request, socket: Socket, head) => {
    if (socket.destroyed) return undefined;
    const address = socket.remoteAddress ?? 'unknown';
    const origin = request.headers.origin;
    const path = new URL(request.url ?? '/', 'https://localhost').pathname;
    const refuse = (status: string): void => {
      // Node hands the socket over without its error listener; a reset must not crash the node.
      socket.on('error', () => socket.destroy());
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (!PATHS.has(path)) return refuse('404 Not Found');
    if (origin !== undefined && !limits.allowedOrigins.includes(origin)) return refuse('403 Forbidden');
    if (connections.size >= limits.maxConnections) return refuse('503 Service Unavailable');
    // The WebSocket slot is held while the socket is open, so an upgrade that `ws` refuses (no
    // Sec-WebSocket-Key, say) gives it back when its socket closes, like any other.
    if (webSocketSlots.holdWhileOpen(address, socket) === undefined) return refuse('503 Service Unavailable');
    httpsSlotOf.get(socket)?.();
    wss.handleUpgrade(request, socket, head, (ws) => void connections.add(new Connection(ws, address, context)));
    return undefined;
  });
  // Failed handshakes are what scanners and hostile clients cause: one line, no stack.
  server.on('tlsClientError', (error: NodeJS.ErrnoException, socket: Socket) => logger.debug({ code: error.code, reason: error.message, address: socket.remoteAddress }, 'TLS handshake refused'));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `wss://${host}:${port}/v1/ws`,
    httpsUrl: `https://${host}:${port}`,
    port,
    sessions,
    hub,
    useCertificate(tls) {
      // Built first so that a bad pair throws here and the server keeps the context it has.
      createSecureContext(secureContextOptions(tls));
      server.setSecureContext(secureContextOptions(tls));
    },
    presence: context.presence,
    async close() {
      unwatch();
      for (const connection of connections) connection.close(CLOSE.shutdown, 'server shutting down');
      await notifier.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}

/** The TLS settings of every handshake: the certificate, its key, and TLS 1.3 only. */
function secureContextOptions(tls: ListenerOptions['tls']): SecureContextOptions {
  return { cert: tls.cert, key: tls.key, minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3' };
}
