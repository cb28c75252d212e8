/**
 * Small pure rules several deciders share: comparing protocol timestamps against the trusted
 * acceptance time, lease expiry arithmetic, and budget containment (§12, §14).
 */

import { compareInstants, formatTimestamp, parseTimestamp } from '../protocol/timestamp.js';
import type { Budget } from './documents.js';
import type { DecisionContext } from './model.js';

/** Orders two protocol timestamps; `null` when either does not parse (never for our data). */
function compareTimestamps(a: string, b: string): number | null {
  const left = parseTimestamp(a);
  const right = parseTimestamp(b);
  return left === null || right === null ? null : compareInstants(left, right);
}

/** True when `timestamp` lies strictly after the acceptance time. */
export function isAfterNow(timestamp: string, ctx: DecisionContext): boolean {
  const order = compareTimestamps(timestamp, ctx.now);
  return order !== null && order > 0;
}

/** True when `a` is no later than `b`. */
export function isNoLaterThan(a: string, b: string): boolean {
  const order = compareTimestamps(a, b);
  return order !== null && order <= 0;
}

/** The acceptance time plus whole seconds, in the canonical UTC spelling. */
export function nowPlusSeconds(ctx: DecisionContext, seconds: number): string {
  return formatTimestamp(ctx.nowMillis + seconds * 1000);
}

/** Default length of a Coordinator lease when a Command names none (payload schemas' default). */
export const DEFAULT_LEASE_SECONDS = 300;

const COUNTED_LIMITS = [
  'modelTokenLimit',
  'toolCallLimit',
  'computeSecondsLimit',
  'wallClockSecondsLimit',
  'externalSideEffectLimit',
] as const;

/**
 * The first limit `inner` sets above the same limit of `outer`, or `undefined` when `inner`
 * allocates no more than `outer` (§12: the Coordinator allocates no more than the Mission's
 * limits). A limit `inner` leaves unset stays capped by `outer` through the budget ledger, which
 * charges every ancestor; one `outer` leaves unset is unbounded. Money compares only in one
 * currency.
 */
export function budgetOverrun(inner: Budget, outer: Budget): string | undefined {
  for (const limit of COUNTED_LIMITS) {
    const value = inner[limit];
    const ceiling = outer[limit];
    if (value !== undefined && ceiling !== undefined && value > ceiling) return limit;
  }
  if (inner.financialLimit !== undefined && outer.financialLimit !== undefined) {
    if (inner.currency !== outer.currency || inner.financialLimit > outer.financialLimit) return 'financialLimit';
  }
  return undefined;
}

/** Sorted copy of a list of strings, without repeats (an Artifact set, §7.3). */
export function sortedSet(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

/** True when both lists hold the same strings, ignoring order. */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = sortedSet(a);
  const right = sortedSet(b);
  return left.length === right.length && left.every((value, i) => value === right[i]);
}

/**
 * Orders two Semantic Versions (`common#/$defs/capabilityRef` `version`) by precedence: the
 * numeric core first; at an equal core a pre-release precedes the release, and pre-releases
 * compare by their dot-separated identifiers (numbers numerically, below text). Build metadata
 * is ignored (SemVer 2.0.0 §10–11). Negative when `a` precedes `b`.
 */
export function compareSemver(a: string, b: string): number {
  const [coreA = '', preA] = a.split('+')[0]!.split(/-(.*)/s);
  const [coreB = '', preB] = b.split('+')[0]!.split(/-(.*)/s);
  const numbers = (core: string) => core.split('.').map(Number);
  const [x, y] = [numbers(coreA), numbers(coreB)];
  for (let i = 0; i < 3; i += 1) {
    const diff = (x[i] ?? 0) - (y[i] ?? 0);
    if (diff !== 0) return diff;
  }
  if (preA === undefined || preB === undefined) return (preA === undefined ? 1 : 0) - (preB === undefined ? 1 : 0);
  const [partsA, partsB] = [preA.split('.'), preB.split('.')];
  for (let i = 0; i < Math.max(partsA.length, partsB.length); i += 1) {
    const [p, q] = [partsA[i], partsB[i]];
    if (p === undefined || q === undefined) return p === undefined ? -1 : 1;
    const [np, nq] = [/^\d+$/.test(p), /^\d+$/.test(q)];
    if (np && nq && Number(p) !== Number(q)) return Number(p) - Number(q);
    if (np !== nq) return np ? -1 : 1;
    if (p !== q) return p < q ? -1 : 1;
  }
  return 0;
}
