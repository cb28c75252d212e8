/**
 * Delivery for one process: a feed per Group with live subscribers, replay from the database,
 * and wake-ups. The table is the truth; a wake-up (a commit of this process, a NOTIFY from
 * another node, or the poll) only tells a feed to read the Group's Events after its head, in
 * sequence order, and offer each to its live subscriptions.
 *
 * A replay belongs to one subscription and ends with it: a closed subscription issues no more
 * reads, and `stopped` resolves once the read it had under way has come back, so a replaced
 * subscription's replay never runs beside its successor's and a closed connection's work ends
 * with it.
 */

import type { Logger } from 'pino';
import type { GroupAccess } from '../app/groupAccess.js';
import type { WireError } from '../app/wireError.js';
import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import { deliveryEventOf, type DeliveryEvent } from './deliveryEvent.js';
import { readReplayPage, type ReplayPage } from './replayPage.js';
import type { Subscription, SubscriptionHost } from './subscription.js';

const FEED_PAGE = 1_000;

/** Running totals for the operator metrics, read on scrape (src/transport/listenerMetrics.ts). */
export interface DeliveryTally {
  /** Events offered to live subscriptions plus Events replayed. */
  delivered: number;
  /** Events replayed from the database. */
  replayed: number;
  /** Groups paused for backpressure. */
  pauses: number;
}

class GroupFeed {
  readonly live = new Set<Subscription>();
  /** Every subscription of the Group on this process, replaying or live. */
  readonly members = new Set<Subscription>();
  private reading = false;
  private again = false;

  constructor(
    readonly groupId: string,
    public head: number,
    private readonly groups: GroupAccess,
    private readonly kinds: KindRegistry,
    private readonly logger: Logger,
    private readonly tally: DeliveryTally,
  ) {}

  wake(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void this.read().finally(() => {
      this.reading = false;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async read(): Promise<void> {
    try {
      for (;;) {
        const rows = await this.groups.eventsAfter(this.groupId, this.head, FEED_PAGE);
        for (const row of rows) this.offer(deliveryEventOf(this.kinds, row.document));
        if (rows.length < FEED_PAGE) return;
      }
    } catch (error) {
      // The poll wakes the feed again; nothing is lost while the database is away.
      this.logger.warn({ err: error, groupId: this.groupId }, 'feed read failed');
    }
  }

  /** Offers Events known to be the next ones (this process's own commits). */
  offer(event: DeliveryEvent): void {
    if (event.sequence !== this.head + 1) {
      if (event.sequence > this.head + 1) this.wake();
      return;
    }
    this.head = event.sequence;
    this.tally.delivered += this.live.size;
    for (const subscription of this.live) subscription.offer(event);
  }
}

export interface DeliveryHubOptions {
  /** Group Events and heads, and the read rule the Membership re-check applies. */
  readonly groups: GroupAccess;
  /** The kinds whose Event types say which Events may change a Membership. */
  readonly kinds: KindRegistry;
  readonly logger: Logger;
  readonly replayPageSize: number;
  /** The subscription was closed: the read rule now refuses it, for `error`. */
  readonly onMembershipLost: (subscription: Subscription, error: WireError) => void;
  readonly onPaused: (subscription: Subscription) => void;
  readonly retryAfterMs: number;
}

export class DeliveryHub implements SubscriptionHost {
  /** Told when a Group may have advanced (the read API's event streams, `transport/eventStream.ts`). */
  private readonly advanceListeners = new Map<string, Set<() => void>>();
  private readonly feeds = new Map<string, GroupFeed>();
  /** Each subscription's replays still under way (reads included), for `stopped`. */
  private readonly running = new Map<Subscription, Promise<void>>();
  private replaysUnderWay = 0;
  readonly tally: DeliveryTally = { delivered: 0, replayed: 0, pauses: 0 };

  constructor(private readonly options: DeliveryHubOptions) {}

  /** Replays under way on this process, reads in flight included. */
  get activeReplays(): number {
    return this.replaysUnderWay;
  }

  /**
   * Adds a `replaying` subscription to its Group's feed, creating the feed if needed; undefined
   * when the subscription closed meanwhile, so a closed one never stays a member.
   */
  private async join(subscription: Subscription): Promise<GroupFeed | undefined> {
    const { groupId } = subscription;
    const head = this.feeds.has(groupId) ? 0 : ((await this.options.groups.lastSequence(groupId)) ?? 0);
    if (subscription.mode !== 'replaying') return undefined;
    let feed = this.feeds.get(groupId);
    if (feed === undefined) {
      feed = new GroupFeed(groupId, head, this.options.groups, this.options.kinds, this.options.logger, this.tally);
      this.feeds.set(groupId, feed);
    }
    feed.members.add(subscription);
    feed.live.delete(subscription);
    return feed;
  }

  /** Replays a `replaying` subscription until it reaches its feed, then makes it live. */
  replay(subscription: Subscription): void {
    this.replaysUnderWay++;
    const run = this.replayLoop(subscription)
      .catch((error: unknown) => {
        this.options.logger.warn({ err: error, groupId: subscription.groupId }, 'replay failed; retrying');
        setTimeout(() => subscription.mode === 'replaying' && this.replay(subscription), this.options.retryAfterMs).unref();
      })
      .finally(() => this.replaysUnderWay--);
    const all: Promise<void> = Promise.all([this.running.get(subscription), run]).then(() => {
      if (this.running.get(subscription) === all) this.running.delete(subscription);
    });
    this.running.set(subscription, all);
  }

  /** Resolves once no replay of this subscription is under way (no read in flight either). */
  stopped(subscription: Subscription): Promise<void> {
    return this.running.get(subscription) ?? Promise.resolve();
  }

  /**
   * Reads page k+1 while page k is being sent: the database and the socket work side by side.
   * A page that does not start right after the subscription's position (it moved meanwhile)
   * is dropped and read again from the position, which is always the truth.
   */
  private async replayLoop(subscription: Subscription): Promise<void> {
    const feed = await this.join(subscription);
    if (feed === undefined) return;
    const pageSize = this.options.replayPageSize;
    let next: Promise<ReplayPage> | undefined = this.readPage(subscription.groupId, subscription.position);
    try {
      while (subscription.mode === 'replaying' && next !== undefined) {
        const { sequences, wires, changesMembership } = await next;
        next = undefined;
        if (subscription.mode !== 'replaying') return;
        const count = sequences.length;
        if (count > 0 && sequences[0] !== subscription.position + 1) {
          next = this.readPage(subscription.groupId, subscription.position);
          continue;
        }
        const full = count === pageSize;
        if (full) next = this.readPage(subscription.groupId, sequences[count - 1] as number);
        await subscription.roomForMore();
        if (subscription.mode !== 'replaying') return;
        for (let i = 0; i < count; i++) {
          if (subscription.mode !== 'replaying') return;
          subscription.queueFrame(sequences[i] as number, wires[i] as Buffer, changesMembership[i] as boolean);
          this.tally.delivered++;
          this.tally.replayed++;
        }
        if (full) continue;
        // Synchronously, with no await in between: either there is more to read, or every Event
        // up to the feed's head has been queued and the subscription joins the feed.
        if (subscription.position >= feed.head) {
          subscription.mode = 'live';
          feed.live.add(subscription);
          return;
        }
        next = this.readPage(subscription.groupId, subscription.position);
      }
    } finally {
      // A replay has ended only when its prefetched read has come back too (`stopped`).
      if (next !== undefined) await next.catch(() => undefined);
    }
  }

  /** One replay page; a prefetched page nobody awaits any more must not reject unhandled. */
  private readPage(groupId: string, after: number): Promise<ReplayPage> {
    const page = readReplayPage(this.options.kinds, (onEvent) => this.options.groups.replayEventsAfter(groupId, after, this.options.replayPageSize, onEvent));
    page.catch(() => undefined);
    return page;
  }

  recheckMembership(subscription: Subscription): void {
    void this.options.groups.authorizeRead(subscription.groupId, subscription.agentId, { purpose: 'recheck' }).then(
      (access) => {
        if (!access.ok && subscription.mode !== 'closed') {
          this.unsubscribe(subscription);
          this.options.onMembershipLost(subscription, access.error);
        }
      },
      (error: unknown) => this.options.logger.warn({ err: error }, 'membership re-check failed'),
    );
  }

  paused(subscription: Subscription): void {
    this.tally.pauses++;
    this.feeds.get(subscription.groupId)?.live.delete(subscription);
    this.options.onPaused(subscription);
    this.resumeLater(subscription);
  }

  /** While the socket stays full (a client that does not read), a replay would only pause again. */
  private resumeLater(subscription: Subscription): void {
    setTimeout(() => {
      if (subscription.mode !== 'paused') return;
      if (subscription.congested) {
        this.resumeLater(subscription);
        return;
      }
      subscription.mode = 'replaying';
      this.replay(subscription);
    }, this.options.retryAfterMs).unref();
  }

  unsubscribe(subscription: Subscription): void {
    subscription.close();
    const feed = this.feeds.get(subscription.groupId);
    feed?.live.delete(subscription);
    feed?.members.delete(subscription);
    if (feed !== undefined && feed.members.size === 0) this.feeds.delete(subscription.groupId);
  }

  /** Calls `listener` whenever the Group may have advanced, until the returned function is called. */
  onAdvance(groupId: string, listener: () => void): () => void {
    const listeners = this.advanceListeners.get(groupId) ?? new Set();
    this.advanceListeners.set(groupId, listeners.add(listener));
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.advanceListeners.get(groupId) === listeners) this.advanceListeners.delete(groupId);
    };
  }

  private advanced(groupId: string): void {
    for (const listener of this.advanceListeners.get(groupId) ?? []) listener();
  }

  /** Events this process committed: offered directly, in order, without a database read. */
  committed(events: readonly { groupId: string | undefined; sequence: number | undefined; text: string }[]): void {
    for (const groupId of new Set(events.map((event) => event.groupId))) if (groupId !== undefined) this.advanced(groupId);
    for (const event of events) {
      if (event.groupId === undefined || event.sequence === undefined) continue;
      const feed = this.feeds.get(event.groupId);
      if (feed !== undefined) feed.offer(deliveryEventOf(this.options.kinds, event.text));
    }
  }

  /** Another node advanced these Groups (a NOTIFY hint, or the poll). */
  wake(groupId: string, lastSequence?: number): void {
    this.advanced(groupId);
    const feed = this.feeds.get(groupId);
    if (feed !== undefined && (lastSequence === undefined || lastSequence > feed.head)) feed.wake();
  }

  /** The Groups this process delivers live, with the heads they have reached. */
  heads(): Map<string, number> {
    return new Map([...this.feeds].map(([groupId, feed]) => [groupId, feed.head]));
  }
}
