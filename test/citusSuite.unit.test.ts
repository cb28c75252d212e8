/**
 * scripts/citus-suite.txt accounts for every integration and e2e file (issue 32): each is either
 * listed, so .ci/run runs it on the Citus cluster, or named in the file's comments with why not.
 * A new test file fails this until it is one or the other.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const SUITE = readFileSync(join(process.cwd(), 'scripts', 'citus-suite.txt'), 'utf8').split('\n');
const listed = SUITE.filter((line) => line.startsWith('test/'));
const comments = SUITE.filter((line) => line.startsWith('#')).join('\n');
/** Words of the comments, and the prefixes they name with a star (`runtimeProjection*`). */
const named = new Set(comments.match(/[A-Za-z][A-Za-z0-9.]*\*?/g) ?? []);
const prefixes = [...named].filter((w) => w.endsWith('*')).map((w) => w.slice(0, -1));

/** The int and e2e files under test/, by path; a file's short name drops `.int|.e2e.test.ts` and `.browser`. */
function storeTestFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.(int|e2e)\.test\.ts$/.test(entry.name)) found.push(path);
    }
  };
  walk('test');
  return found.sort();
}

const shortName = (path: string): string => (path.split('/').at(-1) as string).replace(/\.(int|e2e)\.test\.ts$/, '').replace(/\.browser$/, '');

it('lists only files that exist', () => {
  const files = new Set(storeTestFiles());
  expect(listed.filter((path) => !files.has(path))).toEqual([]);
});

it('names every int and e2e file: listed, or left out with its reason in a comment', () => {
  const accounted = (path: string): boolean => {
    const name = shortName(path);
    return listed.includes(path) || named.has(name) || prefixes.some((p) => name.startsWith(p));
  };
  const files = storeTestFiles();
  expect(files.length).toBeGreaterThan(100);
  expect(files.filter((path) => !accounted(path))).toEqual([]);
});

