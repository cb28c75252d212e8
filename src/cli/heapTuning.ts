/**
 * How fast V8's old generation may grow between full collections, set once when `serve` starts.
 *
 * Why: V8 sizes the next full-collection limit from how fast its last collections ran. A node's
 * live heap is small (~20 MB) and marks in a few milliseconds on background threads, so V8 set
 * the limit only ~2× the live size and started incremental marking again at once — while
 * replaying, a Mark-Compact every ~40 ms, 70 of them in 200,000 Events, a third of the
 * replaying thread. Those background threads are not free here: they take the cores the crypto
 * workers and PostgreSQL need. A fixed factor of 4 — the top of V8's own range — made it 19
 * Mark-Compacts and 9.3 instead of 13.7–14.3 µs of server CPU per replayed Event
 * (BENCHMARKS.md, "Garbage collection"). The price is memory: the old generation may reach 4× its
 * live size before it is collected, tens of MB on a node this size.
 *
 * `MW_HEAP_GROWING_PERCENT`: the growth in percent (factor 1 + p/100), 1–900; `0` leaves V8's
 * own choice. A `--heap-growing-percent` given to node itself wins over both.
 */

import { setFlagsFromString } from 'node:v8';

/** Factor 4: V8's largest dynamic growing factor, fixed. */
export const DEFAULT_HEAP_GROWING_PERCENT = 300;

const FLAG = '--heap-growing-percent';

/** The percent to apply, or undefined for V8's own choice. */
export function heapGrowingPercent(env: NodeJS.ProcessEnv, execArgv: readonly string[]): number | undefined {
  const given = execArgv.find((arg) => arg.startsWith(`${FLAG}=`) || arg.startsWith('--heap_growing_percent='));
  if (given !== undefined) {
    const value = Number(given.slice(given.indexOf('=') + 1));
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  }
  const configured = env['MW_HEAP_GROWING_PERCENT'];
  if (configured === undefined || configured.trim() === '') return DEFAULT_HEAP_GROWING_PERCENT;
  const value = Number(configured);
  if (value === 0) return undefined;
  return Number.isSafeInteger(value) && value >= 1 && value <= 900 ? value : DEFAULT_HEAP_GROWING_PERCENT;
}

/**
 * Applies the setting to this process (V8 reads the flag each time it computes a limit, so it
 * holds from the next collection on); returns the percent in force, undefined for V8's own.
 */
export function tuneHeap(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): number | undefined {
  const percent = heapGrowingPercent(env, execArgv);
  if (percent !== undefined) setFlagsFromString(`${FLAG}=${percent}`);
  return percent;
}
