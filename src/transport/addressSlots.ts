/**
 * Per-address connection caps that cannot leak. A slot is taken only for a socket that holds a
 * resource now, and is given back when that socket closes, whatever closed it: a refused
 * upgrade, a TLS or socket error, the peer, a timeout or the server. Counting anything that
 * might never close (an upgrade request that is refused before it becomes a connection) would
 * lock an address out until restart (issue 10, item 1), and behind a NAT that is everyone.
 */

import type { Socket } from 'node:net';

export class AddressSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Slots `address` holds now. */
  heldBy(address: string): number {
    return this.held.get(address) ?? 0;
  }

  /**
   * Takes a slot for `address` until `release` is called (which may be called any number of
   * times); undefined, taking nothing, when the address already holds `limit` slots.
   */
  take(address: string): (() => void) | undefined {
    const count = this.heldBy(address);
    if (count >= this.limit) return undefined;
    this.held.set(address, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.heldBy(address) - 1;
      if (left <= 0) this.held.delete(address);
      else this.held.set(address, left);
    };
  }

  /**
   * Takes a slot held while `socket` is open; undefined when the address is at its limit or the
   * socket is already gone (its 'close' may have been emitted, so nothing would give it back).
   */
  holdWhileOpen(address: string, socket: Socket): (() => void) | undefined {
    if (socket.destroyed) return undefined;
    const release = this.take(address);
    if (release !== undefined) socket.once('close', release);
    return release;
  }
}
