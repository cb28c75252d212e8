/**
 * No import cycle between the folders of src/domain, type-only imports included (the file-level
 * check is importCycles.unit.test.ts). A folder cycle ties aggregates' designs together even when
 * no two files import each other: each node is a sub-folder (an aggregate's module, or `kinds/`,
 * the framework below them) or a file at the top of src/domain, and an edge is any relative import
 * from one node into another. Tarjan's strongly connected components find the cycles.
 *
 * `kinds/` is the framework every module is written against: it imports no aggregate folder.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const DOMAIN = resolve(import.meta.dirname, '../src/domain');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Static, re-export and dynamic imports with a relative specifier. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** The folder (or top-level file) of src/domain that `path` belongs to; undefined outside it. */
function nodeOf(path: string): string | undefined {
  const inside = relative(DOMAIN, path);
  if (inside.startsWith('..')) return undefined;
  return (inside.split('/')[0] as string).replace(/\.js$/, '.ts');
}

function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(DOMAIN)) {
    const from = nodeOf(file) as string;
    const targets = graph.get(from) ?? new Set<string>();
    graph.set(from, targets);
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const to = nodeOf(resolve(dirname(file), match[1] as string));
      if (to !== undefined && to !== from) targets.add(to);
    }
  }
  return graph;
}

/** Tarjan's algorithm: the components of more than one node. */
function knots(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
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
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** Pairs of folders that import each other, each once. */
function mutualPairs(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  return [...graph].flatMap(([a, targets]) => [...targets].filter((b) => a < b && graph.get(b)?.has(a) === true).map((b) => `${a} <-> ${b}`)).sort();
}

describe('the folder graph of src/domain', () => {
  it('finds knots, long and short, and nothing else', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a', 'd'])],
      ['d', new Set<string>()],
      ['e', new Set(['f'])],
      ['f', new Set(['e'])],
    ]);
    expect(knots(graph).sort()).toEqual([['a', 'b', 'c'], ['e', 'f']]);
    expect(mutualPairs(graph)).toEqual(['e <-> f']);
  });

  it('reads the folders and the top-level files', () => {
    const graph = folderGraph();
    expect(graph.get('coreModules.ts')).toContain('workItem');
    expect(graph.get('mission')).toContain('kinds');
    expect([...graph.values()].flatMap((targets) => [...targets]).filter((target) => !graph.has(target))).toEqual([]);
  });

  it('keeps kinds/ below every aggregate: it imports only top-level files', () => {
    expect([...(folderGraph().get('kinds') ?? [])].filter((target) => !target.endsWith('.ts'))).toEqual([]);
  });

  it('has no knot', () => {
    const graph = folderGraph();
    expect({ knots: knots(graph), mutualPairs: mutualPairs(graph) }).toEqual({ knots: [], mutualPairs: [] });
  });
});
