/**
 * Operator metrics of one node, in the Prometheus text format (`GET /metrics`). Each Group
 * Authority has its own prom-client Registry, never the global one, so two nodes in one process
 * (tests, benchmarks) never mix their series. Names are `missionweave_*`, beside the default
 * Node process metrics (`process_*`, `nodejs_*`).
 *
 * The pipeline's hooks cost little per Command: a Map addition for the Command counters (read
 * on scrape, src/app/metrics/commandTally.ts) and one histogram observation for its latency;
 * per batch, two observations. Everything that is a level (sessions, subscriptions, queues, the
 * PostgreSQL pool) is read only when scraped.
 *
 * For other parts of the node: `gauge(name, help, collect)` registers a gauge read on scrape and
 * `counter(name, help, collect)` a monotonic total read on scrape (a plain number the part keeps
 * itself). Both return a function that removes the source again; several sources under one name
 * are summed (two listeners on one Group Authority count their sessions together). A name must
 * start with `missionweave_`, and labels are deliberately not offered: a source that needs one
 * registers a name per value, so no input can grow the series.
 *
 * With `MW_METRICS=off` (settings `metrics: false`) the node uses `DISABLED_METRICS`: every hook
 * is a no-op, nothing is registered, and `GET /metrics` answers 404.
 */

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { CommandTally } from './commandTally.js';
import { buildInfo } from './buildInfo.js';

export type CommitQueueName = 'group' | 'organization';

export interface AuthorityMetrics {
  /** False when metrics are off: the hooks do nothing and there is nothing to scrape. */
  readonly enabled: boolean;
  /** A Command accepted (`duplicate`: a retry answered from its Receipt), submitted at `submittedAt` (performance.now()). */
  commandAccepted(kind: string, duplicate: boolean, submittedAt: number): void;
  /** A Command refused with a §19 code; `kind` may be an unverified claim (it is labelled `other` unless registered). */
  commandRefused(kind: unknown, code: string): void;
  /** One write transaction of a commit queue: its Commands and how long it took. */
  batchCommitted(queue: CommitQueueName, commands: number, seconds: number): void;
  /** A gauge read on scrape; returns its removal. */
  gauge(name: string, help: string, collect: () => number): () => void;
  /** A monotonic total read on scrape; returns its removal. */
  counter(name: string, help: string, collect: () => number): () => void;
  /** The text exposition of every metric. */
  scrape(): Promise<string>;
  /**
   * Every metric as prom-client's JSON, for the cluster primary to sum with the other processes'
   * when the node runs several (src/cli/clusterTables.ts, prom-client's AggregatorRegistry).
   */
  asJson(): Promise<object[]>;
  readonly contentType: string;
}

/** Powers of two up to twice the default `maxBatch` (512): where group commit sits is the question. */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
/** A transaction is a few milliseconds with fsync on; seconds mean the database is in trouble. */
const TRANSACTION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Command→Event adds queueing and verification to the transaction; the SDK's default Command timeout is tens of seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const NAME = /^missionweave_[a-z0-9_]+$/;

type Sources = { readonly kind: 'gauge' | 'counter'; readonly collect: Set<() => number> };

function sum(collect: Set<() => number>): number {
  let total = 0;
  for (const read of collect) total += read();
  return total;
}

class PrometheusMetrics implements AuthorityMetrics {
  readonly enabled = true;
  private readonly registry = new Registry();
  private readonly tally: CommandTally;
  private readonly sources = new Map<string, Sources>();
  private readonly batchSize: Histogram<'queue'>;
  private readonly transactionSeconds: Histogram<'queue'>;
  private readonly commandToEvent: Histogram;

  constructor(isKnownKind: (kind: string) => boolean) {
    const registers = [this.registry];
    const tally = (this.tally = new CommandTally(isKnownKind));
    new Counter({
      name: 'missionweave_commands_accepted_total', help: 'New Commands accepted, by kind (unregistered kinds: other).', labelNames: ['kind'], registers,
      collect() {
        this.reset();
        for (const [kind, count] of tally.accepted) this.inc({ kind }, count);
      },
    });
    new Counter({
      name: 'missionweave_commands_retried_total', help: 'Retried Commands answered with their original Events, by kind.', labelNames: ['kind'], registers,
      collect() {
        this.reset();
        for (const [kind, count] of tally.retried) this.inc({ kind }, count);
      },
    });
    new Counter({
      name: 'missionweave_commands_refused_total', help: 'Commands refused, by kind (claimed; unregistered: other) and §19 error code.', labelNames: ['kind', 'code'], registers,
      collect() {
        this.reset();
        for (const [kind, byCode] of tally.refused) for (const [code, count] of byCode) this.inc({ kind, code }, count);
      },
    });
    this.batchSize = new Histogram({ name: 'missionweave_commit_batch_size', help: 'Commands per write transaction (group commit), by commit queue.', labelNames: ['queue'], buckets: BATCH_BUCKETS, registers });
    this.transactionSeconds = new Histogram({ name: 'missionweave_transaction_seconds', help: 'Duration of one write transaction, signing included, by commit queue.', labelNames: ['queue'], buckets: TRANSACTION_BUCKETS, registers });
    this.commandToEvent = new Histogram({ name: 'missionweave_command_event_seconds', help: 'From a Command reaching the Group Authority to its Events being committed.', buckets: LATENCY_BUCKETS, registers });
    const build = buildInfo();
    // One series whose labels say what runs; a node of several processes shows it once, not summed.
    new Gauge({ name: 'missionweave_build_info', help: 'What this node runs: package version, Node.js version, source commit (unknown when not known); always 1.', labelNames: ['version', 'node', 'commit'], registers, aggregator: 'first' }).set(build, 1);
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  commandAccepted(kind: string, duplicate: boolean, submittedAt: number): void {
    this.tally.accept(kind, duplicate);
    if (!duplicate) this.commandToEvent.observe((performance.now() - submittedAt) / 1000);
  }

  commandRefused(kind: unknown, code: string): void {
    this.tally.refuse(kind, code);
  }

  batchCommitted(queue: CommitQueueName, commands: number, seconds: number): void {
    this.batchSize.observe({ queue }, commands);
    this.transactionSeconds.observe({ queue }, seconds);
  }

  gauge(name: string, help: string, collect: () => number): () => void {
    return this.source('gauge', name, help, collect);
  }

  counter(name: string, help: string, collect: () => number): () => void {
    return this.source('counter', name, help, collect);
  }

  private source(kind: Sources['kind'], name: string, help: string, collect: () => number): () => void {
    if (!NAME.test(name)) throw new Error(`metric name ${name} must match ${NAME.source}`);
    let sources = this.sources.get(name);
    if (sources === undefined) {
      const entry: Sources = { kind, collect: new Set() };
      const registers = [this.registry];
      if (kind === 'gauge') {
        new Gauge({ name, help, registers, collect() { this.set(sum(entry.collect)); } });
      } else {
        new Counter({ name, help, registers, collect() { this.reset(); this.inc(sum(entry.collect)); } });
      }
      this.sources.set(name, entry);
      sources = entry;
    }
    if (sources.kind !== kind) throw new Error(`metric ${name} is already a ${sources.kind}`);
    const read = (): number => collect();
    sources.collect.add(read);
    return () => void sources.collect.delete(read);
  }

  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  asJson(): Promise<object[]> {
    return this.registry.getMetricsAsJSON();
  }
}

/** Metrics off: hooks that do nothing. */
export const DISABLED_METRICS: AuthorityMetrics = {
  enabled: false,
  contentType: 'text/plain',
  commandAccepted: () => undefined,
  commandRefused: () => undefined,
  batchCommitted: () => undefined,
  gauge: () => () => undefined,
  counter: () => () => undefined,
  scrape: () => Promise.resolve(''),
  asJson: () => Promise.resolve([]),
};

/** A node's metrics on a Registry of its own; `isKnownKind` bounds the kind label. */
export function createAuthorityMetrics(isKnownKind: (kind: string) => boolean): AuthorityMetrics {
  return new PrometheusMetrics(isKnownKind);
}
