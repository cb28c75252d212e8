/**
 * The bounds on open event streams (`eventStream.ts`): per reader and on the node. A slot is
 * taken before a stream answers and given back once, when its response closes, whatever closed
 * it; a full bound refuses the stream with RATE_LIMITED before anything is read.
 */

import { AddressSlots } from './addressSlots.js';

export class StreamSlots {
  private readonly perReader: AddressSlots;
  private open = 0;

  constructor(
    maxPerReader: number,
    private readonly maxInAll: number,
  ) {
    this.perReader = new AddressSlots(maxPerReader);
  }

  /** A release function, or the bound that is full. */
  take(readerKey: string): (() => void) | 'reader-full' | 'node-full' {
    if (this.open >= this.maxInAll) return 'node-full';
    const release = this.perReader.take(readerKey);
    if (release === undefined) return 'reader-full';
    this.open++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.open--;
      release();
    };
  }

  get size(): number {
    return this.open;
  }
}
