/**
 * The committed conformance report is what the pipeline showed in this very `npm test` run
 * (scripts/runTests.mjs runs this file after every other test passed, with the evidence they
 * recorded in .evidence/). With MW_WRITE_CONFORMANCE=1 (`npm run conformance:write`) it rewrites
 * docs/conformance.md and the README's claim block from that evidence instead.
 */

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { buildReport, readEvidence, readmeClaim, reportMarkdown } from './support/conformanceReport.js';

const FOLDER = resolve(process.env['MW_CONFORMANCE_EVIDENCE'] ?? '.evidence');
const REPORT = resolve('docs/conformance.md');
const README = resolve('README.md');
const BLOCK = /<!-- conformance:claim -->[\s\S]*?<!-- \/conformance:claim -->/;

it('finds the evidence of a whole test run', () => {
  expect(existsSync(FOLDER), `${FOLDER} (run npm test first)`).toBe(true);
  expect(readEvidence(FOLDER).length).toBeGreaterThan(0);
});

it('commits the report and the README claim this run’s evidence makes', () => {
  const report = buildReport(readEvidence(FOLDER));
  const markdown = reportMarkdown(report);
  const readme = readFileSync(README, 'utf8');
  expect(BLOCK.test(readme), 'README.md has a conformance:claim block').toBe(true);
  const claimed = readme.replace(BLOCK, () => `<!-- conformance:claim -->\n${readmeClaim(report)}\n<!-- /conformance:claim -->`);
  if (process.env['MW_WRITE_CONFORMANCE'] === '1') {
    writeFileSync(REPORT, markdown);
    writeFileSync(README, claimed);
  }
  expect(existsSync(REPORT), 'docs/conformance.md (npm run conformance:write)').toBe(true);
  expect(readFileSync(REPORT, 'utf8'), 'docs/conformance.md differs from this run’s evidence: npm run conformance:write, then review the diff').toBe(markdown);
  expect(readFileSync(README, 'utf8'), 'the README’s claim differs from this run’s evidence: npm run conformance:write').toBe(claimed);
});
