/**
 * What a connection needs from the rest of the server, and what the frame handlers see of a
 * connection. Both live here, below `connection.ts` and the handlers it dispatches to, so that
 * no two transport modules import each other.
 */

import type { Logger } from 'pino';
import type { GroupAccess } from '../app/groupAccess.js';
import type { GroupAuthority } from '../app/groupAuthority.js';
import type { HumanSessionService } from '../app/humans/clusteredHumanSessions.js';
import type { Clock } from '../app/settings.js';
import type { WireError } from '../app/wireError.js';
import type { DeliveryHub } from '../delivery/deliveryHub.js';
import type { Outbox } from '../delivery/outbox.js';
import type { Subscription } from '../delivery/subscription.js';
import type { Principal } from '../protocol/principal.js';
import type { SigningKey } from '../protocol/signing/signDocument.js';
import type { JsonObject } from '../protocol/strictJson.js';
import type { ClusterLink } from './clusterLink.js';
import type { PendingChallenge } from './hello.js';
import type { TransportLimits } from './limits.js';
import type { SessionRegistry } from './sessions.js';
import type { StreamSlots } from './streamSlots.js';

export type ConnectionState = 'awaiting_init' | 'awaiting_response' | 'open' | 'closing';

/** One WebSocket connection as the HELLO and frame handlers use it (`Connection` is the one). */
export interface FrameConnection {
  state: ConnectionState;
  readonly hello: { pending?: PendingChallenge };
  readonly address: string;
  readonly context: TransportContext;
  agentId: string;
  keyId: string;
  sessionEpoch: number;
  sessionToken: string;
  /** COMMAND frames being processed now, bounded by `maxInFlightCommands`. */
  inFlight: number;
  readonly outbox: Outbox;
  readonly subscriptions: Map<string, Subscription>;
  now(): string;
  /** Sends an ERROR frame; a fatal one also closes the connection. */
  fail(error: WireError, relatedFrameId?: string, fatal?: boolean, closeCode?: number): void;
  sendEvents(events: readonly { eventId: string; text: string }[]): void;
  startSessionExpiry(expiresAtMillis: number): void;
  /** Session `currentEpoch` replaced this one (§6.3). */
  fence(currentEpoch: number): void;
  close(code: number, reason: string): void;
}

export interface TransportContext {
  readonly authority: GroupAuthority;
  /** Authorized Group reads, snapshots and Cursors. */
  readonly groups: GroupAccess;
  readonly hub: DeliveryHub;
  readonly sessions: SessionRegistry;
  /** Human sessions: challenges and bearer tokens for the read API (docs/human-api.md). */
  readonly humans: HumanSessionService;
  /** The read API's open event streams, bounded per reader and on the node. */
  readonly streams: StreamSlots;
  readonly limits: TransportLimits;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The Group Authority service, which signs the session-opening Command of each HELLO. */
  readonly service: { readonly principal: Principal; readonly key: SigningKey };
  /** Latest Presence Record per Agent: ephemeral, never a lease renewal (§6.2). */
  readonly presence: Map<string, JsonObject>;
  /** This process's link to the others of the node, when it is one of several (clusterLink.ts). */
  readonly cluster?: ClusterLink;
  connectionClosed(connection: FrameConnection): void;
  /** Answers a SUBSCRIBE below the online replay window with CURSOR_TOO_OLD and a snapshot. */
  cursorTooOld(connection: FrameConnection, groupId: string, frameId: string | undefined): Promise<void>;
}
