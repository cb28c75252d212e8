/**
 * The scaling-curve command's own logic (issue 16 part 5), without a database: which curves
 * run in which order at which sizes, how the many-Groups load is spread, where a curve bends.
 */

import { describe, expect, it } from 'vitest';
import { bends, CURVE_LIMITS, FULL_SIZES, idleServeProcesses, median, parseCurveArgs, QUICK_SIZES, writerGroups } from '../tools/bench/curvesPlan.js';

describe('parseCurveArgs', () => {
  it('runs the curves asked for in a fixed order, replay before restart', () => {
    const options = parseCurveArgs(['node', 'curves.js', '--curve', 'restart,replay', '--json']);
    expect(options.curves).toEqual(['replay', 'restart']);
    expect(options.json).toBe(true);
    expect(options.sizes).toBe(FULL_SIZES);
  });

  it('takes all, --quick and --sizes', () => {
    expect(parseCurveArgs(['--curve', 'all']).curves).toEqual(['groups', 'replay', 'restart', 'idle', 'registry']);
    expect(parseCurveArgs(['--curve', 'idle', '--quick']).sizes).toBe(QUICK_SIZES);
    expect(parseCurveArgs(['--curve', 'groups', '--sizes', '5,50']).sizes).toEqual({ groups: [5, 50], replay: [5, 50], idle: [5, 50], registry: [5, 50] });
  });

  it('refuses a missing or unknown curve and bad sizes', () => {
    expect(() => parseCurveArgs(['--json'])).toThrow(/--curve/);
    expect(() => parseCurveArgs(['--curve', 'latency'])).toThrow(/unknown curve latency/);
    expect(() => parseCurveArgs(['--curve', 'groups', '--sizes', '10,x'])).toThrow(/--sizes/);
    expect(() => parseCurveArgs(['--curve', 'groups', '--sizes', '0'])).toThrow(/--sizes/);
  });

  it('keeps the issue\'s full sizes', () => {
    expect(FULL_SIZES).toEqual({ groups: [10, 1_000, 100_000], replay: [10_000, 1_000_000], idle: [1_000, 10_000, 30_000], registry: [1_000, 10_000, 30_000] });
  });
});

describe('writerGroups', () => {
  it('puts every writer on one shared Group when there are fewer Groups than writers', () => {
    expect(writerGroups(0, 50, 10, 300)).toEqual([0]);
    expect(writerGroups(37, 50, 10, 300)).toEqual([7]);
  });

  it('uses only Groups the writer coordinates, spread over the whole range', () => {
    const all = Array.from({ length: 50 }, (_, w) => writerGroups(w, 50, 100_000, 300));
    for (const [w, groups] of all.entries()) {
      expect(groups).toHaveLength(300);
      expect(groups.every((j) => j % 50 === w && j < 100_000)).toBe(true);
      expect(new Set(groups).size).toBe(300);
      expect(Math.max(...groups)).toBeGreaterThan(99_000);
    }
  });

  it('uses each Group once when it has fewer than the Commands', () => {
    const groups = Array.from({ length: 50 }, (_, w) => writerGroups(w, 50, 1_000, 300)).flat();
    expect(groups.sort((a, b) => a - b)).toEqual(Array.from({ length: 1_000 }, (_, j) => j));
  });
});

describe('bends', () => {
  const point = (size: number, figures: Record<string, number>) => ({ size, figures });

  it('names the steps where a figure moves by more than the threshold', () => {
    const found = bends([point(10, { cpu: 100, rate: 1_000 }), point(1_000, { cpu: 110, rate: 990 }), point(100_000, { cpu: 200, rate: 500 })]);
    expect(found).toEqual([
      { figure: 'cpu', from: 1_000, to: 100_000, ratio: 200 / 110 },
      { figure: 'rate', from: 1_000, to: 100_000, ratio: 500 / 990 },
    ]);
  });

  it('skips figures missing or zero before, and non-finite after', () => {
    expect(bends([point(1, { a: 0, b: 5 }), point(2, { a: 9, b: Number.NaN, c: 3 })])).toEqual([]);
    expect(bends([point(1, { a: 100 }), point(2, { a: 120 })], 0.1)).toHaveLength(1);
  });
});

it('median takes the lower middle of an even list', () => {
  expect(median([3, 1, 2])).toBe(2);
  expect(median([4, 1, 3, 2])).toBe(2);
});

describe('idleServeProcesses', () => {
  it('runs one serve process up to 10,000 idle sessions and as few more as hold the rest', () => {
    expect(FULL_SIZES.idle.map(idleServeProcesses)).toEqual([1, 1, 3]);
    expect(idleServeProcesses(CURVE_LIMITS.idleSessionsPerServeProcess + 1)).toBe(2);
    expect(idleServeProcesses(1)).toBe(1);
    // Each process stays at half of a 20,000 open-file hard limit or less.
    for (const size of [...FULL_SIZES.idle, 25_000]) expect(size / idleServeProcesses(size)).toBeLessThanOrEqual(10_000);
  });
});
