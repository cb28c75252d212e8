/**
 * The crypto workers' dispatch limits, in one place, with why each has its value (issue 16,
 * parts 3–4: with one message per request and every signing batch split over every worker,
 * sixteen workers spent 0.94 ms of server CPU per Command where two to six spent 0.62–0.67 ms).
 */

export interface DispatchLimits {
  /**
   * Work units (one per Command to verify, one per Event to sign) a worker may hold unanswered
   * before the next request goes to the next worker. Below it the lowest-numbered workers take
   * everything and the others stay asleep, so a pool larger than the load needs costs no
   * wake-ups; at ~0.15–0.3 ms of CPU per unit it bounds a request's wait behind its worker's
   * queue to ~1–3 ms (the p99 target Command→Event is 20 ms) before a second worker shares it.
   */
  readonly fillThreshold: number;
  /**
   * Fewest Event documents in one signing request: a batch smaller than twice this goes to one
   * worker whole, a larger one is split in parts of at least this many, never more parts than
   * workers. Signing one Event costs ~0.13 ms, so 16 of them (~2 ms) outweigh the message and
   * wake-up that a part costs (~20–40 µs on both threads) by fifty times.
   */
  readonly signChunkMin: number;
  /**
   * Most Event documents signed on the calling (main) thread instead of a worker. At low load a
   * batch holds one or two Commands, and a hand-off to a sleeping worker and back cost the main
   * thread ~100 µs of `postMessage` per message in this VM (a wake-up of another core), more
   * than signing an Event here (~40–60 µs: JCS, one Ed25519 signature, one SHA-256); under load
   * batches are large and go to the workers as before (BENCHMARKS.md, "Latency at half load").
   */
  readonly inlineSignMax: number;
}

export const DEFAULT_DISPATCH_LIMITS: DispatchLimits = { fillThreshold: 8, signChunkMin: 16, inlineSignMax: 2 };

/**
 * When a Command is verified on the main thread rather than handed to a worker
 * (`inlineVerify.ts`). A hand-off costs the main thread ~100–160 µs of `postMessage` at
 * moderate load in this VM (the wake-up of a sleeping worker on another core, 20 % of the
 * main thread at half load) against ~150 µs to verify a typical Command here, and adds two
 * thread hops to its latency; the workers are for when the main thread is the bound.
 */
export interface InlineVerifyLimits {
  /** Main-thread event-loop utilization under which Commands are verified inline. */
  readonly maxUtilization: number;
  /** How often that utilization is re-read: short enough to follow a burst, long enough to mean something. */
  readonly windowMs: number;
  /** Larger Commands always go to a worker: one with many embedded Evidence takes tens of ms. */
  readonly maxBytes: number;
}

export const DEFAULT_INLINE_VERIFY_LIMITS: InlineVerifyLimits = { maxUtilization: 0.5, windowMs: 50, maxBytes: 4_096 };

/**
 * Most crypto workers a process starts by default. One main thread drives TLS, PostgreSQL and
 * the hand-offs, and it is the bound before the workers are: on 16 cores, six workers carried
 * 5,345 Commands/s where sixteen carried 3,229/s at 0.94 ms of server CPU per Command against
 * 0.62–0.67 (issue 16); more cores are used by more processes (`serve --processes`), not by more
 * workers behind one main thread.
 */
export const MAX_DEFAULT_CRYPTO_WORKERS = 6;

/** Largest `MW_CRYPTO_WORKERS` taken: a typo must not start thousands of threads. */
export const MAX_CRYPTO_WORKERS = 64;

/**
 * Crypto workers for each of `processes` processes on `cores` cores. `configured`
 * (`MW_CRYPTO_WORKERS`) is the node's total, shared among the processes (at least one each).
 * Otherwise each process gets the cores left after the main threads, its share of them, at least
 * one and at most `MAX_DEFAULT_CRYPTO_WORKERS`: on 2 cores one worker spent 8 % less server CPU
 * per Command than two, and each more worker more again (BENCHMARKS.md, "Crypto workers").
 */
export function cryptoWorkersPerProcess(cores: number, processes: number, configured: string | undefined): number {
  const total = Number(configured);
  if (configured !== undefined && configured !== '' && Number.isSafeInteger(total) && total >= 1 && total <= MAX_CRYPTO_WORKERS) {
    return Math.max(1, Math.round(total / processes));
  }
  return Math.min(MAX_DEFAULT_CRYPTO_WORKERS, Math.max(1, Math.floor((cores - processes) / processes)));
}
