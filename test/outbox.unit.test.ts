/**
 * The bounds of a connection's sending side (src/delivery/outbox.ts, subscription.ts,
 * controlQueue.ts), counted in bytes: direct answers past their bound close the connection,
 * a Group whose queued Events cross the connection's budget is paused alone, and the control
 * queue refuses what does not fit and runs nothing after it is cancelled.
 */

import { describe, expect, it } from 'vitest';
import { ControlQueue } from '../src/delivery/controlQueue.js';
import type { DeliveryEvent } from '../src/delivery/deliveryEvent.js';
import { Outbox, type FrameSink } from '../src/delivery/outbox.js';
import { Subscription, type SubscriptionHost } from '../src/delivery/subscription.js';

/** A socket that never drains: everything sent stays above the high-water mark. */
function stuckSink(): FrameSink & { sent: number } {
  return { bufferedAmount: 1_000, sent: 0, send() { this.sent++; }, write() { this.sent++; } };
}

/** A socket that records each call in order and holds what it was given. */
interface RecordingSink {
  calls: string[];
  bufferedAmount: number;
  send(frame: string): void;
  write(wires: Buffer): void;
}

function recordingSink(): RecordingSink {
  return {
    calls: [],
    bufferedAmount: 0,
    send(frame) { this.calls.push(`send ${frame}`); this.bufferedAmount += frame.length; },
    write(wires) { this.calls.push(`write ${wires.toString('latin1')}`); this.bufferedAmount += wires.length; },
  };
}

const bounds = { socketHighWaterBytes: 1_000, maxQueuedReplyBytes: 10_000, maxQueuedEventBytes: 5_000 };

function eventAt(sequence: number, bytes: number): DeliveryEvent {
  return { groupId: 'urn:g', sequence, eventId: `urn:e:${sequence}`, kind: 'message.posted', conversationId: undefined, workItemId: undefined, mentions: [], addressees: [], announcement: false, changesMembership: false, frame: Buffer.alloc(bytes, 0x20), wire: Buffer.alloc(bytes, 0x20) };
}

describe('Outbox', () => {
  it('closes a client whose unread answers pass the bound, and drops them', () => {
    let overflows = 0;
    const outbox = new Outbox(stuckSink(), bounds, () => overflows++);
    for (let i = 0; i < 9; i++) outbox.send('x'.repeat(1_000));
    expect(outbox.queuedBytes).toBe(9_000);
    expect(overflows).toBe(0);
    outbox.send('x'.repeat(1_001));
    expect(overflows).toBe(1);
    expect(outbox.queuedBytes).toBe(0);
    outbox.send('x'.repeat(20_000));
    expect(overflows).toBe(1);
  });

  it('pauses the Group whose Events cross the byte budget, and gives its bytes back', () => {
    const outbox = new Outbox(stuckSink(), bounds, () => undefined);
    const paused: string[] = [];
    const host: SubscriptionHost = { replay: () => undefined, recheckMembership: () => undefined, paused: (s) => void paused.push(s.groupId) };
    const subscription = new Subscription('urn:g', 'urn:a', 0, undefined, 1_000, outbox, host);
    subscription.mode = 'live';
    for (let sequence = 1; sequence <= 4; sequence++) subscription.offer(eventAt(sequence, 1_000));
    expect(outbox.queuedBytes).toBe(4_000);
    expect(paused).toEqual([]);
    subscription.offer(eventAt(5, 1_001));
    expect(paused).toEqual(['urn:g']);
    expect(subscription.mode).toBe('paused');
    expect(outbox.queuedBytes).toBe(0);
  });
});

describe('Outbox writes', () => {
  it('gathers Group frames adjacent in memory into one write, answers first, within the high-water mark', () => {
    const sink = recordingSink();
    const outbox = new Outbox(sink, { ...bounds, socketHighWaterBytes: 10 }, () => undefined);
    const host: SubscriptionHost = { replay: () => undefined, recheckMembership: () => undefined, paused: () => undefined };
    const slab = Buffer.from('aabbccddeeff', 'latin1');
    const a = new Subscription('urn:g:a', 'urn:a', 0, undefined, 1_000, outbox, host);
    // Adjacent in one slab: a, b, c; then d after a gap; then a frame of another buffer.
    sink.bufferedAmount = 100; // full: frames queue until the socket drains
    a.queueFrame(1, slab.subarray(0, 2), false);
    a.queueFrame(2, slab.subarray(2, 4), false);
    a.queueFrame(3, slab.subarray(4, 6), false);
    a.queueFrame(4, slab.subarray(8, 10), false);
    a.queueFrame(5, Buffer.from('zz'), false);
    a.queueFrame(6, slab.subarray(10, 12), false);
    outbox.send('hi');
    expect(sink.calls).toEqual([]);
    sink.bufferedAmount = 0;
    outbox.drained();
    // 'hi' (2) + aabbcc (6) fill 8 of 10; ee (2 more) reaches the mark, so it goes and the rest waits.
    expect(sink.calls).toEqual(['send hi', 'write aabbcc', 'write ee']);
    expect(a.sentPosition).toBe(4);
    sink.bufferedAmount = 0;
    outbox.drained();
    expect(sink.calls.slice(3)).toEqual(['write zz', 'write ff']);
    expect(a.sentPosition).toBe(6);
    expect(outbox.queuedBytes).toBe(0);
  });
});

describe('ControlQueue', () => {
  it('refuses frames past its bounds and runs none after it is cancelled', async () => {
    const queue = new ControlQueue({ maxQueuedControlFrames: 3, maxQueuedControlBytes: 100 });
    const ran: number[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    expect(queue.push(10, () => held.then(() => void ran.push(1)))).toBe(true);
    expect(queue.push(10, async () => void ran.push(2))).toBe(true);
    expect(queue.push(81, async () => void ran.push(3))).toBe(false);
    expect(queue.push(10, async () => void ran.push(4))).toBe(true);
    expect(queue.push(10, async () => void ran.push(5))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    queue.cancel();
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(ran).toEqual([1]);
    expect(queue.queued).toBe(0);
  });
});
