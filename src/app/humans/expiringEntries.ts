/**
 * An in-memory table of entries that expire, bounded per owner and in all: the shape of human
 * sessions (`humanSessions.ts`), which exist only after a valid signature, so a full bound
 * refuses a human only their own excess sessions. Every entry of one table has
 * the same lifetime, so insertion order is expiry order and pruning only ever looks at the
 * front; a full bound is found with two lookups, so refusing costs nothing.
 */

export interface Expiring {
  readonly owner: string;
  readonly expiresAtMillis: number;
}

export type AddResult = 'added' | 'owner-full' | 'table-full';

export class ExpiringEntries<E extends Expiring> {
  private readonly entries = new Map<string, E>();
  private readonly perOwner = new Map<string, number>();

  constructor(
    private readonly maxPerOwner: number,
    private readonly maxInAll: number,
  ) {}

  /** Drops every entry expired at `nowMillis`. */
  prune(nowMillis: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAtMillis > nowMillis) return;
      this.delete(key);
    }
  }

  add(key: string, entry: E, nowMillis: number): AddResult {
    this.prune(nowMillis);
    if (this.entries.size >= this.maxInAll) return 'table-full';
    if ((this.perOwner.get(entry.owner) ?? 0) >= this.maxPerOwner) return 'owner-full';
    this.entries.set(key, entry);
    this.perOwner.set(entry.owner, (this.perOwner.get(entry.owner) ?? 0) + 1);
    return 'added';
  }

  /** The entry under `key` if it has not expired. */
  get(key: string, nowMillis: number): E | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMillis > nowMillis) return entry;
    this.delete(key);
    return undefined;
  }

  /** Removes and returns the entry (a single-use read); undefined when absent or expired. */
  take(key: string, nowMillis: number): E | undefined {
    const entry = this.get(key, nowMillis);
    if (entry !== undefined) this.delete(key);
    return entry;
  }

  delete(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    const left = (this.perOwner.get(entry.owner) ?? 1) - 1;
    if (left === 0) this.perOwner.delete(entry.owner);
    else this.perOwner.set(entry.owner, left);
    return true;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Every entry held, in expiry order (call `prune` first for only the live ones). */
  entriesNow(): IterableIterator<[string, E]> {
    return this.entries.entries();
  }
}
