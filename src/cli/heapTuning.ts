/**
 * How fast V8's old generation may grow between full collections, set once when `serve` starts.
 *
 * Why: V8 sizes the next full-collection limit from how fast its last collections ran. A node's
 * live heap is small (~20 MB) and marks in a few milliseconds on background threads, so V8 set
 * the limit only ~2× the live size and started incremental marking again at once — while
 * replaying, a Mark-Compact every ~40 ms, 70 of them in 200,000 Events, a third of the
 * replaying thread. Those background threads are not free here: they take the cores the crypto
 * workers and PostgreSQL need. A fixed factor of 4 — the top of V8's own range — made it 19
 * Mark-Compacts, and 6.7–9.3 instead of 11.8–14.3 µs of server CPU per replayed Event
 * (BENCHMARKS.md, "Garbage collection"). The price is memory: the old generation may reach 4× its
 * live size before it is collected, tens of MB on a node this size.
 *
 * `MW_HEAP_GROWING_PERCENT`: the growth in percent (factor 1 + p/100), 1–900; `0` leaves V8's
 * own choice. A `--heap-growing-percent` given to node itself wins over both.
 *
 * The young generation cannot be resized once V8 has started, so its size is a flag of the
 * node command line instead (`SERVE_NODE_FLAGS`: `npm start`, the Dockerfile's entrypoint and the
 * bench's serve node use it, and a test keeps them in step): a Command waits in queues and a
 * group commit for a few milliseconds, so with V8's 16 MB semi-spaces half of what a scavenge
 * found was still alive and was copied, then promoted. With 64 MB, four same-hour pairs of the
 * many-Groups phase spent 25–30 % less time in the collector (1.3–1.6 s → 0.9–1.3 s per run)
 * and 454 → 422 µs of server CPU per Command on average; an idle session ~7 % more (30.8 →
 * 33.1 KB), and a busy isolate holds more heap (BENCHMARKS.md, "Garbage collection").
 */

import { setFlagsFromString } from 'node:v8';

/** The node flags a serving process is started with (see above); a later flag of the same name wins. */
export const SERVE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];

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
