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
 * The files of src that build a registry: where it is defined, the server's composition root
 * (`server.ts`, which hands it to the Group Authority and the Group reads) and a crypto worker's
 * (a thread of its own).
 */
const COMPOSITION_ROOTS = ['src/app/workers/cryptoWorker.ts', 'src/domain/coreModules.ts', 'src/server.ts'];

/**
 * Where src may import the list of core modules (`domain/coreModules.ts`): the composition roots
 * — the server's, the CLI's, the operator folder's and a crypto worker's. Everything else gets
 * the kinds, and the Group state codec with them (`KindRegistry.decodeState` / `encodeState`),
 * from the registry a root built and handed down. (tools/ and test/ are roots too; they are not
 * scanned.)
 */
function mayImportCoreModules(file: string): boolean {
  return file === 'src/server.ts' || file === 'src/app/workers/cryptoWorker.ts' || file === 'src/domain/coreModules.ts' || file.startsWith('src/cli/') || file.startsWith('src/home/');
}

/** The module specifiers a file imports or re-exports, static and dynamic. */
function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');
}

describe('the kind registry is passed, not reached for', () => {
  it('is built only at the composition roots', () => {
    const building = SOURCES.filter((s) => /\bbuildKindRegistry\b|\bnew KindRegistry\(CORE_MODULES/.test(s.text)).map((s) => s.file.split('\\').join('/'));
    expect(building.sort()).toEqual(COMPOSITION_ROOTS);
  });

  it('comes from the list of core modules only at a composition root', () => {
    const importing = SOURCES.map((s) => ({ ...s, file: s.file.split('\\').join('/') }))
      .filter((s) => importsOf(s.text).some((specifier) => /(^|\/)coreModules(\.js)?$/.test(specifier)))
      .map((s) => s.file);
    // The scan sees imports: the server's root imports it, so an empty list would mean a broken scan.
    expect(importing).toContain('src/server.ts');
    expect(importing.filter((file) => !mayImportCoreModules(file))).toEqual([]);
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
