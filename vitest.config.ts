import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Four projects, one per kind of test, so a developer runs the fast ones alone
 * (`npm run test:unit`) and `npm test` still runs them all:
 *
 * - unit: no PostgreSQL, no child process — the domain, protocol and the in-memory parts
 *   (`*.unit.test.ts`, and the official bundles, `*.conformance.test.ts`), all files of a worker
 *   in one module graph (isolate: false: a third of the CPU time, most of it went to importing
 *   src anew for every file); the few that replace a module (vi.mock) need a graph of their own
 *   and run beside it as unit-mocked (UNIT_WITH_MOCKS);
 * - int: against the shared template database (`*.int.test.ts`), the unit tests that start a
 *   child process (UNIT_WITH_PROCESSES) and the long runs (UNIT_LONG_RUNS);
 * - e2e: real nodes over TLS, and the CLI's binary (`*.e2e.test.ts`);
 * - browser: the console in Chromium (`*.browser.e2e.test.ts`).
 *
 * Only int, e2e and browser name the database's global setup; the three share one PostgreSQL
 * (test/support/globalDatabase.ts), and a run of unit alone starts none.
 *
 * int and e2e run unisolated too (SHARED_MODULES): each file gets its own database, temporary
 * folders and nodes, and nothing of src keeps state between files but caches keyed by what a file
 * owns (a home's folder, a profile set); test/support/environmentGuard.ts fails a file that leaves
 * DATABASE_URL or an MW_ variable changed. Importing src anew for every file cost 157 s of import
 * time and a fifth of the CPU: int and e2e together took 513 s of wall time and 10 min 18 s of user
 * CPU isolated, 407 s and 7 min 27 s unisolated, the same 639 tests passing (2026-12-05, 2 cores);
 * CI's int files on Citus 191 s isolated against about 80 s.
 */

/** Unit tests by name that start a child process (node -e, docker compose): run with int. */
export const UNIT_WITH_PROCESSES = [
  'test/heapTuning.unit.test.ts',
  'test/deployment.unit.test.ts',
  'test/stallWatch.unit.test.ts',
];

/**
 * Unit tests that are long runs rather than unit tests: CI's short fuzz run (tens of thousands of
 * fast-check cases over the parser, JCS, the frame decoder and the Command pipeline) cost as much
 * CPU as the domain's tests together. They run with int, their counts unchanged, so `npm test`
 * keeps them.
 */
export const UNIT_LONG_RUNS = ['test/fuzz.unit.test.ts'];

/** Unit tests that replace a module with vi.mock, which an unisolated run cannot do. */
export const UNIT_WITH_MOCKS = ['test/embeddedEvidence.unit.test.ts'];

const UNIT = ['test/**/*.unit.test.ts', 'test/**/*.conformance.test.ts'];
const DATABASE = ['test/support/globalDatabase.ts'];
const BROWSER = 'test/**/*.browser.e2e.test.ts';
/** int and e2e files share one module graph per worker (above); the browser's few files do not need it. */
const SHARED_MODULES = { isolate: false } as const;

export default defineConfig({
  resolve: {
    // tools/ import the server as "#src/*" (package.json "imports"): the built dist/ when they run,
    // the source here, as tsconfig.json's customConditions read it too.
    alias: [{ find: /^#src\/(.*)$/, replacement: `${fileURLToPath(new URL('./src/', import.meta.url))}$1` }],
  },
  test: {
    setupFiles: ['test/support/evidenceSource.ts', 'test/support/environmentGuard.ts'],
    pool: 'forks',
    // Two files at a time, also on 2 cores (vitest's default there is one): most files wait on
    // PostgreSQL, TLS sockets or the processes they start, so two overlap well — the whole suite
    // took 625 s of wall time this way against 912 s one at a time (2026-12-04, 2 cores).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT, exclude: [...UNIT_WITH_PROCESSES, ...UNIT_LONG_RUNS, ...UNIT_WITH_MOCKS], isolate: false },
      },
      {
        extends: true,
        test: { name: 'unit-mocked', include: UNIT_WITH_MOCKS },
      },
      {
        extends: true,
        test: { name: 'int', include: ['test/**/*.int.test.ts', ...UNIT_WITH_PROCESSES, ...UNIT_LONG_RUNS], globalSetup: DATABASE, ...SHARED_MODULES },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['test/**/*.e2e.test.ts'], exclude: [BROWSER], globalSetup: DATABASE, ...SHARED_MODULES },
      },
      {
        extends: true,
        test: { name: 'browser', include: [BROWSER], globalSetup: DATABASE },
      },
    ],
  },
});
