/**
 * The SUBSCRIBE, ACK and PING frames of one connection, run one at a time in arrival order so
 * that a Group's replay positions and its Cursors keep the order the client sent them in
 * (§17.2–17.3). What waits here is bounded in frames and bytes: past either bound a frame is
 * refused at once (the caller answers RATE_LIMITED) instead of parking more work and memory on
 * the server. Cancelling (the connection is closing) drops every frame still waiting, unrun.
 */

/** The bounds of `TransportLimits` a control queue applies. */
export interface ControlQueueBounds {
  readonly maxQueuedControlFrames: number;
  readonly maxQueuedControlBytes: number;
}

export class ControlQueue {
  private tail: Promise<void> = Promise.resolve();
  private frames = 0;
  private bytes = 0;
  private cancelled = false;

  constructor(private readonly bounds: ControlQueueBounds) {}

  /** Frames waiting or running. */
  get queued(): number {
    return this.frames;
  }

  /**
   * Queues `run` (which must not reject) behind the frames before it; false when the queue is
   * full and the frame is refused. After `cancel` nothing runs, and nothing is refused either.
   */
  push(bytes: number, run: () => Promise<void>): boolean {
    if (this.cancelled) return true;
    if (this.frames >= this.bounds.maxQueuedControlFrames || this.bytes + bytes > this.bounds.maxQueuedControlBytes) return false;
    this.frames++;
    this.bytes += bytes;
    this.tail = this.tail.then(async () => {
      try {
        if (!this.cancelled) await run();
      } finally {
        this.frames--;
        this.bytes -= bytes;
      }
    });
    return true;
  }

  /** The connection is closing: the frames still waiting are dropped without running. */
  cancel(): void {
    this.cancelled = true;
  }
}
