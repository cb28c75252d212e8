/**
 * The read side registers (issue 30, item 4): a profile's reads, routes, MCP tools and CLI verbs
 * live in its own modules and reach the node through a `ProfileReadSide` composed at the
 * composition roots. So no file of `src/` names the tally test profile (its read side is
 * registered from test/support alone), and the core's transport and app files do not name the
 * node's own profiles either: only their profile folders and the composition lists do.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_READ_SIDES } from '../src/cli/nodeReadSides.js';
import { readSideVerbs } from '../src/cli/readSide.js';

const ROOT = resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(ROOT, path)] : [];
  });
}

function naming(files: readonly string[], pattern: RegExp): string[] {
  return files.filter((file) => pattern.test(readFileSync(join(ROOT, file), 'utf8')));
}

describe('profile read sides', () => {
  it('leave src/ without a word of the tally test profile', () => {
    // Its URI, kinds, modules, route and tool, as test/support names them ("tally" alone is also a metrics word).
    expect(naming(sourceFiles(join(ROOT, 'src')), /profile:test:tally|missionweave\.tally\.|tallyProfile|tallyReadSide|tallies|tally_totals/i)).toEqual([]);
  });

  it('keep Parley and disput out of the core transport and app files', () => {
    const core = [...sourceFiles(join(ROOT, 'src', 'transport')), ...sourceFiles(join(ROOT, 'src', 'app'))].filter((file) => !/\/(parley|disput)\//.test(file));
    // app/nodeProfiles.ts lists the node's profiles' kinds, as cli/nodeReadSides.ts lists their read sides.
    expect(naming(core, /parley|disput/i)).toEqual(['src/app/nodeProfiles.ts']);
  });

  it('give the CLI its profile verbs once each', () => {
    expect([...readSideVerbs(NODE_READ_SIDES).keys()]).toEqual(['disput']);
    expect(() => readSideVerbs([...NODE_READ_SIDES, ...NODE_READ_SIDES])).toThrow(/two read sides name the CLI verb disput/);
  });
});
