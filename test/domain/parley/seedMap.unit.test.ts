/**
 * docs/parley.md maps the seed to code and tests (issue 29: "the seed's numbered rules each map
 * to code and test"). This holds the map to both ends: every section and numbered rule of the
 * seed, read at run time from ../shared, has a row; every file, name and test title a row names
 * exists; and a row without code says why.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SEED = join(process.cwd(), '..', 'shared', 'seeds', 'parley-v1.fr.txt');
const MAP_HEADING = '## Each rule of the seed → code → test';

/** The seed's sections (a short line between blank lines, not the title) and numbered rules. */
function seedRules(text: string): string[] {
  const lines = text.split('\n');
  const rules: string[] = [];
  let section: string | undefined;
  lines.forEach((line, i) => {
    const alone = (lines[i - 1] ?? '').trim() === '' && (lines[i + 1] ?? '').trim() === '';
    if (i > 0 && alone && line.length <= 60 && /^[A-ZÀ-Ý]/u.test(line) && !/[{}"─│▶◀.]|:$/u.test(line)) {
      section = line;
      rules.push(`« ${line} »`);
    }
    const numbered = /^(\d+)\. /.exec(line);
    if (numbered !== null && section !== undefined) rules.push(`« ${section} » ${numbered[1]}`);
  });
  return rules;
}

interface Row {
  readonly seed: string;
  readonly code: string;
  readonly test: string;
}

function mapRows(doc: string): Row[] {
  const start = doc.indexOf(MAP_HEADING);
  const end = doc.indexOf('\n## ', start + MAP_HEADING.length);
  const table = doc.slice(start, end === -1 ? undefined : end).split('\n').filter((l) => l.startsWith('| ')).slice(2);
  return table.map((line) => {
    const [seed = '', code = '', test = ''] = line.slice(2, -2).split(' | ');
    return { seed, code, test };
  });
}

/** Reads a source file as its text says it, with `\'` as the `'` it stands for. */
function source(path: string): string {
  return readFileSync(join(process.cwd(), path), 'utf8').replaceAll("\\'", "'");
}

function codePath(name: string): string {
  if (name.startsWith('src/') || name.startsWith('test/')) return name;
  return name.includes('/') ? `src/${name}` : `src/domain/parley/${name}`;
}

function testPath(name: string): string {
  return name.includes('/') ? name : `test/domain/parley/${name}`;
}

/** Each backticked `*.ts` of a cell with what follows it (names in backticks, titles in quotes). */
function cited(cell: string, pathOf: (name: string) => string): { path: string; names: string[]; titles: string[] }[] {
  const out: { path: string; names: string[]; titles: string[] }[] = [];
  for (const token of cell.matchAll(/`([^`]+)`|"([^"]+)"/g)) {
    const [, name, title] = token;
    if (name !== undefined && name.endsWith('.ts')) out.push({ path: pathOf(name), names: [], titles: [] });
    else if (name !== undefined) out.at(-1)?.names.push(name);
    else if (title !== undefined) out.at(-1)?.titles.push(title);
  }
  return out;
}

describe('docs/parley.md, the seed mapped to code and tests', () => {
  const doc = readFileSync(join(process.cwd(), 'docs', 'parley.md'), 'utf8');
  const rows = mapRows(doc);

  it('has a row for every section and numbered rule of the seed', () => {
    const rules = seedRules(readFileSync(SEED, 'utf8'));
    // Thirteen sections less the title, two lists of four numbered rules.
    expect(rules.length).toBeGreaterThanOrEqual(20);
    const unmapped = rules.filter((rule) => !rows.some((row) => row.seed.startsWith(rule) && (/\d$/.test(rule) || !/^\d/.test(row.seed.slice(rule.length).trim()))));
    expect(unmapped).toEqual([]);
  });

  it('names code and tests that exist, or says why a rule is not enforced', () => {
    const missing: string[] = [];
    for (const row of rows) {
      if (row.code.startsWith('not enforced')) continue;
      const code = cited(row.code, codePath);
      const tests = cited(row.test, testPath);
      if (code.length === 0 || tests.length === 0) missing.push(`${row.seed}: no code or no test`);
      for (const { path, names, titles } of [...code, ...tests]) {
        if (!existsSync(join(process.cwd(), path))) {
          missing.push(`${row.seed}: ${path}`);
          continue;
        }
        const text = source(path);
        for (const name of [...names, ...titles]) if (!text.includes(name)) missing.push(`${row.seed}: ${path} has no ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
