/**
 * Frames are handled in the order they arrived, even when one waits: an Event whose signature
 * needs a fresh Registry read holds back every frame behind it (a later Event of the same Group
 * must not overtake it, and an ERROR must not overtake the Events sent before it). While
 * nothing waits, a frame is handled at once, in the same turn it arrived.
 */

/** Frames held behind a waiting one; past this the server is flooding a stalled Agent. */
export const MAX_HELD_FRAMES = 4096;

export type FrameHandling = void | Promise<void>;

export class FrameInbox<T> {
  private readonly held: T[] = [];
  private waiting = false;

  /** `overflow` is told when the bound is reached; that frame and the held ones are discarded. */
  constructor(
    private readonly handle: (item: T) => FrameHandling,
    private readonly overflow: (item: T) => void,
    private readonly failed: (error: unknown) => void,
  ) {}

  push(item: T): void {
    if (this.waiting) {
      if (this.held.length >= MAX_HELD_FRAMES) {
        this.held.length = 0;
        this.overflow(item);
        return;
      }
      this.held.push(item);
      return;
    }
    this.start(item);
  }

  /** Handles one frame; a pending outcome makes the frames behind it wait. */
  private start(item: T): void {
    let outcome: FrameHandling;
    try {
      outcome = this.handle(item);
    } catch (error) {
      this.failed(error);
      return;
    }
    if (outcome === undefined) return;
    this.waiting = true;
    outcome
      .catch((error: unknown) => this.failed(error))
      .finally(() => {
        this.waiting = false;
        this.drain();
      });
  }

  private drain(): void {
    while (!this.waiting) {
      const item = this.held.shift();
      if (item === undefined) return;
      this.start(item);
    }
  }
}
