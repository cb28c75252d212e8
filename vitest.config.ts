import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/globalDatabase.ts'],
    setupFiles: ['test/support/evidenceSource.ts'],
    pool: 'forks',
    // Two files at a time, also on 2 cores (vitest's default there is one): most files wait on
    // PostgreSQL, TLS sockets or the processes they start, so two overlap well — the whole suite
    // took 625 s of wall time this way against 912 s one at a time (2026-12-04, 2 cores).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
