/**
 * The main thread verifies a Command itself only while its event loop has room and the Command
 * is small (src/app/workers/inlineVerify.ts); the utilization is re-read once per window.
 */

import { describe, expect, it } from 'vitest';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { InlineVerifyPolicy } from '../src/app/workers/inlineVerify.js';

/** A meter whose cumulative active time the test sets; `idle` is the rest of the elapsed time. */
function meter(clock: { now: number }, active: { ms: number }) {
  return (later?: EventLoopUtilization, earlier?: EventLoopUtilization): EventLoopUtilization => {
    if (later !== undefined && earlier !== undefined) {
      const a = later.active - earlier.active;
      const i = later.idle - earlier.idle;
      return { active: a, idle: i, utilization: a + i === 0 ? 0 : a / (a + i) };
    }
    return { active: active.ms, idle: clock.now - active.ms, utilization: 0 };
  };
}

describe('InlineVerifyPolicy', () => {
  const limits = { maxUtilization: 0.5, windowMs: 50, maxBytes: 4_096 };

  it('hands off until a first window was measured, then inlines while the loop was mostly idle', () => {
    const clock = { now: 0 };
    const active = { ms: 0 };
    const policy = new InlineVerifyPolicy(limits, meter(clock, active), () => clock.now);
    expect(policy.inline(1_000)).toBe(false);
    clock.now = 60;
    active.ms = 10;
    expect(policy.inline(1_000)).toBe(true);
    // Within the window the reading stands, whatever happens meanwhile.
    active.ms = 40;
    clock.now = 70;
    expect(policy.inline(1_000)).toBe(true);
  });

  it('hands off once the last window was busy, and inlines again when the load falls', () => {
    const clock = { now: 0 };
    const active = { ms: 0 };
    const policy = new InlineVerifyPolicy(limits, meter(clock, active), () => clock.now);
    clock.now = 100;
    active.ms = 80;
    expect(policy.inline(1_000)).toBe(false);
    clock.now = 200;
    active.ms = 100;
    expect(policy.inline(1_000)).toBe(true);
  });

  it('never inlines a Command larger than maxBytes', () => {
    const clock = { now: 100 };
    const policy = new InlineVerifyPolicy(limits, meter(clock, { ms: 0 }), () => clock.now);
    clock.now = 200;
    expect(policy.inline(4_097)).toBe(false);
    expect(policy.inline(4_096)).toBe(true);
  });
});
