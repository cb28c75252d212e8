/**
 * The runtime host's guard against restarting a WorkItem in a hot loop (hostRuntime.ts). A run
 * that ends without progress — blocked (its handler threw, returned without an outcome, ran past
 * its bound) or its lease lost, having taken no safe checkpoint beyond the one it resumed from —
 * would otherwise be started again as soon as its Coordinator unblocks it or the Authority puts
 * it back, and fail the same way: the PoC's shared Worker started one WorkItem 2,289 times in six
 * minutes so, and its Mission never progressed.
 *
 * Pure bookkeeping, the host does the rest: after `n` such runs in a row the next start waits
 * `min(baseMs · 2^(n−1), maxMs)` from the end of the last one (`wait`); after `runs` of them the
 * host stops retrying on its own and blocks the WorkItem, reported to its Coordinator with the
 * typed reason RUNTIME_NO_PROGRESS (`report`). A run that progressed (a new safe checkpoint, a
 * submit or fail) clears the count; a yield leaves it as it is. A Coordinator that unblocks
 * the reported WorkItem starts a fresh round (`reported` clears it). Entries are kept only for
 * WorkItems the runtime holds (`forget`), so the guard is bounded by MAX_HELD_WORK.
 */

import { NO_PROGRESS_BACKOFF_MAX_MS, NO_PROGRESS_BACKOFF_MS, NO_PROGRESS_RUNS } from './hostLimits.js';

/** The typed reason a WorkItem is reported blocked with after NO_PROGRESS_RUNS runs without progress. */
export const RUNTIME_NO_PROGRESS = 'runtime-no-progress';

export type RestartVerdict =
  | { readonly kind: 'start' }
  | { readonly kind: 'wait'; readonly ms: number; readonly runs: number }
  | { readonly kind: 'report'; readonly runs: number; readonly last: string };

export interface RestartLimits {
  readonly baseMs: number;
  readonly maxMs: number;
  readonly runs: number;
}

interface NoProgress {
  readonly runs: number;
  readonly endedAtMs: number;
  /** How the last of them ended, for the report. */
  readonly last: string;
}

export class RestartGuard {
  private readonly entries = new Map<string, NoProgress>();

  constructor(private readonly limits: RestartLimits = { baseMs: NO_PROGRESS_BACKOFF_MS, maxMs: NO_PROGRESS_BACKOFF_MAX_MS, runs: NO_PROGRESS_RUNS }) {}

  /** WorkItems with runs without progress counted now. */
  get size(): number {
    return this.entries.size;
  }

  /** Runs in a row of `workItemId` that ended without progress. */
  runsOf(workItemId: string): number {
    return this.entries.get(workItemId)?.runs ?? 0;
  }

  /** A run of `workItemId` ended: `progressed` clears the count, otherwise it grows by one. */
  ended(workItemId: string, progressed: boolean, how: string, nowMs: number): void {
    if (progressed) {
      this.entries.delete(workItemId);
      return;
    }
    this.entries.set(workItemId, { runs: this.runsOf(workItemId) + 1, endedAtMs: nowMs, last: how });
  }

  /** Whether `workItemId` may start now, must wait first, or is to be reported blocked. */
  verdict(workItemId: string, nowMs: number): RestartVerdict {
    const entry = this.entries.get(workItemId);
    if (entry === undefined) return { kind: 'start' };
    if (entry.runs >= this.limits.runs) return { kind: 'report', runs: entry.runs, last: entry.last };
    const backoff = Math.min(this.limits.baseMs * 2 ** (entry.runs - 1), this.limits.maxMs);
    const ms = entry.endedAtMs + backoff - nowMs;
    return ms > 0 ? { kind: 'wait', ms, runs: entry.runs } : { kind: 'start' };
  }

  /** The WorkItem was reported blocked: a later unblock by its Coordinator starts a fresh round. */
  reported(workItemId: string): void {
    this.entries.delete(workItemId);
  }

  /** Drops the counts of WorkItems no longer held. */
  forget(held: (workItemId: string) => boolean): void {
    for (const workItemId of this.entries.keys()) if (!held(workItemId)) this.entries.delete(workItemId);
  }
}
