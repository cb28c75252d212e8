/**
 * Where the official MissionWeave 0.1 bundles live for tests, and what to do when they are
 * absent: skip with a one-line reason, unless MW_REQUIRE_SPEC is set, in which case fail.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'vitest';

export const SPEC_DIR = resolve(process.env['MW_SPEC_DIR'] ?? join(process.cwd(), '..', 'shared', 'missionweave-0.1'));
export const TESTDATA_DIR = resolve(process.env['MW_TESTDATA_DIR'] ?? join(process.cwd(), '..', 'shared', 'testdata'));

const REQUIRED = ['1', 'true', 'yes'].includes((process.env['MW_REQUIRE_SPEC'] ?? '').toLowerCase());

function present(dir: string, probe: string): boolean {
  return existsSync(join(dir, probe));
}

/** Reads a file of the spec bundle as bytes. */
export function specBytes(relative: string): Buffer {
  return readFileSync(join(SPEC_DIR, relative));
}

/** Reads and parses a JSON file of the spec bundle (trusted test input). */
export function specJson<T = unknown>(relative: string): T {
  return JSON.parse(specBytes(relative).toString('utf8')) as T;
}

/** Reads and parses a JSON file of the public test vectors. */
export function testdataJson<T = unknown>(relative: string): T {
  return JSON.parse(readFileSync(join(TESTDATA_DIR, relative), 'utf8')) as T;
}

function guarded(dir: string, probe: string, what: string) {
  return (name: string, body: () => void): void => {
    if (present(dir, probe)) {
      describe(name, body);
    } else if (REQUIRED) {
      describe(name, () => {
        throw new Error(`MW_REQUIRE_SPEC is set but ${what} is missing at ${dir}`);
      });
    } else {
      // The body is not run: it would read the missing files while collecting tests.
      describe.skip(name, () => {
        it(`skipped: ${what} not found at ${dir} (set MW_SPEC_DIR)`, () => undefined);
      });
    }
  };
}

/** `describe` for tests that read the official bundles. */
export const describeWithSpec = guarded(SPEC_DIR, 'conformance/manifest.json', 'the MissionWeave 0.1 bundle');

/** `describe` for tests that read the public vectors in ../shared/testdata. */
export const describeWithTestdata = guarded(TESTDATA_DIR, 'MANIFEST.md', 'the public test vectors');
