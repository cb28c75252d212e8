/**
 * An immutable string-keyed map whose `with` costs O(√n) amortized instead of the O(n) copy of
 * `withEntry`: a large frozen base plus a small top layer of the entries set since. `with`
 * copies only the top; once the top holds more than √n entries (and at least `MIN_TOP`) the two
 * are merged into a new base, so the O(n) merge is paid once every √n writes.
 *
 * Why: the Organization state holds one Session Epoch per Agent, and every HELLO moves one of
 * them in every process of a node (each folds the Events the others wrote). With `withEntry` a
 * HELLO cost each process a copy of every Agent's epoch — at 30,000 Agents and three processes,
 * HELLOs queued past the 10 s handshake timeout (BENCHMARKS.md, "Idle sessions").
 *
 * Evolve never mutates the state it was given, and neither does this: a `LayeredMap` and the
 * maps it reads are never changed after construction, so older states stay valid (a rolled-back
 * transaction keeps the state from before it).
 */

/** Below this the top layer is never merged: copying a few dozen entries costs nothing. */
const MIN_TOP = 64;

export class LayeredMap<V> implements ReadonlyMap<string, V> {
  readonly size: number;

  private constructor(
    private readonly base: ReadonlyMap<string, V>,
    private readonly top: ReadonlyMap<string, V>,
    size: number,
  ) {
    this.size = size;
  }

  /** A layered map holding `entries` (the map given is copied, never kept). */
  static of<V>(entries: Iterable<readonly [string, V]> = []): LayeredMap<V> {
    const base = new Map(entries);
    return new LayeredMap(base, new Map(), base.size);
  }

  get(key: string): V | undefined {
    return this.top.has(key) ? this.top.get(key) : this.base.get(key);
  }

  has(key: string): boolean {
    return this.top.has(key) || this.base.has(key);
  }

  /** A map with `key` set to `value`; this one is unchanged. */
  with(key: string, value: V): LayeredMap<V> {
    return this.withAll([[key, value]]);
  }

  /**
   * A map with every entry of `entries` set, in order; this one is unchanged. Costs the size of
   * the top layer plus the entries, or one merge into a new base when that outgrows √n.
   */
  withAll(entries: Iterable<readonly [string, V]>): LayeredMap<V> {
    const top = new Map(this.top);
    let size = this.size;
    for (const [key, value] of entries) {
      if (!top.has(key) && !this.base.has(key)) size++;
      top.set(key, value);
    }
    if (top.size < Math.max(MIN_TOP, Math.sqrt(size))) return new LayeredMap(this.base, top, size);
    const merged = new Map(this.base);
    for (const [k, v] of top) merged.set(k, v);
    return new LayeredMap(merged, new Map(), size);
  }

  /**
   * The entries set in this map since `earlier` (an ancestor by `with`/`withAll`) whose value
   * differs from `earlier`'s, when both still share one base: O(top layer). Undefined once a
   * merge separated them (every √n sets), when the caller compares in full.
   */
  changedSince(earlier: ReadonlyMap<string, V>): [string, V][] | undefined {
    if (!(earlier instanceof LayeredMap) || earlier.base !== this.base) return undefined;
    // An ancestor's top layer is within this one's; anything else is not a descendant of it.
    for (const key of earlier.top.keys()) if (!this.top.has(key)) return undefined;
    const changed: [string, V][] = [];
    for (const [key, value] of this.top) if (earlier.get(key) !== value || !earlier.has(key)) changed.push([key, value]);
    return changed;
  }

  entries(): MapIterator<[string, V]> {
    // After a merge the top is empty: the base's own iterator, no generator in between.
    return this.top.size === 0 ? this.base.entries() : this.layeredEntries();
  }

  keys(): MapIterator<string> {
    return this.top.size === 0 ? this.base.keys() : this.layeredKeys();
  }

  values(): MapIterator<V> {
    return this.top.size === 0 ? this.base.values() : this.layeredValues();
  }

  private *layeredEntries(): MapIterator<[string, V]> {
    for (const [key, value] of this.base) if (!this.top.has(key)) yield [key, value];
    yield* this.top.entries();
  }

  private *layeredKeys(): MapIterator<string> {
    for (const key of this.base.keys()) if (!this.top.has(key)) yield key;
    yield* this.top.keys();
  }

  private *layeredValues(): MapIterator<V> {
    for (const [key, value] of this.base) if (!this.top.has(key)) yield value;
    yield* this.top.values();
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }
}

/** `map` with `key` set, as a `LayeredMap` (a plain map is adopted once, in O(n)). */
export function withLayeredEntry<V>(map: ReadonlyMap<string, V>, key: string, value: V): LayeredMap<V> {
  return (map instanceof LayeredMap ? (map as LayeredMap<V>) : LayeredMap.of(map)).with(key, value);
}
