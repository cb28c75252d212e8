/**
 * The authenticated connections of this process, by Agent. Opening a session issues Session
 * Epoch n+1 (§6.3); every connection of that Agent at epoch n or lower — here, or on another
 * node told through a NOTIFY — receives AUTH_STALE_SESSION and is closed. A session lives only
 * as long as its credentials: when the Registry changes (here, or on another node told through
 * a NOTIFY) so that the Agent's card is no longer active or its session key no longer valid,
 * its connections are closed too, and with them its subscriptions.
 *
 * On a node of several processes (clusterLink.ts) each process publishes its sessions, so a
 * session token is accepted on HTTPS by every process and presence sees every process; fencing
 * still travels by NOTIFY, as between nodes.
 */

import type { RegistrySnapshot } from '../app/registrySnapshot.js';
import { wireError, type WireError } from '../app/wireError.js';
import type { ClusterLink } from './clusterLink.js';
import { credentialRefusal } from './hello.js';
import { CLOSE } from './limits.js';

export interface FencedConnection {
  readonly agentId: string;
  readonly sessionEpoch: number;
  /** The opaque token issued at HELLO; it authenticates the session's HTTPS requests. */
  readonly sessionToken: string;
  /** The key the Agent authenticated with at HELLO. */
  readonly keyId: string;
  /** `closing` once the connection is on its way out (transportContext.ts ConnectionState). */
  readonly state: string;
  fence(currentEpoch: number): void;
  /** Sends an ERROR frame; a fatal one also closes the connection. */
  fail(error: WireError, relatedFrameId?: string, fatal?: boolean, closeCode?: number): void;
}

/** What an HTTPS route needs of a session, here or on another process of the node. */
export interface AgentSession {
  readonly agentId: string;
  readonly keyId: string;
  readonly sessionEpoch: number;
  readonly state: string;
}

export class SessionRegistry {
  private readonly byAgent = new Map<string, Set<FencedConnection>>();
  private readonly byToken = new Map<string, FencedConnection>();

  constructor(private readonly cluster?: ClusterLink) {}

  /** The live session a token belongs to, if any, on this process or another of the node. */
  session(token: string): AgentSession | undefined {
    return this.byToken.get(token) ?? this.cluster?.remoteSessions.get(token);
  }

  /** Whether the Agent has a live session on this node (the read API's presence). */
  connected(agentId: string): boolean {
    return this.byAgent.has(agentId) || this.cluster?.remoteAgentConnected(agentId) === true;
  }

  /**
   * Registers an authenticated connection; resolves once every process of the node knows its
   * token, so the token is handed to the client only after that (clusterLink.ts).
   */
  add(connection: FencedConnection): Promise<void> {
    this.byToken.set(connection.sessionToken, connection);
    let set = this.byAgent.get(connection.agentId);
    if (set === undefined) {
      set = new Set();
      this.byAgent.set(connection.agentId, set);
    }
    set.add(connection);
    if (this.cluster === undefined) return Promise.resolve();
    const { agentId, keyId, sessionEpoch, sessionToken } = connection;
    return this.cluster.ask<unknown>((id) => ({ mw: 'agent-add', id, session: { agentId, keyId, sessionEpoch, sessionToken, state: 'open' } })).then(() => undefined);
  }

  remove(connection: FencedConnection): void {
    if (this.byToken.get(connection.sessionToken) === connection) this.cluster?.tell({ mw: 'agent-remove', token: connection.sessionToken });
    this.byToken.delete(connection.sessionToken);
    const set = this.byAgent.get(connection.agentId);
    set?.delete(connection);
    if (set?.size === 0) this.byAgent.delete(connection.agentId);
  }

  /** Closes every connection of the Agent older than `currentEpoch`. */
  fence(agentId: string, currentEpoch: number): void {
    for (const connection of [...(this.byAgent.get(agentId) ?? [])]) {
      if (connection.sessionEpoch < currentEpoch) connection.fence(currentEpoch);
    }
  }

  /**
   * Closes every connection whose Agent or session key `registry` no longer accepts at
   * `nowMillis` (a revoked or deprecated card, a revoked or expired key); returns how many.
   * `agentIds`, when the change names them (`affectedAgents`), limits the check to those Agents'
   * connections: a card registration re-checked all 30,000 sessions of a process otherwise.
   */
  closeRevoked(registry: RegistrySnapshot, nowMillis: number, agentIds?: ReadonlySet<string>): number {
    let closed = 0;
    const checked = agentIds === undefined ? [...this.byAgent.values()] : [...agentIds].flatMap((id) => {
      const connections = this.byAgent.get(id);
      return connections === undefined ? [] : [connections];
    });
    for (const connections of checked) {
      for (const connection of [...connections]) {
        if (connection.state === 'closing' || credentialRefusal(registry, connection.agentId, connection.keyId, nowMillis) === null) continue;
        // The connection removes itself from this registry when its socket closes.
        connection.fail(wireError('AUTH_INVALID_SIGNATURE', 'the Agent Card or session key was revoked'), undefined, true, CLOSE.credentialsRevoked);
        closed++;
      }
    }
    return closed;
  }

  get size(): number {
    let count = 0;
    for (const set of this.byAgent.values()) count += set.size;
    return count;
  }
}
