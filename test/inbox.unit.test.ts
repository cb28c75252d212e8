/**
 * The SDK's frame inbox (src/client/inbox.ts): frames are handled in arrival order even when
 * one of them waits (a Registry read), at once when none waits, and a stalled inbox is bounded.
 */

import { describe, expect, it } from 'vitest';
import { FrameInbox, MAX_HELD_FRAMES } from '../src/client/inbox.js';

describe('FrameInbox', () => {
  it('handles frames at once while nothing waits, and in arrival order behind one that waits', async () => {
    const handled: number[] = [];
    let release: () => void = () => undefined;
    const inbox = new FrameInbox<number>(
      (n): Promise<void> | undefined => {
        if (n === 2) return new Promise<void>((resolve) => (release = resolve)).then(() => void handled.push(n));
        handled.push(n);
        return undefined;
      },
      () => undefined,
      (error) => { throw error; },
    );
    inbox.push(1);
    expect(handled).toEqual([1]);
    inbox.push(2);
    inbox.push(3);
    inbox.push(4);
    expect(handled).toEqual([1]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(handled).toEqual([1, 2, 3, 4]);
    inbox.push(5);
    expect(handled).toEqual([1, 2, 3, 4, 5]);
  });

  it('gives up on a stalled connection once the bound is reached, instead of growing', () => {
    const overflowed: number[] = [];
    const inbox = new FrameInbox<number>(() => new Promise<void>(() => undefined), (n) => overflowed.push(n), () => undefined);
    for (let n = 0; n <= MAX_HELD_FRAMES + 1; n++) inbox.push(n);
    expect(overflowed).toEqual([MAX_HELD_FRAMES + 1]);
  });
});
