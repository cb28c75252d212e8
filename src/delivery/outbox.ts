/**
 * One connection's sending side: frames that answer the client directly go first, then Group
 * Event frames taken round-robin from the subscriptions that have some queued, so a noisy
 * Group cannot starve another (§8). Draining stops while the socket holds more than its
 * high-water mark and resumes when the socket reports it has drained (`drained()`).
 */

export interface FrameSink {
  /** Bytes accepted but not yet written to the network. */
  readonly bufferedAmount: number;
  /** Sends one text frame (a Buffer holds its UTF-8 bytes, encoded once for many sockets). */
  send(frame: string | Buffer): void;
}

/** A source of queued Group frames (a subscription). */
export interface FrameSource {
  /** The next frame to send, or undefined when empty. */
  take(): Buffer | undefined;
  readonly queued: number;
}

export class Outbox {
  private readonly direct: string[] = [];
  private readonly ring: FrameSource[] = [];
  private readonly inRing = new Set<FrameSource>();
  private draining = false;
  private closed = false;

  constructor(
    private readonly sink: FrameSink,
    private readonly highWaterBytes: number,
  ) {}

  /** Queues a frame that answers the client (HELLO, ERROR, Command results, PING). */
  send(frame: string): void {
    if (this.closed) return;
    this.direct.push(frame);
    this.drain();
  }

  /** A source has frames queued. */
  ready(source: FrameSource): void {
    if (this.closed || this.inRing.has(source)) return;
    this.inRing.add(source);
    this.ring.push(source);
    this.drain();
  }

  close(): void {
    this.closed = true;
    this.direct.length = 0;
    this.ring.length = 0;
    this.inRing.clear();
  }

  private next(): string | Buffer | undefined {
    const direct = this.direct.shift();
    if (direct !== undefined) return direct;
    while (this.ring.length > 0) {
      const source = this.ring.shift() as FrameSource;
      const frame = source.take();
      if (source.queued > 0) this.ring.push(source);
      else this.inRing.delete(source);
      if (frame !== undefined) return frame;
    }
    return undefined;
  }

  /** The socket's buffer emptied: carry on sending. */
  drained(): void {
    this.drain();
  }

  private drain(): void {
    if (this.draining || this.closed) return;
    this.draining = true;
    try {
      // Past the high-water mark the socket has refused a write, so it will report `drain`.
      while (this.sink.bufferedAmount < this.highWaterBytes) {
        const frame = this.next();
        if (frame === undefined) return;
        this.sink.send(frame);
      }
    } finally {
      this.draining = false;
    }
  }
}
