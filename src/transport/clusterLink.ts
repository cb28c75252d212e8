/**
 * One process's end of a node served by several processes (`missionweave serve --processes N`,
 * src/cli/serveCluster.ts). The primary accepts every TCP connection and hands it to a process
 * round-robin, so an Agent's HTTPS request, a browser's next request or its event stream may
 * land on another process than the one that issued its token. What must be one per node is
 * therefore kept by the primary and mirrored here:
 *
 * - Agent HELLO session tokens (they authenticate HTTPS requests): each process publishes its
 *   own and the primary relays them to the others (`SessionRegistry`, sessions.ts).
 * - Human sessions (docs/human-api.md): the primary holds the one table, its bounds and the
 *   single use of each challenge; every process keeps a mirror for the token lookup of each read.
 * - `/metrics`: the primary asks every process for its metrics and answers their sum.
 *
 * Ordering is what makes a mirror enough: the primary writes a relayed entry into every other
 * process's IPC channel before it answers the publisher, and the publisher hands the token to
 * its client only after that answer. A connection accepted later is handed over on that same
 * channel, behind the entry, so the process that receives it already knows the token.
 */

import type { SharedHumanTable } from '../app/humans/clusteredHumanSessions.js';
import type { AddResult } from '../app/humans/expiringEntries.js';
import type { HumanSession } from '../app/humans/humanSessions.js';

/** An Agent session that lives on another process of this node. */
export interface RemoteSession {
  readonly agentId: string;
  readonly keyId: string;
  readonly sessionEpoch: number;
  readonly sessionToken: string;
  readonly state: 'open';
}

/** Messages between the primary and a process; `id` pairs an answer with its request. */
export type ToPrimary =
  | { readonly mw: 'hello' }
  | { readonly mw: 'ready'; readonly url: string; readonly https: string; readonly heapGrowingPercent: number | null; readonly where: { data: string } | { database: string } }
  | { readonly mw: 'agent-add'; readonly id: number; readonly session: RemoteSession }
  | { readonly mw: 'agent-remove'; readonly token: string }
  | { readonly mw: 'human-consume'; readonly id: number; readonly nonce: string; readonly expiresAtMillis: number }
  | { readonly mw: 'human-consumed'; readonly id: number; readonly nonce: string }
  | { readonly mw: 'human-add'; readonly id: number; readonly token: string; readonly session: HumanSession }
  | { readonly mw: 'human-delete'; readonly id: number; readonly token: string }
  | { readonly mw: 'metrics'; readonly id: number }
  | { readonly mw: 'metrics-res'; readonly id: number; readonly metrics: readonly object[] };

export type ToProcess =
  | { readonly mw: 'answer'; readonly id: number; readonly value: unknown }
  | { readonly mw: 'metrics-req'; readonly id: number }
  | { readonly mw: 'agent-added'; readonly session: RemoteSession }
  | { readonly mw: 'agent-removed'; readonly token: string }
  | { readonly mw: 'human-added'; readonly token: string; readonly session: HumanSession }
  | { readonly mw: 'human-deleted'; readonly token: string };

/** Requests waiting for the primary; bounded by what this process has in flight (its own limits). */
const ASK_TIMEOUT_MS = 10_000;

type Send = (message: ToPrimary) => void;

export class ClusterLink {
  /** Agent sessions of the other processes, by token. */
  readonly remoteSessions = new Map<string, RemoteSession>();
  /** Remote sessions by Agent, for presence (`connected`). */
  private readonly remoteAgents = new Map<string, number>();
  /** The node's human sessions, as the primary last told. */
  readonly humanSessions = new Map<string, HumanSession>();
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; timer: NodeJS.Timeout }>();
  private nextId = 0;
  /** This process's metrics as JSON, set once its Authority runs. */
  private metrics: () => Promise<object[]> = () => Promise.resolve([]);

  constructor(private readonly send: Send) {}

  /** The link of a cluster worker, listening from now on; undefined outside one. */
  static ofWorker(): ClusterLink | undefined {
    if (process.send === undefined || process.env['MW_CLUSTER_WORKER'] !== '1') return undefined;
    const link = new ClusterLink((message) => process.send?.(message));
    process.on('message', (message: unknown) => link.receive(message));
    // The primary answers with what the node holds now, ahead of any connection (this channel is ordered).
    link.tell({ mw: 'hello' });
    return link;
  }

  receive(message: unknown): void {
    if (typeof message !== 'object' || message === null || !('mw' in message)) return;
    const m = message as ToProcess;
    switch (m.mw) {
      case 'answer': {
        const waiting = this.pending.get(m.id);
        if (waiting === undefined) return;
        this.pending.delete(m.id);
        clearTimeout(waiting.timer);
        waiting.resolve(m.value);
        return;
      }
      case 'agent-added':
        if (this.remoteSessions.has(m.session.sessionToken)) return;
        this.remoteSessions.set(m.session.sessionToken, m.session);
        this.remoteAgents.set(m.session.agentId, (this.remoteAgents.get(m.session.agentId) ?? 0) + 1);
        return;
      case 'agent-removed': {
        const session = this.remoteSessions.get(m.token);
        if (session === undefined) return;
        this.remoteSessions.delete(m.token);
        const left = (this.remoteAgents.get(session.agentId) ?? 1) - 1;
        if (left <= 0) this.remoteAgents.delete(session.agentId);
        else this.remoteAgents.set(session.agentId, left);
        return;
      }
      case 'human-added':
        this.pruneHumanSessions(Date.now());
        this.humanSessions.set(m.token, m.session);
        return;
      case 'human-deleted':
        this.humanSessions.delete(m.token);
        return;
      case 'metrics-req':
        this.metrics().then(
          (metrics) => this.tell({ mw: 'metrics-res', id: m.id, metrics }),
          () => this.tell({ mw: 'metrics-res', id: m.id, metrics: [] }),
        );
        return;
      default: {
        const _exhaustive: never = m;
        return _exhaustive;
      }
    }
  }

  /** Gives the primary this process's metrics when it sums the node's. */
  shareMetrics(asJson: () => Promise<object[]>): void {
    this.metrics = asJson;
  }

  /** Whether the Agent has a session on another process of this node. */
  remoteAgentConnected(agentId: string): boolean {
    return this.remoteAgents.has(agentId);
  }

  tell(message: ToPrimary): void {
    this.send(message);
  }

  /**
   * Sends a request and resolves with the primary's answer. A primary that does not answer in
   * time (it is going down) rejects, and the caller refuses its request as unavailable.
   */
  ask<T>(build: (id: number) => ToPrimary): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error('the cluster primary did not answer'));
      }, ASK_TIMEOUT_MS);
      timer.unref();
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, timer });
      this.send(build(id));
    });
  }

  /**
   * Drops mirrored human sessions expired at `nowMillis` (the primary prunes its own quietly).
   * They all live as long, so insertion order is expiry order and only the front is looked at.
   */
  pruneHumanSessions(nowMillis: number): void {
    for (const [token, session] of this.humanSessions) {
      if (session.expiresAtMillis > nowMillis) return;
      this.humanSessions.delete(token);
    }
  }

  /** The node's human-session table, kept by the primary and mirrored here. */
  humanTable(): SharedHumanTable {
    // The sessions this process opened: its share of the node's gauge, so the primary's sum counts each once.
    const mine = new Set<string>();
    const sessions = this.humanSessions;
    return {
      consume: (nonce, expiresAtMillis) => this.ask<boolean>((id) => ({ mw: 'human-consume', id, nonce, expiresAtMillis })),
      consumed: (nonce) => this.ask<boolean>((id) => ({ mw: 'human-consumed', id, nonce })),
      add: async (token, session) => {
        const added = await this.ask<AddResult>((id) => ({ mw: 'human-add', id, token, session }));
        if (added === 'added') mine.add(token);
        return added;
      },
      get: (token, nowMillis) => {
        const session = this.humanSessions.get(token);
        return session !== undefined && session.expiresAtMillis > nowMillis ? session : undefined;
      },
      delete: (token) => {
        this.humanSessions.delete(token);
        return this.ask<boolean>((id) => ({ mw: 'human-delete', id, token }));
      },
      get size() {
        for (const token of mine) if (!sessions.has(token)) mine.delete(token);
        return mine.size;
      },
    };
  }

  /** The whole node's metrics, in the Prometheus text format, summed by the primary. */
  async scrapeNode(): Promise<string> {
    const text = await this.ask<string | null>((id) => ({ mw: 'metrics', id }));
    if (typeof text !== 'string') throw new Error('a process did not give its metrics');
    return text;
  }
}
