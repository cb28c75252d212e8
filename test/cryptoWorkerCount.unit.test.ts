/**
 * How many crypto workers `serve` starts per process: the node's configured total shared among
 * its processes, else the cores left after the main threads, at least one, at most six
 * (BENCHMARKS.md, "Crypto workers").
 */

import { describe, expect, it } from 'vitest';
import { cryptoWorkersPerProcess, MAX_DEFAULT_CRYPTO_WORKERS } from '../src/app/workers/workerLimits.js';

describe('cryptoWorkersPerProcess', () => {
  it('leaves each main thread its core, and stops at what one main thread can keep busy', () => {
    expect(cryptoWorkersPerProcess(1, 1, undefined)).toBe(1);
    expect(cryptoWorkersPerProcess(2, 1, undefined)).toBe(1);
    expect(cryptoWorkersPerProcess(4, 1, undefined)).toBe(3);
    expect(cryptoWorkersPerProcess(16, 1, undefined)).toBe(MAX_DEFAULT_CRYPTO_WORKERS);
    expect(cryptoWorkersPerProcess(128, 1, undefined)).toBe(MAX_DEFAULT_CRYPTO_WORKERS);
  });

  it('shares the cores among the processes, at least one worker each', () => {
    expect(cryptoWorkersPerProcess(16, 2, undefined)).toBe(MAX_DEFAULT_CRYPTO_WORKERS);
    expect(cryptoWorkersPerProcess(16, 4, undefined)).toBe(3);
    expect(cryptoWorkersPerProcess(16, 8, undefined)).toBe(1);
    expect(cryptoWorkersPerProcess(2, 2, undefined)).toBe(1);
    expect(cryptoWorkersPerProcess(4, 8, undefined)).toBe(1);
  });

  it('takes MW_CRYPTO_WORKERS as the node\'s total, split among the processes', () => {
    expect(cryptoWorkersPerProcess(2, 1, '8')).toBe(8);
    expect(cryptoWorkersPerProcess(16, 4, '16')).toBe(4);
    expect(cryptoWorkersPerProcess(16, 4, '2')).toBe(1);
    expect(cryptoWorkersPerProcess(2, 1, '64')).toBe(64);
  });

  it('ignores a value that is not a whole number from 1 to 64', () => {
    for (const bad of ['', '0', '-3', '2.5', 'many', '65', '1e9']) expect(cryptoWorkersPerProcess(2, 1, bad)).toBe(1);
  });
});
