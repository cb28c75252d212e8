/**
 * Self time from a V8 CPU profile (tools/bench/cpuProfile.ts), on a hand-made profile whose
 * answer is known: each sample weighs the gap to the next, idle is left out of the ranking and
 * of the busy share, functions and files aggregate across nodes.
 */

import { describe, expect, it } from 'vitest';
import { shortFile, summarizeProfile, summaryMarkdown, type CpuProfile } from '../tools/bench/cpuProfile.js';

const frame = (functionName: string, url: string, lineNumber: number) => ({ functionName, url, lineNumber, columnNumber: 0 });
const APP = 'file:///work/x/dist/app/runGroupBatch.js';
const WS = 'file:///work/x/node_modules/ws/lib/sender.js';

// Samples at 0, 1, 3, 6, 10, 15, 15.5 ms after startTime; endTime 16 ms: weights 1, 2, 3, 4, 5, 0.5, 0.5 ms.
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', '', -1) },
    { id: 2, callFrame: frame('(idle)', '', -1) },
    { id: 3, callFrame: frame('runGroupBatch', APP, 9) },
    { id: 4, callFrame: frame('frame', WS, 40) },
    { id: 5, callFrame: frame('runGroupBatch', APP, 9) }, // the same function under another caller
    { id: 6, callFrame: frame('', APP, 99) },
    { id: 7, callFrame: frame('writev', '', -1) },
  ],
  startTime: 1_000_000,
  endTime: 1_016_000,
  samples: [3, 2, 4, 5, 2, 6, 7],
  timeDeltas: [0, 1_000, 2_000, 3_000, 4_000, 5_000, 500],
};

describe('summarizeProfile', () => {
  const s = summarizeProfile(profile);

  it('weighs each sample by the gap to the next and splits idle from busy', () => {
    expect(s.totalMs).toBeCloseTo(16, 10);
    expect(s.idleMs).toBeCloseTo(2 + 5, 10);
    expect(s.busyMs).toBeCloseTo(9, 10);
  });

  it('keeps only the samples inside a monotonic-clock window', () => {
    const w = summarizeProfile(profile, 25, { fromUs: 1_003_000, toUs: 1_010_000 }); // the samples at 3 and 6 ms
    expect(w.totalMs).toBeCloseTo(3 + 4, 10);
    expect(w.byFunction.map((r) => r.name)).toEqual(['runGroupBatch dist/app/runGroupBatch.js:10', 'frame node_modules/ws/lib/sender.js:41']);
  });

  it('ranks functions by self time, one row per function wherever it was called from', () => {
    expect(s.byFunction.map((r) => [r.name, r.selfMs])).toEqual([
      ['runGroupBatch dist/app/runGroupBatch.js:10', 1 + 4],
      ['frame node_modules/ws/lib/sender.js:41', 3],
      ['(anonymous) dist/app/runGroupBatch.js:100', 0.5],
      ['writev (native)', 0.5],
    ]);
    expect(s.byFunction[0]?.share).toBeCloseTo(5 / 9, 10);
  });

  it('ranks files, without idle', () => {
    expect(s.byFile.map((r) => [r.name, r.selfMs])).toEqual([
      ['dist/app/runGroupBatch.js', 5.5],
      ['node_modules/ws/lib/sender.js', 3],
      ['(native)', 0.5],
    ]);
  });

  it('keeps only the top N', () => {
    expect(summarizeProfile(profile, 1).byFunction).toHaveLength(1);
  });

  it('prints Markdown tables', () => {
    const text = summaryMarkdown('main thread', s);
    expect(text).toContain('### main thread');
    expect(text).toContain('| `runGroupBatch dist/app/runGroupBatch.js:10` | 5 | 55.6 |');
  });
});

describe('shortFile', () => {
  it('shortens script URLs to what a reader can find', () => {
    expect(shortFile('file:///a/b/node_modules/pg/lib/client.js')).toBe('node_modules/pg/lib/client.js');
    expect(shortFile('file:///work/wt/dist/protocol/jcs.js')).toBe('dist/protocol/jcs.js');
    expect(shortFile('/work/wt/src/protocol/jcs.ts')).toBe('src/protocol/jcs.ts');
    expect(shortFile('node:internal/streams/writable')).toBe('node:internal/streams/writable');
    expect(shortFile('')).toBe('(native)');
  });
});
