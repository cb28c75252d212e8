/**
 * One connection's sending side: frames that answer the client directly go first, then Group
 * Event frames taken round-robin from the subscriptions that have some queued, so a noisy
 * Group cannot starve another (§8). Draining stops while the socket holds more than its
 * high-water mark and resumes when the socket reports it has drained (`drained()`). Group frames
 * are queued already framed for the wire (`wireFrame.ts`); those that lie end to end in memory
 * (a replay page's, cut from one slab) are written as one.
 *
 * Everything queued here is bounded in bytes (§17.3): Group frames by a budget their
 * subscriptions draw on (a Group that crosses it is paused), direct answers by a bound past
 * which the client is a slow consumer and `overflowed` closes the connection. Closing drops
 * everything queued at once.
 */

export interface FrameSink {
  /** Bytes accepted but not yet written to the network. */
  readonly bufferedAmount: number;
  /** Sends one text frame. */
  send(frame: string): void;
  /** Writes whole text frames already framed for the wire, after everything sent before. */
  write(wires: Buffer): void;
}

/** A source of queued Group frames (a subscription). */
export interface FrameSource {
  /** The next wire frame to send, or undefined when empty. */
  take(): Buffer | undefined;
  readonly queued: number;
}

/** The bounds of `TransportLimits` an outbox applies. */
export interface OutboxBounds {
  readonly socketHighWaterBytes: number;
  readonly maxQueuedReplyBytes: number;
  readonly maxQueuedEventBytes: number;
}

/** The size a queued frame is counted at: a JSON frame's characters are (at least) its bytes. */
function sizeOf(frame: string): number {
  return frame.length;
}

export class Outbox {
  private readonly direct: string[] = [];
  private directBytes = 0;
  private eventBytes = 0;
  private readonly ring: FrameSource[] = [];
  private readonly inRing = new Set<FrameSource>();
  private draining = false;
  private closed = false;

  constructor(
    private readonly sink: FrameSink,
    private readonly bounds: OutboxBounds,
    /** The direct answers outgrew their bound: the connection must close (a slow consumer). */
    private readonly overflowed: () => void,
  ) {}

  /** Bytes queued here and not yet handed to the socket: direct answers and Group frames. */
  get queuedBytes(): number {
    return this.directBytes + this.eventBytes;
  }

  /** The socket is full: a paused Group waits for it to drain before replaying again. */
  get congested(): boolean {
    return this.closed || this.sink.bufferedAmount >= this.bounds.socketHighWaterBytes;
  }

  /** Queues a frame that answers the client (HELLO, ERROR, Command results, PING). */
  send(frame: string): void {
    if (this.closed) return;
    this.direct.push(frame);
    this.directBytes += sizeOf(frame);
    this.drain();
    if (this.directBytes > this.bounds.maxQueuedReplyBytes) {
      this.close();
      this.overflowed();
    }
  }

  /**
   * A subscription queued `bytes` of Group frames; false when that crossed the connection's
   * budget and the Group must pause (it then gives the bytes back with `released`).
   */
  held(bytes: number): boolean {
    this.eventBytes += bytes;
    return this.eventBytes <= this.bounds.maxQueuedEventBytes;
  }

  /** A subscription's queued bytes were sent or dropped. */
  released(bytes: number): void {
    this.eventBytes = Math.max(0, this.eventBytes - bytes);
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
    this.directBytes = 0;
    this.ring.length = 0;
    this.inRing.clear();
  }

  /** The next Group frame, taken round-robin from the sources with frames queued. */
  private nextWire(): Buffer | undefined {
    while (this.ring.length > 0) {
      const source = this.ring.shift() as FrameSource;
      const wire = source.take();
      if (source.queued > 0) this.ring.push(source);
      else this.inRing.delete(source);
      if (wire !== undefined) return wire;
    }
    return undefined;
  }

  /** The socket's buffer emptied: carry on sending. */
  drained(): void {
    this.drain();
  }

  /**
   * Sends direct answers first, then Group frames. Consecutive Group frames adjacent in memory
   * are gathered into one `run` and written at once; the run counts against the high-water
   * mark before it is written.
   */
  private drain(): void {
    if (this.draining || this.closed) return;
    this.draining = true;
    let run: Buffer | undefined;
    let runEnd = 0;
    const flush = (): void => {
      if (run === undefined) return;
      const bytes = runEnd === run.byteOffset + run.length ? run : Buffer.from(run.buffer, run.byteOffset, runEnd - run.byteOffset);
      run = undefined;
      this.sink.write(bytes);
    };
    try {
      // Past the high-water mark the socket has refused a write, so it will report `drain`.
      while (this.sink.bufferedAmount + (run === undefined ? 0 : runEnd - run.byteOffset) < this.bounds.socketHighWaterBytes) {
        const direct = this.direct.shift();
        if (direct !== undefined) {
          flush();
          this.directBytes -= sizeOf(direct);
          this.sink.send(direct);
          continue;
        }
        const wire = this.nextWire();
        if (wire === undefined) break;
        if (run !== undefined && wire.buffer === run.buffer && wire.byteOffset === runEnd) {
          runEnd += wire.length;
          continue;
        }
        flush();
        run = wire;
        runEnd = wire.byteOffset + wire.length;
      }
    } finally {
      // Frames taken from their queues are written even if a send threw, so none is skipped.
      try {
        flush();
      } finally {
        this.draining = false;
      }
    }
  }
}
