/**
 * One Group on one connection (§16–17): replay from the Cursor, then live, with no gap and no
 * reordering at the seam. `position` is the last sequence handed to the queue (or skipped by the
 * attention filter); a live Event that is not exactly `position + 1` sends the subscription back
 * to replay from the database, which is always the truth. A queue that outgrows its bound (in
 * Events, or the connection's budget of queued bytes) pauses the Group alone (BACKPRESSURE) and
 * resumes later by replay from what was really sent.
 */

import { attends, type Attention, type DeliveryEvent } from './deliveryEvent.js';
import type { FrameSource, Outbox } from './outbox.js';

export type SubscriptionMode = 'replaying' | 'live' | 'paused' | 'closed';

export interface SubscriptionHost {
  /** Starts (or continues) replay for a subscription that is `replaying`. */
  replay(subscription: Subscription): void;
  /** Re-checks the subscriber's Membership after an Event that may have changed it. */
  recheckMembership(subscription: Subscription): void;
  /** Tells the client its Group was paused; the host resumes it later. */
  paused(subscription: Subscription): void;
}

export class Subscription implements FrameSource {
  mode: SubscriptionMode = 'replaying';
  /** Last sequence queued or skipped. */
  position: number;
  /** Last sequence actually taken for sending (or skipped with nothing pending). */
  sentPosition: number;
  /** Queued wire frames (`wireFrame.ts`) and their sequences, as parallel arrays (no object per replayed Event). */
  private readonly queue: Buffer[] = [];
  private readonly queueSequences: number[] = [];
  /** Bytes of `queue`, drawn on the connection's budget (`Outbox.held`). */
  private queuedBytes = 0;
  private drainedWaiters: (() => void)[] = [];

  constructor(
    readonly groupId: string,
    readonly agentId: string,
    afterSequence: number,
    readonly attention: Attention | undefined,
    private readonly limit: number,
    private readonly outbox: Outbox,
    private readonly host: SubscriptionHost,
  ) {
    this.position = afterSequence;
    this.sentPosition = afterSequence;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** The connection's socket is full: resuming now would only pause again. */
  get congested(): boolean {
    return this.outbox.congested;
  }

  take(): Buffer | undefined {
    const frame = this.queue.shift();
    const sequence = this.queueSequences.shift();
    if (frame === undefined || sequence === undefined) return undefined;
    this.queuedBytes -= frame.length;
    this.outbox.released(frame.length);
    this.sentPosition = this.queue.length === 0 ? this.position : sequence;
    if (this.queue.length <= this.limit / 2) this.wakeWaiters();
    return frame;
  }

  /** Resolves once the queue has room for another replay page. */
  roomForMore(): Promise<void> {
    if (this.queue.length <= this.limit / 2) return Promise.resolve();
    return new Promise((resolve) => this.drainedWaiters.push(resolve));
  }

  /** Delivers one live Event in order, if it passes the attention filter. */
  deliver(event: DeliveryEvent): void {
    if (event.sequence !== this.position + 1) return;
    if (attends(this.attention, event, this.agentId)) {
      this.queueFrame(event.sequence, event.wire, event.changesMembership);
      return;
    }
    this.position = event.sequence;
    if (this.queue.length === 0) this.sentPosition = this.position;
    if (event.changesMembership) this.host.recheckMembership(this);
  }

  /** Queues one Event's wire frame, in order: a replayed Event, or a live one that passed the filter. */
  queueFrame(sequence: number, wire: Buffer, changesMembership: boolean): void {
    if (sequence !== this.position + 1) return;
    this.position = sequence;
    this.queue.push(wire);
    this.queueSequences.push(sequence);
    this.queuedBytes += wire.length;
    const withinBudget = this.outbox.held(wire.length);
    this.outbox.ready(this);
    if (changesMembership) this.host.recheckMembership(this);
    if (this.queue.length > this.limit || !withinBudget) this.pause();
  }

  /** The feed offers each new Event of the Group to its live subscriptions. */
  offer(event: DeliveryEvent): void {
    if (this.mode !== 'live' || event.sequence <= this.position) return;
    if (event.sequence !== this.position + 1) {
      // A gap: this process missed Events; the database has them.
      this.mode = 'replaying';
      this.host.replay(this);
      return;
    }
    this.deliver(event);
  }

  private pause(): void {
    this.dropQueue();
    this.position = this.sentPosition;
    this.mode = 'paused';
    this.wakeWaiters();
    this.host.paused(this);
  }

  close(): void {
    this.mode = 'closed';
    this.dropQueue();
    this.wakeWaiters();
  }

  private dropQueue(): void {
    this.queue.length = 0;
    this.queueSequences.length = 0;
    this.outbox.released(this.queuedBytes);
    this.queuedBytes = 0;
  }

  private wakeWaiters(): void {
    const waiters = this.drainedWaiters;
    this.drainedWaiters = [];
    for (const wake of waiters) wake();
  }
}
