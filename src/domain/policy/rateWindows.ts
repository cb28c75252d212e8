/**
 * Per-actor rate windows of one Group (§20 Message and proposal rates): the acceptance times of
 * each actor's recent `message.post` / `work.propose` in the last `RATE_WINDOW_MS`, and whether
 * the Coordinator was already told of the soft threshold in this window.
 *
 * The windows are derived state, never stored as rows: `message.post` is the hot path, and
 * persisting a window would add a row write to every Message. They live in the Group state the
 * app caches; when a Group's state is loaded from its rows (a restart, or another node taking the
 * Group) the app rebuilds them from the Group's recent Events of the kinds that count
 * (`WINDOW_EVENT_KINDS`, `rebuildRateWindows`), so a reload resets neither a count nor a notice.
 */

import { principalKey, type Principal } from '../../protocol/principal.js';
import { parseTimestamp } from '../../protocol/timestamp.js';
import type { EventMeta } from '../model.js';
import { MAX_RATE_WINDOW_ENTRIES, RATE_WINDOW_MS, type CooperationPolicy } from './cooperationLimits.js';

export interface RateWindow {
  /** Acceptance times (ms) inside the window, oldest first. */
  readonly times: readonly number[];
  /** The end of the window in which the soft threshold was already reported. */
  readonly noticedUntil?: number;
}

/**
 * A protocol timestamp in milliseconds since the epoch (sub-millisecond digits dropped); the
 * Authority's own acceptance times always parse, anything else counts as the epoch.
 */
export function timestampMillis(text: string): number {
  const instant = parseTimestamp(text);
  return instant === null ? 0 : instant.seconds * 1000 + Number(instant.fraction.slice(0, 3).padEnd(3, '0'));
}

/** The rate policy each counted Event kind feeds. */
const COUNTED_EVENTS: Readonly<Record<string, CooperationPolicy>> = {
  'message.posted': 'message_rate',
  'work.proposed': 'proposal_rate',
};

export function rateKey(policy: CooperationPolicy, actor: Principal): string {
  return `${policy} ${principalKey(actor)}`;
}

/** The times of `window` still inside the window that ends at `nowMillis`. */
export function liveTimes(window: RateWindow | undefined, nowMillis: number): readonly number[] {
  if (window === undefined) return [];
  const cutoff = nowMillis - RATE_WINDOW_MS;
  const first = window.times.findIndex((t) => t > cutoff);
  return first === -1 ? [] : first === 0 ? window.times : window.times.slice(first);
}

/** When the oldest counted time leaves the window: the reset a `RATE_LIMITED` refusal names. */
export function resetsAt(times: readonly number[]): number | undefined {
  const oldest = times[0];
  return oldest === undefined ? undefined : oldest + RATE_WINDOW_MS;
}

/**
 * Whether an actor's Messages and proposals count against the rates: an Agent's do. The rates
 * guard against runaway Agent cooperation (§20); a human's Commands are a person's own (the
 * MissionOwner is who escalates), and a service's are the Authority's.
 */
export function isRateLimited(actor: Principal): boolean {
  return actor.type === 'agent';
}

/** Counts an accepted Event into its actor's window; other Events leave the windows as they are. */
export function countInWindow(windows: ReadonlyMap<string, RateWindow>, kind: string, meta: EventMeta): ReadonlyMap<string, RateWindow> {
  const policy = COUNTED_EVENTS[kind];
  if (policy === undefined || !isRateLimited(meta.actor)) return windows;
  const at = timestampMillis(meta.occurredAt);
  const key = rateKey(policy, meta.actor);
  const window = windows.get(key);
  const kept = liveTimes(window, at);
  const times = [...(kept.length >= MAX_RATE_WINDOW_ENTRIES ? kept.slice(1) : kept), at];
  const next = new Map(windows);
  next.set(key, window?.noticedUntil === undefined ? { times } : { times, noticedUntil: window.noticedUntil });
  return next;
}

/** The soft-threshold notice (`policyEvents.ts`): a rebuilt window remembers it was given. */
export const THRESHOLD_NOTICE_KIND = 'ext.missionweave.core.cooperation_threshold_reached';

/** The Event kinds a rebuild reads: the counted ones and the notice. */
export const WINDOW_EVENT_KINDS: readonly string[] = [...Object.keys(COUNTED_EVENTS), THRESHOLD_NOTICE_KIND];

/** A stored Event as a rebuild needs it; `payload` only for the notice. */
export interface WindowEvent {
  readonly kind: string;
  readonly actor: Principal;
  readonly occurredAt: string;
  readonly sequence: number;
  readonly eventId: string;
  readonly payload?: { readonly policyName: CooperationPolicy; readonly principal: Principal; readonly windowEndsAt?: string };
}

/**
 * The windows as the Group's evolve built them, from its recent Events of `WINDOW_EVENT_KINDS`
 * in sequence order. Events older than a window drop out when a Command is judged (`liveTimes`).
 */
export function rebuildRateWindows(events: readonly WindowEvent[]): ReadonlyMap<string, RateWindow> {
  let windows: ReadonlyMap<string, RateWindow> = new Map();
  for (const event of events) {
    const notice = event.kind === THRESHOLD_NOTICE_KIND ? event.payload : undefined;
    if (notice === undefined) windows = countInWindow(windows, event.kind, event);
    else if (notice.windowEndsAt !== undefined) windows = markNoticed(windows, rateKey(notice.policyName, notice.principal), timestampMillis(notice.windowEndsAt));
  }
  return windows;
}

/** Records that the soft threshold of `key` was reported for the window ending at `until`. */
export function markNoticed(windows: ReadonlyMap<string, RateWindow>, key: string, until: number): ReadonlyMap<string, RateWindow> {
  const next = new Map(windows);
  next.set(key, { times: windows.get(key)?.times ?? [], noticedUntil: until });
  return next;
}
