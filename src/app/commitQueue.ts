/**
 * Group commit: Commands wait here and are drained, many at a time, into write transactions.
 *
 * Each item names the keys it serializes on (its Groups). A key is in at most one transaction
 * of this process at a time and its items leave in arrival order, so a Group's Commands are
 * decided in the order they arrived here; several transactions over disjoint keys run at once.
 * A transaction that must be re-run (`retry`) puts its items back at the front; one that
 * failed otherwise is split so a single bad item cannot fail its neighbours: first by partition
 * (`partitionOf`: on Citus a Mission tree, whose shard may lie on a worker that is down) when it
 * spanned several, then into one transaction per item. A second
 * transaction starts beside a running one only once enough items wait (`parallelMin`): a
 * transaction's round trips and wake-ups cost the same for one Command as for a hundred, so at
 * moderate load one transaction at a time with what arrived meanwhile costs far less CPU per
 * Command than one transaction per Command on every connection (BENCHMARKS.md, "Latency at
 * half load"), and under full load the queue is deep and they run side by side as before.
 */

import { MAX_COMMIT_ATTEMPTS } from './limits.js';

interface Waiting<I, O> {
  readonly item: I;
  readonly keys: readonly string[];
  readonly resolve: (outcome: O) => void;
  attempts: number;
  solo: boolean;
  /** Set after a failed transaction that spanned partitions: leaves only with items of this one. */
  partition?: string;
}

export interface CommitQueueOptions<I, O> {
  /** Most items drained into one transaction. */
  readonly maxBatch: number;
  /** Transactions in flight at once. */
  readonly concurrency: number;
  /**
   * Items that must be waiting before a transaction starts beside one already in flight (1: as
   * soon as any is). Below it they wait for the running one and leave together in the next.
   */
  readonly parallelMin?: number;
  readonly keysOf: (item: I) => readonly string[];
  /** Runs one transaction; returns one outcome per item, in order. */
  readonly run: (items: I[]) => Promise<O[]>;
  /** Whether a failed transaction should simply be re-run (a lost race, not a fault). */
  readonly isRetryable: (error: unknown) => boolean;
  /** The outcome of an item whose transaction failed for good. */
  readonly failed: (item: I, error: unknown) => O;
  /**
   * Which part of the store an item writes (on Citus its Mission tree). A transaction over
   * several partitions that fails (not a lost race) is re-run one partition at a time before
   * one item at a time: a worker down fails only the partitions on it, and the others keep
   * their batches.
   */
  readonly partitionOf?: (item: I) => string;
}

export class CommitQueue<I, O> {
  private pending: Waiting<I, O>[] = [];
  /** How many waiting items name each key: a new item behind one of them must wait too. */
  private readonly waitingKeys = new Map<string, number>();
  private readonly busy = new Set<string>();
  private inFlight = 0;

  constructor(private readonly options: CommitQueueOptions<I, O>) {}

  submit(item: I): Promise<O> {
    return new Promise((resolve) => {
      const waiting: Waiting<I, O> = { item, keys: this.options.keysOf(item), resolve, attempts: 0, solo: false };
      // Behind a busy or waiting key the new item cannot leave now: no need to look at the queue.
      const mustWait = waiting.keys.some((k) => this.busy.has(k) || this.waitingKeys.has(k));
      this.enqueue([waiting], false);
      if (!mustWait) this.pump();
    });
  }

  /** Items waiting, not counting those in flight. */
  get depth(): number {
    return this.pending.length;
  }

  private enqueue(items: Waiting<I, O>[], atFront: boolean): void {
    for (const w of items) for (const k of w.keys) this.waitingKeys.set(k, (this.waitingKeys.get(k) ?? 0) + 1);
    if (atFront) this.pending.unshift(...items);
    else this.pending.push(...items);
  }

  /**
   * The next batch: waiting items, in arrival order, whose keys are not in flight and not held
   * by an earlier item that must keep waiting. Items of one key leave together, in order —
   * that is the group commit — up to `maxBatch`.
   */
  private take(): Waiting<I, O>[] {
    const batch: Waiting<I, O>[] = [];
    const rest: Waiting<I, O>[] = [];
    const blocked = new Set<string>();
    let full = false;
    for (const waiting of this.pending) {
      if (full) {
        rest.push(waiting);
        continue;
      }
      const free = waiting.keys.every((k) => !this.busy.has(k) && !blocked.has(k));
      // An item pinned to a partition leaves only with items pinned to the same one.
      const fits = batch.length === 0 || waiting.partition === batch[0]?.partition;
      if (!free || !fits || (waiting.solo && batch.length > 0)) {
        // Later items of the same keys must not overtake this one.
        for (const k of waiting.keys) blocked.add(k);
        rest.push(waiting);
        continue;
      }
      batch.push(waiting);
      for (const k of waiting.keys) {
        const left = (this.waitingKeys.get(k) ?? 1) - 1;
        if (left === 0) this.waitingKeys.delete(k);
        else this.waitingKeys.set(k, left);
      }
      full = waiting.solo || batch.length >= this.options.maxBatch;
    }
    this.pending = rest;
    return batch;
  }

  private pump(): void {
    while (this.inFlight < this.options.concurrency && this.pending.length > 0) {
      if (this.inFlight > 0 && this.pending.length < (this.options.parallelMin ?? 1)) return;
      const batch = this.take();
      if (batch.length === 0) return;
      this.inFlight++;
      for (const w of batch) for (const k of w.keys) this.busy.add(k);
      void this.execute(batch).finally(() => {
        for (const w of batch) for (const k of w.keys) this.busy.delete(k);
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async execute(batch: Waiting<I, O>[]): Promise<void> {
    let outcomes: O[];
    try {
      outcomes = await this.options.run(batch.map((w) => w.item));
    } catch (error) {
      this.recover(batch, error);
      return;
    }
    batch.forEach((w, i) => w.resolve(outcomes[i] as O));
  }

  private recover(batch: Waiting<I, O>[], error: unknown): void {
    const retryable = this.options.isRetryable(error);
    const { partitionOf } = this.options;
    const byPartition = !retryable && partitionOf !== undefined && new Set(batch.map((w) => partitionOf(w.item))).size > 1;
    const again: Waiting<I, O>[] = [];
    for (const w of batch) {
      w.attempts++;
      if (w.attempts >= MAX_COMMIT_ATTEMPTS || (!retryable && batch.length === 1)) {
        w.resolve(this.options.failed(w.item, error));
      } else {
        if (byPartition) w.partition = partitionOf(w.item);
        else if (!retryable) w.solo = true;
        again.push(w);
      }
    }
    this.enqueue(again, true);
  }
}
