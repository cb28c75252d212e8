/**
 * The group-commit queue: Commands of one Group that arrive while its transaction runs leave
 * together in the next one, in arrival order; no item overtakes an earlier one of its keys;
 * batches respect their bound and the transaction limit; a lost race re-runs and a fault is
 * isolated to the item that caused it, first to its partition (a Mission tree).
 */

import { describe, expect, it } from 'vitest';
import { CommitQueue } from '../src/app/commitQueue.js';

interface Item {
  readonly id: number;
  readonly keys: string[];
}

class Gate {
  private release: (() => void)[] = [];
  wait(): Promise<void> {
    return new Promise((resolve) => this.release.push(resolve));
  }
  open(): void {
    for (const r of this.release.splice(0)) r();
  }
}

function queue(options: { maxBatch?: number; concurrency?: number; parallelMin?: number; run?: (items: Item[]) => Promise<string[]>; partitionOf?: (item: Item) => string } = {}) {
  const batches: number[][] = [];
  const gate = new Gate();
  let running = 0;
  let maxRunning = 0;
  const q = new CommitQueue<Item, string>({
    maxBatch: options.maxBatch ?? 100,
    concurrency: options.concurrency ?? 4,
    ...(options.parallelMin === undefined ? {} : { parallelMin: options.parallelMin }),
    ...(options.partitionOf === undefined ? {} : { partitionOf: options.partitionOf }),
    keysOf: (item) => item.keys,
    run: options.run ?? (async (items) => {
      batches.push(items.map((i) => i.id));
      running++;
      maxRunning = Math.max(maxRunning, running);
      await gate.wait();
      running--;
      return items.map((i) => `done ${i.id}`);
    }),
    isRetryable: (error) => error instanceof Error && error.message === 'race',
    failed: (item) => `failed ${item.id}`,
  });
  return { q, batches, gate, maxRunning: () => maxRunning };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('CommitQueue', () => {
  it('drains the Commands of one Group that queued behind a transaction into one batch, in order', async () => {
    const { q, batches, gate } = queue();
    const first = q.submit({ id: 0, keys: ['A'] });
    await tick();
    const rest = Array.from({ length: 50 }, (_, i) => q.submit({ id: i + 1, keys: ['A'] }));
    await tick();
    expect(batches).toEqual([[0]]);
    gate.open();
    await first;
    await tick();
    expect(batches[1]).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    gate.open();
    expect(await Promise.all(rest)).toEqual(Array.from({ length: 50 }, (_, i) => `done ${i + 1}`));
  });

  it('runs disjoint Groups side by side and never more transactions than allowed', async () => {
    const { q, batches, gate, maxRunning } = queue({ concurrency: 2 });
    const all = ['A', 'B', 'C', 'D'].map((k, i) => q.submit({ id: i, keys: [k] }));
    await tick();
    expect(batches).toEqual([[0], [1]]);
    gate.open();
    await tick();
    await tick();
    expect(batches.slice(2).flat().sort()).toEqual([2, 3]);
    gate.open();
    await Promise.all(all);
    expect(maxRunning()).toBe(2);
  });

  it('starts a second transaction beside a running one only once parallelMin items wait', async () => {
    const { q, batches, gate } = queue({ concurrency: 4, parallelMin: 3 });
    const first = q.submit({ id: 0, keys: ['A'] });
    await tick();
    // Two items of other Groups: fewer than three wait, so they wait for the running one.
    const next = [q.submit({ id: 1, keys: ['B'] }), q.submit({ id: 2, keys: ['C'] })];
    await tick();
    expect(batches).toEqual([[0]]);
    // A third: now enough wait to run beside it, all three together.
    next.push(q.submit({ id: 3, keys: ['D'] }));
    await tick();
    expect(batches).toEqual([[0], [1, 2, 3]]);
    gate.open();
    await Promise.all([first, ...next]);
    // With nothing in flight, one item leaves at once.
    const alone = q.submit({ id: 4, keys: ['E'] });
    await tick();
    expect(batches.at(-1)).toEqual([4]);
    gate.open();
    await alone;
  });

  it('never lets an item overtake an earlier one of its keys, multi-key items included', async () => {
    const { q, batches, gate } = queue({ concurrency: 4 });
    const done: Promise<string>[] = [q.submit({ id: 0, keys: ['A'] })];
    await tick();
    done.push(q.submit({ id: 1, keys: ['A', 'B'] })); // waits for A
    done.push(q.submit({ id: 2, keys: ['B'] })); // must wait behind 1, though B is free
    done.push(q.submit({ id: 3, keys: ['C'] })); // free
    await tick();
    expect(batches).toEqual([[0], [3]]);
    gate.open();
    await tick();
    await tick();
    expect(batches[2]).toEqual([1, 2]);
    gate.open();
    await Promise.all(done);
  });

  it('bounds every batch by maxBatch', async () => {
    const { q, batches, gate } = queue({ maxBatch: 8 });
    const blocker = q.submit({ id: -1, keys: ['A'] });
    await tick();
    const all = Array.from({ length: 20 }, (_, i) => q.submit({ id: i, keys: ['A'] }));
    gate.open();
    await blocker;
    for (let i = 0; i < 4; i++) {
      await tick();
      gate.open();
    }
    await Promise.all(all);
    expect(batches.slice(1).map((b) => b.length)).toEqual([8, 8, 4]);
  });

  it('re-runs a batch that lost a race and isolates an item that fails for good', async () => {
    let races = 1;
    const seen: number[][] = [];
    const { q } = queue({
      run: async (items) => {
        seen.push(items.map((i) => i.id));
        if (races-- > 0) throw new Error('race');
        if (items.some((i) => i.id === 2)) throw new Error('bad item');
        return items.map((i) => `done ${i.id}`);
      },
    });
    const blocker = q.submit({ id: 0, keys: ['A'] });
    const all = [1, 2, 3].map((id) => q.submit({ id, keys: ['A'] }));
    expect(await blocker).toBe('done 0');
    expect(await Promise.all(all)).toEqual(['done 1', 'failed 2', 'done 3']);
    expect(seen[0]).toEqual([0]);
    expect(seen[1]).toEqual([0, 1, 2, 3]); // re-run at the front, the queued items joining it
    expect(seen.filter((b) => b.length === 1 && b[0] === 2).length).toBeGreaterThan(0);
  });

  it('re-runs a failed batch over several partitions one partition at a time, then item by item', async () => {
    // Partition Q (a Mission tree on a worker that is down) fails every transaction it is in.
    const seen: number[][] = [];
    const { q } = queue({
      concurrency: 1,
      partitionOf: (item) => (item.id % 2 === 0 ? 'P' : 'Q'),
      run: async (items) => {
        seen.push(items.map((i) => i.id));
        if (items.some((i) => i.id % 2 === 1)) throw new Error('worker down');
        return items.map((i) => `done ${i.id}`);
      },
    });
    const blocker = q.submit({ id: 6, keys: ['B'] });
    const all = [0, 1, 2, 3, 4, 5].map((id) => q.submit({ id, keys: [`G${id}`] }));
    expect(await blocker).toBe('done 6');
    expect(await Promise.all(all)).toEqual(['done 0', 'failed 1', 'done 2', 'failed 3', 'done 4', 'failed 5']);
    expect(seen[1]).toEqual([0, 1, 2, 3, 4, 5]);
    // P's items left together after the first failure, never one by one; Q's were split at last.
    expect(seen).toContainEqual([0, 2, 4]);
    expect(seen.slice(1).filter((b) => b.some((id) => id % 2 === 0) && b.length < 3)).toEqual([]);
    expect(seen).toContainEqual([1, 3, 5]);
    for (const id of [1, 3, 5]) expect(seen).toContainEqual([id]);
  });
});
