/**
 * What a connection needs from the rest of the server.
 */

import type { Logger } from 'pino';
import type { GroupAuthority } from '../app/groupAuthority.js';
import type { Clock } from '../app/settings.js';
import type { DeliveryHub } from '../delivery/deliveryHub.js';
import type { Principal } from '../protocol/principal.js';
import type { SigningKey } from '../protocol/signing/signDocument.js';
import type { JsonObject } from '../protocol/strictJson.js';
import type { Pool } from '../store/pool.js';
import type { Connection } from './connection.js';
import type { TransportLimits } from './limits.js';
import type { SessionRegistry } from './sessions.js';

export interface TransportContext {
  readonly authority: GroupAuthority;
  readonly hub: DeliveryHub;
  readonly sessions: SessionRegistry;
  readonly limits: TransportLimits;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly pool: Pool;
  /** The Group Authority service, which signs the session-opening Command of each HELLO. */
  readonly service: { readonly principal: Principal; readonly key: SigningKey };
  /** Latest Presence Record per Agent: ephemeral, never a lease renewal (§6.2). */
  readonly presence: Map<string, JsonObject>;
  connectionClosed(connection: Connection): void;
  /** Answers a SUBSCRIBE below the online replay window with CURSOR_TOO_OLD and a snapshot. */
  cursorTooOld(connection: Connection, groupId: string, frameId: string | undefined): Promise<void>;
}
