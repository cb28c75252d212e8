import { defineConfig } from 'vitest/config';

/**
 * The conformance report's check (scripts/runTests.mjs runs it after a whole `npm test` run):
 * no database, only the evidence that run recorded and the committed report.
 */
export default defineConfig({
  test: {
    include: ['test/conformanceReport.check.ts'],
    pool: 'forks',
  },
});
