import { describe, expect, it } from 'vitest';
import { LayeredMap, withLayeredEntry } from '../src/protocol/layeredMap.js';

/** A small deterministic generator, so a failure replays. */
function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

describe('LayeredMap (the Organization state maps, O(√n) per set)', () => {
  it('given random sets over many merges, when read, then it equals a plain Map with the same sets', () => {
    const random = lcg(7);
    let layered = LayeredMap.of<number>();
    const plain = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const key = `agent-${Math.floor(random() * 5_000)}`;
      layered = layered.with(key, i);
      plain.set(key, i);
    }
    expect(layered.size).toBe(plain.size);
    expect(new Map(layered)).toEqual(plain);
    for (const [key, value] of plain) expect(layered.get(key)).toBe(value);
    expect(layered.has('agent-absent')).toBe(false);
    expect(layered.get('agent-absent')).toBeUndefined();
    expect([...layered.keys()].sort()).toEqual([...plain.keys()].sort());
    expect([...layered.values()].sort()).toEqual([...plain.values()].sort());
    let visited = 0;
    layered.forEach((value, key, map) => {
      expect(map.get(key)).toBe(value);
      visited++;
    });
    expect(visited).toBe(plain.size);
  });

  it('given an older version, when newer ones are set past several merges, then the older one is unchanged (evolve never mutates)', () => {
    let current = LayeredMap.of<number>([['a', 1]]);
    const versions: { map: LayeredMap<number>; expected: Map<string, number> }[] = [];
    const expected = new Map<string, number>([['a', 1]]);
    for (let i = 0; i < 1_000; i++) {
      current = current.with(`k${i % 300}`, i);
      expected.set(`k${i % 300}`, i);
      if (i % 97 === 0) versions.push({ map: current, expected: new Map(expected) });
    }
    for (const version of versions) expect(new Map(version.map)).toEqual(version.expected);
  });

  it('given a plain Map, when withLayeredEntry sets a key, then the plain Map is untouched and the result has both', () => {
    const plain = new Map([['x', 1]]);
    const next = withLayeredEntry(plain, 'y', 2);
    expect(plain.has('y')).toBe(false);
    expect(next).toBeInstanceOf(LayeredMap);
    expect(new Map(next)).toEqual(new Map([['x', 1], ['y', 2]]));
    expect(withLayeredEntry(next, 'x', 3).get('x')).toBe(3);
    expect(next.get('x')).toBe(1);
  });

  it('given an existing key, when set again, then the size does not grow', () => {
    const map = LayeredMap.of([['a', 1], ['b', 2]]).with('a', 5).with('a', 6);
    expect(map.size).toBe(2);
    expect(map.get('a')).toBe(6);
  });
});

describe('LayeredMap.withAll and changedSince (the Registry, its deltas)', () => {
  it('given many entries at once, when set with withAll, then it equals setting them one by one', () => {
    const entries: [string, number][] = Array.from({ length: 5_000 }, (_, i) => [`k${i % 3_000}`, i]);
    const bulk = LayeredMap.of<number>([['a', 0]]).withAll(entries);
    let single = LayeredMap.of<number>([['a', 0]]);
    for (const [k, v] of entries) single = single.with(k, v);
    expect(new Map(bulk)).toEqual(new Map(single));
    expect(bulk.size).toBe(3_001);
  });

  it('given a descendant sharing the base, when asked what changed, then it names exactly the entries set with a new value', () => {
    const base = LayeredMap.of(Array.from({ length: 10_000 }, (_, i): [string, number] => [`k${i}`, i]));
    const earlier = base.with('k1', 100);
    const later = earlier.with('k2', 200).with('k1', 100).with('new', 1);
    expect(later.changedSince(earlier)?.sort()).toEqual([['k2', 200], ['new', 1]]);
    expect(later.changedSince(base)?.sort()).toEqual([['k1', 100], ['k2', 200], ['new', 1]]);
    expect(earlier.changedSince(earlier)).toEqual([]);
  });

  it('given maps that do not share a base or are not descendants, when asked what changed, then it answers undefined (the caller compares in full)', () => {
    const base = LayeredMap.of(Array.from({ length: 100 }, (_, i): [string, number] => [`k${i}`, i]));
    const a = base.with('x', 1);
    const b = base.with('y', 2);
    expect(b.changedSince(a)).toBeUndefined();
    expect(a.changedSince(new Map([['k1', 1]]))).toBeUndefined();
    let merged = a;
    for (let i = 0; i < 200; i++) merged = merged.with(`m${i}`, i);
    expect(merged.changedSince(a)).toBeUndefined();
  });
});

describe('LayeredMap iteration with an empty top layer (the base iterators themselves)', () => {
  it('given a map just built or merged, when iterated, then keys, values and entries are the base', () => {
    const map = LayeredMap.of([['a', 1], ['b', 2]]);
    expect([...map.keys()]).toEqual(['a', 'b']);
    expect([...map.values()]).toEqual([1, 2]);
    expect([...map.entries()]).toEqual([['a', 1], ['b', 2]]);
    const layered = map.with('a', 3);
    expect([...layered.keys()].sort()).toEqual(['a', 'b']);
    expect([...layered.values()].sort()).toEqual([2, 3]);
  });
});
