/**
 * What the cluster primary of `missionweave serve --processes N` keeps once for the node
 * (src/transport/clusterLink.ts is the processes' end): the Agent session tokens each process
 * publishes, relayed to the others; the human sessions, with their bounds per human and in all,
 * and the single use of each sign-in challenge; and the sum of every process's metrics.
 *
 * Bounded: Agent sessions are at most the processes' open connections (each process bounds its
 * own, `maxConnections`), and a process's are dropped when it exits; human sessions and answered
 * challenges have the same bounds as in one process (`readerLimits.ts`), now for the whole node.
 * A request from a process is answered once; nothing waits here on an outsider.
 */

import type { Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { ConsumedChallenges } from '../app/humans/consumedChallenges.js';
import { ExpiringEntries } from '../app/humans/expiringEntries.js';
import type { HumanSession, HumanSessionLimits } from '../app/humans/humanSessions.js';
import type { RemoteSession, ToPrimary, ToProcess } from '../transport/clusterLink.js';

export interface ClusterTablesDeps {
  /** The processes alive now. */
  readonly workers: () => Iterable<Worker>;
  /** The processes serving now (a starting one has no metrics to give yet). */
  readonly serving: () => Iterable<Worker>;
  readonly nowMillis: () => number;
}

/** A process that has not given its metrics by then is left out of that scrape. */
const METRICS_TIMEOUT_MS = 5_000;

interface Gathering {
  readonly id: number;
  readonly waiting: Set<number>;
  readonly parts: object[][];
  readonly done: Promise<string>;
  finish(): void;
}

function send(worker: Worker, message: ToProcess): void {
  if (worker.isConnected()) worker.send(message);
}

export class ClusterTables {
  private readonly agentSessions = new Map<string, { readonly session: RemoteSession; readonly worker: number }>();
  private readonly consumed: ConsumedChallenges;
  private readonly humans: ExpiringEntries<HumanSession>;
  /** The one metrics gathering in flight: concurrent scrapes share it, so there is never more than one. */
  private gathering: Gathering | undefined;
  private nextGathering = 0;

  constructor(
    limits: HumanSessionLimits,
    private readonly deps: ClusterTablesDeps,
  ) {
    this.consumed = new ConsumedChallenges(limits.maxConsumedChallenges);
    this.humans = new ExpiringEntries(limits.maxSessionsPerHuman, limits.maxHumanSessions);
  }

  /** Handles one message of `worker`; the ready line is the caller's (serveCluster.ts). */
  receive(worker: Worker, message: ToPrimary): void {
    const now = this.deps.nowMillis();
    const answer = (id: number, value: unknown): void => send(worker, { mw: 'answer', id, value });
    switch (message.mw) {
      case 'hello':
        this.snapshotTo(worker);
        return;
      case 'ready':
        return;
      case 'agent-add':
        this.agentSessions.set(message.session.sessionToken, { session: message.session, worker: worker.id });
        this.broadcast({ mw: 'agent-added', session: message.session }, worker.id);
        // Written after the relay on every channel: the publisher hands out its token after this.
        return answer(message.id, true);
      case 'agent-remove': {
        const held = this.agentSessions.get(message.token);
        if (held === undefined || held.worker !== worker.id) return;
        this.agentSessions.delete(message.token);
        return this.broadcast({ mw: 'agent-removed', token: message.token }, worker.id);
      }
      case 'human-consume':
        return answer(message.id, this.consumed.consume(message.nonce, message.expiresAtMillis, now));
      case 'human-consumed':
        return answer(message.id, this.consumed.has(message.nonce, now));
      case 'human-add': {
        const added = this.humans.add(message.token, message.session, now);
        if (added === 'added') this.broadcast({ mw: 'human-added', token: message.token, session: message.session });
        return answer(message.id, added);
      }
      case 'human-delete': {
        const existed = this.humans.get(message.token, now) !== undefined && this.humans.delete(message.token);
        this.broadcast({ mw: 'human-deleted', token: message.token });
        return answer(message.id, existed);
      }
      case 'metrics':
        this.gatherMetrics().then(
          (text) => answer(message.id, text),
          () => answer(message.id, null),
        );
        return;
      case 'metrics-res': {
        const gathering = this.gathering;
        if (gathering === undefined || gathering.id !== message.id || !gathering.waiting.delete(worker.id)) return;
        gathering.parts.push([...message.metrics]);
        if (gathering.waiting.size === 0) gathering.finish();
        return;
      }
      default: {
        const _exhaustive: never = message;
        return _exhaustive;
      }
    }
  }

  /** A process exited: its Agent sessions are gone with it. */
  workerGone(worker: Worker): void {
    for (const [token, held] of [...this.agentSessions]) {
      if (held.worker !== worker.id) continue;
      this.agentSessions.delete(token);
      this.broadcast({ mw: 'agent-removed', token }, worker.id);
    }
  }

  /** Agent sessions and human sessions the node holds now (for tests and the operator). */
  get sizes(): { readonly agentSessions: number; readonly humanSessions: number } {
    return { agentSessions: this.agentSessions.size, humanSessions: this.humans.size };
  }

  /** Every serving process's metrics, summed by prom-client's aggregators (sum unless a metric says otherwise). */
  private gatherMetrics(): Promise<string> {
    if (this.gathering !== undefined) return this.gathering.done;
    const id = this.nextGathering++;
    const serving = [...this.deps.serving()];
    const parts: object[][] = [];
    let finish = (): void => undefined;
    const done = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => finish(), METRICS_TIMEOUT_MS);
      finish = () => {
        clearTimeout(timer);
        if (this.gathering?.id === id) this.gathering = undefined;
        if (parts.length === 0) return reject(new Error('no process gave its metrics'));
        resolve(AggregatorRegistry.aggregate(parts).metrics());
      };
    });
    this.gathering = { id, waiting: new Set(serving.map((w) => w.id)), parts, done, finish: () => finish() };
    for (const worker of serving) send(worker, { mw: 'metrics-req', id });
    if (serving.length === 0) finish();
    return done;
  }

  /** What a (re)started process must know before it is handed any connection. */
  private snapshotTo(worker: Worker): void {
    for (const { session, worker: owner } of this.agentSessions.values()) if (owner !== worker.id) send(worker, { mw: 'agent-added', session });
    const now = this.deps.nowMillis();
    this.humans.prune(now);
    for (const [token, session] of this.humans.entriesNow()) send(worker, { mw: 'human-added', token, session });
  }

  private broadcast(message: ToProcess, except?: number): void {
    for (const worker of this.deps.workers()) if (worker.id !== except) send(worker, message);
  }
}
