/**
 * The short fuzz run of CI: the same targets as `npm run fuzz`, 30,000 cases with a fixed seed
 * (so a failure reproduces), plus a fresh random seed each run for breadth.
 */

import { expect, it } from 'vitest';
import { fuzzContext, runFuzz } from '../tools/bench/fuzz.js';

it('answers every fuzzed input without crashing (fixed seed)', () => {
  const results = runFuzz(30_000, 20261130, fuzzContext());
  expect(results.reduce((n, r) => n + r.cases, 0)).toBe(30_000);
}, 120_000);

it('answers every fuzzed input without crashing (random seed)', () => {
  const seed = Math.floor(Math.random() * 1_000_000);
  expect(() => runFuzz(10_000, seed, fuzzContext()), `seed ${seed}`).not.toThrow();
}, 120_000);
