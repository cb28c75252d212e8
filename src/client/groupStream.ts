/**
 * One subscribed Group on the Agent's side (§16, §17.2): at-least-once Events in, each Event
 * handed to the handlers exactly once and in sequence order, the Cursor advanced only after the
 * handlers resolved and the CursorStore saved it, then acknowledged.
 *
 * - `cursor` — the highest sequence processed and saved.
 * - `horizon` — the highest contiguous sequence received: the Cursor plus the Events queued for
 *   the handlers. Anything at or below it, or with an Event ID already seen, is a duplicate.
 * - An Event beyond `horizon + 1` is a gap. It is held aside (bounded), never processed and
 *   never counted into the Cursor; if the gap has not closed after `gapGraceMs` — a Command's
 *   own answer may overtake the subscription, so a brief wait saves a round trip — the Group is
 *   subscribed again from its horizon, waiting longer after each try.
 *
 * The server starts a replay at `max(afterSequence, visibilityStartSequence - 1)` without saying
 * so, and a Member added late cannot see what came before. That is not a gap, and two pieces of
 * evidence tell it apart: the Agent's own `membership.changed` Event, whose Membership names
 * `visibilityStartSequence`; and, for a Group without an attention filter, the first Event of
 * the first SUBSCRIBE of the Group on a connection (no older subscription can still be
 * sending), which is exactly where the server started. Either moves the horizon up to just
 * below the visible history. With a filter that first Event may be a live one that the filter
 * let through after others it held back, so it proves nothing.
 */

import type { CursorStore } from './cursorStore.js';
import type { Attention, GroupEvent } from './documents.js';
import { AgentClientError, type AgentError } from './errors.js';
import { AHEAD_LIMIT, MAX_GAP_DELAY_MS, SEEN_EVENT_IDS } from './limits.js';

/** Receives each Event of a subscribed Group once, in order; throw to have it delivered again. */
export type EventHandler = (event: GroupEvent, groupId: string) => Promise<void> | void;

export interface GroupStreamDeps {
  readonly agentId: string;
  readonly handlers: () => readonly EventHandler[];
  readonly store: CursorStore;
  readonly acknowledge: (groupId: string, sequence: number) => void;
  /** Sends SUBSCRIBE for the Group from its horizon on the open connection. */
  readonly resubscribe: (stream: GroupStream) => void;
  readonly report: (error: AgentError) => void;
  readonly gapGraceMs: number;
  /** Delay before the n-th retry of a failed handler or save. */
  readonly retryDelayMs: (attempt: number) => number;
}

/** `restoring`: paused while a CURSOR_TOO_OLD snapshot is restored; `failed`: refused by the server. */
export type GroupState = 'active' | 'restoring' | 'failed' | 'stopped';


export class GroupStream {
  state: GroupState = 'active';
  horizon: number;
  private firstAfter: number | undefined;
  private readonly queue: GroupEvent[] = [];
  private readonly ahead = new Map<number, GroupEvent>();
  private readonly seen = new Set<string>();
  private draining: Promise<void> | undefined;
  private gapTimer: NodeJS.Timeout | undefined;
  private gapDelay: number;
  private wake: (() => void) | undefined;
  /** The first sequence refused by verification: nothing from it on is taken. */
  private barrier: number | undefined;

  constructor(
    readonly groupId: string,
    public cursor: number,
    readonly attention: Attention | undefined,
    private readonly deps: GroupStreamDeps,
  ) {
    this.horizon = cursor;
    this.gapDelay = deps.gapGraceMs;
  }

  /** A SUBSCRIBE from the horizon went out; `first` when no older subscription can be sending. */
  subscribed(first: boolean): void {
    this.firstAfter = first && this.attention === undefined ? this.horizon : undefined;
  }

  /** One received Event of this Group; `own` when a Command of this runtime caused it. */
  receive(event: GroupEvent, own: boolean): void {
    if (this.state !== 'active' || (this.barrier !== undefined && event.sequence >= this.barrier)) return;
    const first = this.firstAfter;
    if (first !== undefined && !own) this.firstAfter = undefined;
    const seq = event.sequence;
    if (seq <= this.horizon || this.seen.has(event.eventId)) return;
    if (seq > this.horizon + 1) {
      const visibleFrom = this.visibilityStart(event) ?? (first !== undefined && !own && seq > first + 1 ? seq : undefined);
      if (visibleFrom === undefined || visibleFrom > seq) {
        if (this.ahead.size < AHEAD_LIMIT) this.ahead.set(seq, event);
        this.armGapTimer();
        return;
      }
      // Hidden history, not a gap: the lowest visible Event held aside may be older still.
      this.horizon = Math.min(visibleFrom, ...this.ahead.keys()) - 1;
      if (seq > this.horizon + 1) this.ahead.set(seq, event);
      else this.accept(event);
    } else {
      this.accept(event);
    }
    for (let next = this.ahead.get(this.horizon + 1); next !== undefined; next = this.ahead.get(this.horizon + 1)) {
      this.ahead.delete(next.sequence);
      this.accept(next);
    }
    for (const held of this.ahead.keys()) if (held <= this.horizon) this.ahead.delete(held);
    if (this.ahead.size === 0) this.clearGap();
    this.kick();
  }

  /** Starts processing if there is something to do and someone to do it. */
  kick(): void {
    if (this.draining === undefined && this.queue.length > 0 && this.state === 'active') {
      this.draining = this.drain().finally(() => {
        this.draining = undefined;
        this.kick();
      });
    }
  }

  /**
   * The Event at `sequence` failed verification: neither it nor anything after it is taken, the
   * Events before it still reach the handlers, and then the Group stops (`failed`) with its
   * Cursor just before it — never skipped over. A refused copy of a sequence already received
   * changes nothing: the genuine one passed.
   */
  refuse(sequence: number): void {
    if (this.state !== 'active' || sequence <= this.horizon) return;
    this.barrier = Math.min(sequence, this.barrier ?? sequence);
    for (const held of this.ahead.keys()) if (held >= this.barrier) this.ahead.delete(held);
    this.clearGap();
    this.stopIfBarred();
  }

  private stopIfBarred(): void {
    if (this.barrier !== undefined && this.queue.length === 0 && this.state === 'active') this.state = 'failed';
  }

  /** Stops after the handler in progress; resolves once nothing runs. */
  async pause(state: 'restoring' | 'failed' | 'stopped'): Promise<void> {
    this.state = state;
    this.clearGap();
    this.wake?.();
    await this.draining;
  }

  /** Jumps to a restored snapshot's sequence and resumes from there. */
  restored(throughSequence: number): void {
    const to = Math.max(throughSequence, this.cursor);
    this.queue.length = 0;
    for (const held of this.ahead.keys()) if (held <= to) this.ahead.delete(held);
    this.cursor = to;
    this.horizon = to;
    this.barrier = undefined;
    this.state = 'active';
  }

  /** The connection closed: the next one replays from the horizon, so nothing held aside is needed. */
  disconnected(): void {
    this.firstAfter = undefined;
    this.ahead.clear();
    this.clearGap();
  }

  /** The visibility start this Event proves for the Agent, if it is the Agent's own Membership. */
  private visibilityStart(event: GroupEvent): number | undefined {
    if (event.kind !== 'membership.changed') return undefined;
    const membership = event.payload['membership'] as Record<string, unknown> | undefined;
    const member = membership?.['member'] as Record<string, unknown> | undefined;
    const start = membership?.['visibilityStartSequence'];
    if (member?.['type'] !== 'agent' || member['id'] !== this.deps.agentId || typeof start !== 'number') return undefined;
    return start > this.horizon + 1 ? start : undefined;
  }

  private accept(event: GroupEvent): void {
    this.queue.push(event);
    this.horizon = event.sequence;
    this.seen.add(event.eventId);
    if (this.seen.size > SEEN_EVENT_IDS) this.seen.delete(this.seen.values().next().value as string);
  }

  private async drain(): Promise<void> {
    for (let event = this.queue[0]; event !== undefined && this.state === 'active'; event = this.queue[0]) {
      const handlers = this.deps.handlers();
      if (handlers.length === 0) return;
      const current = event;
      const handled = await this.persevere('HANDLER_FAILED', `a handler failed on ${current.kind} #${current.sequence}`, async () => {
        for (const handler of handlers) await handler(current, this.groupId);
      });
      if (!handled) return;
      const saved = await this.persevere('CURSOR_STORE_FAILED', `cannot save Cursor ${current.sequence}`, () => this.deps.store.save(this.groupId, current.sequence));
      if (!saved) return;
      if (this.queue[0] !== current) return; // a restore replaced the queue meanwhile
      this.queue.shift();
      this.cursor = current.sequence;
      this.deps.acknowledge(this.groupId, current.sequence);
      this.stopIfBarred();
    }
  }

  /** Runs `work` until it succeeds, reporting each failure; false if the Group stopped meanwhile. */
  private async persevere(code: 'HANDLER_FAILED' | 'CURSOR_STORE_FAILED', message: string, work: () => Promise<void>): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await work();
        return true;
      } catch (error) {
        this.deps.report(new AgentClientError(code, `${message}: ${(error as Error)?.message ?? String(error)}`, { groupId: this.groupId, cause: error }));
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.deps.retryDelayMs(attempt));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
      if (this.state !== 'active') return false;
    }
  }

  private armGapTimer(): void {
    if (this.gapTimer !== undefined || this.state !== 'active') return;
    const mark = this.horizon;
    this.gapTimer = setTimeout(() => {
      this.gapTimer = undefined;
      if (this.ahead.size === 0 || this.state !== 'active') return;
      if (this.horizon === mark) {
        this.deps.resubscribe(this);
        this.gapDelay = Math.min(this.gapDelay * 2, MAX_GAP_DELAY_MS);
      }
      this.armGapTimer();
    }, this.gapDelay);
    this.gapTimer.unref();
  }

  private clearGap(): void {
    if (this.gapTimer !== undefined) clearTimeout(this.gapTimer);
    this.gapTimer = undefined;
    this.gapDelay = this.deps.gapGraceMs;
  }
}
