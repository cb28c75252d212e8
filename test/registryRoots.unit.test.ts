/**
 * The kind registry is built once, at a composition root, and handed on explicitly (issue 30):
 * no default parameter holds it and no module of src keeps one. A text scan of src/, so a new
 * `= coreKinds`-style default or a module-level registry fails here rather than in review.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const SOURCES = sourceFiles(join(ROOT, 'src')).map((path) => ({ file: relative(ROOT, path), text: readFileSync(path, 'utf8') }));

/**
 * The files of src that build a registry: where it is defined, the Group Authority's (`kindsWith`,
 * called once by the authority as it opens) and a crypto worker's (a thread of its own).
 */
const COMPOSITION_ROOTS = ['src/app/profiles.ts', 'src/app/workers/cryptoWorker.ts', 'src/domain/coreModules.ts'];

describe('the kind registry is passed, not reached for', () => {
  it('is built only at the composition roots', () => {
    const building = SOURCES.filter((s) => /\bbuildKindRegistry\b|\bnew KindRegistry\(CORE_MODULES/.test(s.text)).map((s) => s.file.split('\\').join('/'));
    expect(building.sort()).toEqual(COMPOSITION_ROOTS);
  });

  it('is never a default parameter', () => {
    const defaults = SOURCES.filter((s) => /\b(kinds|rules|registry|kindRegistry)\??\s*:\s*(KindRegistry|FrontRules)\s*=/.test(s.text)).map((s) => s.file);
    expect(defaults).toEqual([]);
  });

  it('is never a module-level constant of src', () => {
    const singletons = SOURCES.filter((s) => /^(export )?const \w+\s*(:\s*KindRegistry\s*)?=\s*(new KindRegistry|buildKindRegistry|kindsWith)\(/m.test(s.text)).map((s) => s.file);
    expect(singletons).toEqual([]);
  });
});
