/**
 * Whether the main thread has room to verify a Command itself. Below half load a batch holds
 * one or two Commands and the hand-off to a crypto worker and back costs more CPU than the
 * verification (workerLimits.ts, `InlineVerifyLimits`); above it the workers take the work so
 * the main thread keeps to transactions and sockets. The signal is the main thread's own
 * event-loop utilization over the last window, so the choice follows the load it is about.
 */

import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { DEFAULT_INLINE_VERIFY_LIMITS, type InlineVerifyLimits } from './workerLimits.js';

/** Reads cumulative event-loop utilization; the delta of two readings is a window's. */
export type UtilizationMeter = (later?: EventLoopUtilization, earlier?: EventLoopUtilization) => EventLoopUtilization;

export class InlineVerifyPolicy {
  private last: EventLoopUtilization;
  private sampledAt: number;
  private utilization = 1;

  constructor(
    private readonly limits: InlineVerifyLimits = DEFAULT_INLINE_VERIFY_LIMITS,
    private readonly meter: UtilizationMeter = (a, b) => performance.eventLoopUtilization(a, b),
    private readonly now: () => number = () => performance.now(),
  ) {
    this.last = this.meter();
    this.sampledAt = this.now();
  }

  /** True when a Command of `bytes` should be verified on this thread now. */
  inline(bytes: number): boolean {
    if (bytes > this.limits.maxBytes) return false;
    const now = this.now();
    if (now - this.sampledAt >= this.limits.windowMs) {
      const current = this.meter();
      this.utilization = this.meter(current, this.last).utilization;
      this.last = current;
      this.sampledAt = now;
    }
    return this.utilization < this.limits.maxUtilization;
  }
}
