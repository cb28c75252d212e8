/**
 * Assertions for property loops of thousands of runs. Every `expect()` call costs microseconds
 * (vitest records it in the test's state); the comparison itself costs nanoseconds. These
 * compare first and call `expect` only when it is going to fail, so a failure reads exactly as
 * the plain `expect` would.
 */

import { expect } from 'vitest';

/** `expect(actual, message).toBe(expected)`, paid for only when it fails. */
export function expectSame<T>(actual: T, expected: T, message?: string): void {
  if (!Object.is(actual, expected)) expect(actual, message).toBe(expected);
}

