/**
 * The challenges already presented to `POST /v1/human-sessions` (docs/human-api.md), each kept
 * until its expiry so that a challenge opens at most one session. A challenge itself is stateless
 * (`challengeCodec.ts`): this table is the only memory sign-in holds before a signature verified.
 *
 * It never refuses. When it is full the entry nearest its expiry is evicted to make room, so a
 * flood of challenge answers cannot lock a human out of sign-in. That is safe because an evicted
 * entry names a challenge that expires within one challenge lifetime anyway, and replaying it
 * still needs the human's Ed25519 signature over that very transcript (which only the human, or
 * whoever read their TLS-protected answer, holds); the flood that evicts it must also consist of
 * MAC-valid, unexpired challenges, one request each. A min-heap on expiry finds the entry to
 * evict, and the expired ones to prune, in logarithmic time.
 */

interface Consumed {
  readonly nonce: string;
  readonly expiresAtMillis: number;
}

export class ConsumedChallenges {
  private readonly nonces = new Set<string>();
  /** Binary min-heap on `expiresAtMillis`; holds exactly the members of `nonces`. */
  private readonly heap: Consumed[] = [];

  constructor(private readonly maxEntries: number) {}

  /**
   * Records `nonce` as consumed until `expiresAtMillis`; false when it already was (a reuse).
   * Makes room by evicting the entry nearest its expiry when the table is full.
   */
  consume(nonce: string, expiresAtMillis: number, nowMillis: number): boolean {
    this.prune(nowMillis);
    if (this.nonces.has(nonce)) return false;
    if (this.heap.length >= this.maxEntries) this.pop();
    this.nonces.add(nonce);
    this.heap.push({ nonce, expiresAtMillis });
    this.siftUp(this.heap.length - 1);
    return true;
  }

  /** Whether `nonce` was consumed and has not expired at `nowMillis`. */
  has(nonce: string, nowMillis: number): boolean {
    this.prune(nowMillis);
    return this.nonces.has(nonce);
  }

  get size(): number {
    return this.heap.length;
  }

  private prune(nowMillis: number): void {
    while (this.heap.length > 0 && (this.heap[0] as Consumed).expiresAtMillis <= nowMillis) this.pop();
  }

  private pop(): void {
    const top = this.heap[0] as Consumed;
    const last = this.heap.pop() as Consumed;
    this.nonces.delete(top.nonce);
    if (this.heap.length === 0) return;
    this.heap[0] = last;
    this.siftDown(0);
  }

  private siftUp(index: number): void {
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (this.at(parent) <= this.at(child)) return;
      this.swap(parent, child);
      child = parent;
    }
  }

  private siftDown(index: number): void {
    let parent = index;
    for (;;) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < this.heap.length && this.at(left) < this.at(smallest)) smallest = left;
      if (right < this.heap.length && this.at(right) < this.at(smallest)) smallest = right;
      if (smallest === parent) return;
      this.swap(parent, smallest);
      parent = smallest;
    }
  }

  private at(index: number): number {
    return (this.heap[index] as Consumed).expiresAtMillis;
  }

  private swap(a: number, b: number): void {
    const first = this.heap[a] as Consumed;
    this.heap[a] = this.heap[b] as Consumed;
    this.heap[b] = first;
  }
}
