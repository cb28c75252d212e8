/**
 * The CLI's fast path (issue 33 item 5: a command through a running node well under 0.5 s): what
 * `missionweave command|replay|audit|registry|tree` loads before it knows whether a node takes
 * the command is the binary (src/cli/main.ts) and the forwarding client (operatorForward.ts), and
 * the modules those import, statically, on down. That set must stay free of the domain, the store,
 * the schemas and every npm package (pg, ajv, pino, OpenTelemetry…), which cost a process hundreds
 * of milliseconds to load; the dispatch (runCli.ts) and `Home` come only after the node declines.
 * Read from the source with the TypeScript parser; operatorForward.e2e.test.ts checks what a real
 * forwarded command loads.
 */

import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** The specifiers `file` imports or re-exports at run time (not `import type`), and those it loads with `import('…')`. */
function imports(file: string): { static: string[]; dynamic: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = { static: [] as string[], dynamic: [] as string[] };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.importClause?.isTypeOnly !== true) found.static.push(node.moduleSpecifier.text);
    if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier) && !node.isTypeOnly) found.static.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] !== undefined && ts.isStringLiteral(node.arguments[0])) found.dynamic.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `entries` and every module they import statically, on down: source files (relative to the root) and packages. */
function staticClosure(entries: readonly string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = entries.map((entry) => join(ROOT, entry));
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    const name = relative(ROOT, file);
    if (files.has(name)) continue;
    files.add(name);
    for (const specifier of imports(file).static) {
      if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
      else packages.add(specifier);
    }
  }
  return { files, packages };
}

/** More than the seven it loads today, fewer than anything that would notice: a wall, not a target. */
const MAX_FAST_PATH_MODULES = 10;

describe('the CLI\'s fast path', () => {
  const main = imports(join(ROOT, 'src/cli/main.ts'));
  const fastPath = staticClosure(['src/cli/main.ts', 'src/cli/operatorForward.ts']);

  it('loads the forwarding client, and the dispatch, only when needed', () => {
    expect(main.dynamic).toContain('./operatorForward.js');
    expect(main.dynamic).toContain('./runCli.js');
    expect(main.static).not.toContain('./runCli.js');
  });

  it('imports no npm package, only Node\'s own modules', () => {
    expect([...fastPath.packages].filter((name) => !name.startsWith('node:'))).toEqual([]);
  });

  it('imports nothing of the domain, the store, the application, the schemas, the transport, nor the dispatch or Home', () => {
    const heavy = [...fastPath.files].filter((file) => /^src\/(domain|store|app|protocol|transport|delivery|client)\//.test(file) || ['src/cli/runCli.ts', 'src/home/home.ts', 'src/server.ts'].includes(file));
    expect(heavy).toEqual([]);
    expect(fastPath.files.size).toBeLessThanOrEqual(MAX_FAST_PATH_MODULES);
  });

  it('would see a heavy import (the check is not vacuous)', () => {
    // What the fast path loaded before it went around `Home`, and the store's pool.
    const home = staticClosure(['src/home/home.ts']);
    expect([...home.files].some((file) => file.startsWith('src/app/'))).toBe(true);
    expect([...home.files].some((file) => file.startsWith('src/domain/'))).toBe(true);
    expect(staticClosure(['src/store/pool.ts']).packages).toContain('pg');
  });
});
