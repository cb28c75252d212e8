/**
 * The vitest projects (vitest.config.ts) split the tests by their file names; these keep the
 * names honest: every test file falls in a project, and a unit test starts no PostgreSQL and no
 * child process, as far as its own imports show (those that do are listed as UNIT_WITH_PROCESSES
 * and run with int, as the long runs of UNIT_LONG_RUNS do), and a unit test that replaces a
 * module runs isolated (UNIT_WITH_MOCKS).
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import config, { UNIT_LONG_RUNS, UNIT_WITH_MOCKS, UNIT_WITH_PROCESSES } from '../vitest.config.js';

const ROOT = join(import.meta.dirname, '..');
const SUFFIXES = ['.unit.test.ts', '.int.test.ts', '.e2e.test.ts', '.conformance.test.ts'];

/** Test support that opens the database or starts a process (a node, the CLI, git). */
const STARTS_SOMETHING = ['database', 'globalDatabase', 'server', 'nodeProcess', 'consoleNode', 'mcpNode', 'operatorCli', 'disputDialogue', 'gitRepo'];

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

const FILES = testFiles(join(ROOT, 'test'));
const UNIT = FILES.filter((file) => (file.endsWith('.unit.test.ts') || file.endsWith('.conformance.test.ts')) && !UNIT_WITH_PROCESSES.includes(file));

describe('vitest projects', () => {
  it('take every test file by the suffix of its name', () => {
    expect(FILES.filter((file) => !SUFFIXES.some((suffix) => file.endsWith(suffix)))).toEqual([]);
  });

  it('list as unit tests with processes, long runs or mocks only unit test files that exist', () => {
    for (const file of [...UNIT_WITH_PROCESSES, ...UNIT_LONG_RUNS, ...UNIT_WITH_MOCKS]) {
      expect(file.endsWith('.unit.test.ts'), file).toBe(true);
      expect(existsSync(join(ROOT, file)), file).toBe(true);
    }
  });

  it('run as unit no file that imports the database, a child process or support that starts one', () => {
    const support = new RegExp(`^import [^;]*from '(\\.\\./)*(\\./)?support/(${STARTS_SOMETHING.join('|')})\\.js'`, 'm');
    const offenders = UNIT.filter((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      return /^import [^;]*from '(node:child_process|pg)'/m.test(text) || /\binject\('/.test(text) || support.test(text);
    });
    expect(offenders).toEqual([]);
  });

  it('run the long runs with int, not with unit', () => {
    const projects = (config.test?.projects ?? []) as { test: { name: string; include?: string[]; exclude?: string[] } }[];
    const project = (name: string) => projects.find((p) => p.test.name === name)?.test;
    for (const file of UNIT_LONG_RUNS) {
      expect(project('unit')?.exclude, file).toContain(file);
      expect(project('int')?.include, file).toContain(file);
    }
  });

  it('run every unit test that replaces a module (vi.mock) isolated, as unit-mocked', () => {
    const mocking = UNIT.filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(mocking.filter((file) => !UNIT_WITH_MOCKS.includes(file))).toEqual([]);
  });
});
