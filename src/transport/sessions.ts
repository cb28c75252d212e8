/**
 * The authenticated connections of this process, by Agent. Opening a session issues Session
 * Epoch n+1 (§6.3); every connection of that Agent at epoch n or lower — here, or on another
 * node told through a NOTIFY — receives AUTH_STALE_SESSION and is closed.
 */

export interface FencedConnection {
  readonly agentId: string;
  readonly sessionEpoch: number;
  /** The opaque token issued at HELLO; it authenticates the session's HTTPS requests. */
  readonly sessionToken: string;
  fence(currentEpoch: number): void;
}

export class SessionRegistry {
  private readonly byAgent = new Map<string, Set<FencedConnection>>();
  private readonly byToken = new Map<string, FencedConnection>();

  /** The live session a token belongs to, if any. */
  session(token: string): FencedConnection | undefined {
    return this.byToken.get(token);
  }

  add(connection: FencedConnection): void {
    this.byToken.set(connection.sessionToken, connection);
    let set = this.byAgent.get(connection.agentId);
    if (set === undefined) {
      set = new Set();
      this.byAgent.set(connection.agentId, set);
    }
    set.add(connection);
  }

  remove(connection: FencedConnection): void {
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

  get size(): number {
    let count = 0;
    for (const set of this.byAgent.values()) count += set.size;
    return count;
  }
}
