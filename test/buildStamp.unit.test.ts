/**
 * `npm start` does not rebuild an already-built tree (scripts/buildStamp.mjs, issue 33 item 5):
 * the tree is stale without a build, without a stamp, when an input file is newer than the stamp
 * says, and when a file is added or removed (its folder's time moves); up to date otherwise.
 * Files only, in a scratch tree: the script's `npm run build:package` is not run here.
 */

import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newestInput, staleReason, writeStamp } from '../scripts/buildStamp.mjs';

const root = mkdtempSync(join(tmpdir(), 'mw-build-stamp-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PAST = new Date('2026-01-01T00:00:00Z');

/** Sets `path`'s times to `seconds` after PAST. */
function age(path: string, seconds: number): void {
  const at = new Date(PAST.getTime() + seconds * 1000);
  utimesSync(path, at, at);
}

describe('the build stamp', () => {
  it('says stale until built and stamped, then up to date until an input changes', () => {
    mkdirSync(join(root, 'src', 'cli'), { recursive: true });
    mkdirSync(join(root, 'console', 'node_modules'), { recursive: true });
    writeFileSync(join(root, 'src', 'cli', 'main.ts'), 'export {};');
    writeFileSync(join(root, 'package.json'), '{}');
    for (const path of ['src/cli/main.ts', 'src/cli', 'src', 'package.json', 'console/node_modules', 'console']) age(join(root, path), 0);
    expect(staleReason(root)).toBe('no build yet');
    mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
    writeFileSync(join(root, 'dist', 'cli', 'main.js'), '');
    expect(staleReason(root)).toBe('no build stamp');
    writeStamp(root, newestInput(root));
    expect(staleReason(root)).toBeUndefined();
    // node_modules under an input is not an input.
    writeFileSync(join(root, 'console', 'node_modules', 'dep.js'), '');
    age(join(root, 'console', 'node_modules'), 0);
    expect(staleReason(root)).toBeUndefined();
  });

  it('is stale when a source file changes', () => {
    age(join(root, 'src', 'cli', 'main.ts'), 10);
    expect(staleReason(root)).toBe('sources changed since the last build');
    writeStamp(root, newestInput(root));
    expect(staleReason(root)).toBeUndefined();
  });

  it('is stale when a source file is added or removed (its folder changes)', () => {
    writeFileSync(join(root, 'src', 'cli', 'extra.ts'), 'export {};');
    age(join(root, 'src', 'cli', 'extra.ts'), 0);
    age(join(root, 'src', 'cli'), 20);
    expect(staleReason(root)).toBe('sources changed since the last build');
    writeStamp(root, newestInput(root));
    rmSync(join(root, 'src', 'cli', 'extra.ts'));
    age(join(root, 'src', 'cli'), 30);
    expect(staleReason(root)).toBe('sources changed since the last build');
  });
});
