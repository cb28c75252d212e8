/**
 * No import cycles under src/, type-only imports included: a cycle of types still ties two
 * modules' designs together, and one of values decides by load order which side sees
 * `undefined`. ESLint's `import-x/no-cycle` skips `import type` by design, so the graph is
 * walked here: every relative `import`/`export … from`/`import()` of every src file, then
 * Tarjan's strongly connected components. The finder itself is checked on a made-up graph.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Static, re-export and dynamic imports with a relative specifier. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(SPECIFIER)].map((m) => relative(SRC, resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts'))));
    graph.set(relative(SRC, file), [...new Set(targets)]);
  }
  return graph;
}

/** Tarjan's algorithm: the components of more than one module, or of one that imports itself. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the import graph of src/', () => {
  it('finds cycles, long and short, and nothing else', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
      ['f', ['d']],
    ]);
    expect(cycles(graph).sort()).toEqual([['a', 'b', 'c'], ['e']]);
    expect(cycles(new Map([['x', ['y']], ['y', []]]))).toEqual([]);
  });

  it('reads every kind of relative import, type-only ones too', () => {
    const graph = importGraph();
    expect(graph.get('server.ts')).toContain('app/groupAuthority.ts');
    expect(graph.get('cli/main.ts')).toContain('cli/runCli.ts');
    // The dispatch's `await import('./serveCommand.js')`: a dynamic import counts too.
    expect(graph.get('cli/runCli.ts')).toContain('cli/serveCommand.ts');
    expect(graph.get('app/wireError.ts')).toContain('protocol/schemas/wireTypes.ts');
    expect([...graph.values()].flat().filter((target) => !graph.has(target))).toEqual([]);
  });

  it('has no cycle', () => {
    expect(cycles(importGraph())).toEqual([]);
  });
});
