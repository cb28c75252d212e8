/**
 * The committed conformance report is what the pipeline showed in this very `npm test` run
 * (scripts/runTests.mjs runs this file after every other test passed, with the evidence they
 * recorded in .evidence/): every finding shown or not exactly as this run showed it, and each
 * shown finding backed by at least one of the tests it cites. With MW_WRITE_CONFORMANCE=1
 * (`npm run conformance:write`) it rewrites docs/conformance.json, docs/conformance.md and the
 * claim block of docs/conformance-claim.md from that evidence instead.
 */

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { buildReport, cited, readEvidence, readmeClaim, reportMarkdown, shownOf, unbackedCitations, type ConformanceReport } from './support/conformanceReport.js';

const FOLDER = resolve(process.env['MW_CONFORMANCE_EVIDENCE'] ?? '.evidence');
const DATA = resolve('docs/conformance.json');
const REPORT = resolve('docs/conformance.md');
const CLAIM = resolve('docs/conformance-claim.md');
const BLOCK = /<!-- conformance:claim -->[\s\S]*?<!-- \/conformance:claim -->/;

function withClaim(readme: string, report: ConformanceReport): string {
  return readme.replace(BLOCK, () => `<!-- conformance:claim -->\n${readmeClaim(report)}\n<!-- /conformance:claim -->`);
}

it('finds the evidence of a whole test run', () => {
  expect(existsSync(FOLDER), `${FOLDER} (run npm test first)`).toBe(true);
  expect(readEvidence(FOLDER).length).toBeGreaterThan(0);
});

it('commits the report this run’s evidence makes, and the claim it allows (docs/conformance-claim.md)', () => {
  const fresh = buildReport(readEvidence(FOLDER));
  expect(BLOCK.test(readFileSync(CLAIM, 'utf8')), 'docs/conformance-claim.md has a conformance:claim block').toBe(true);
  if (process.env['MW_WRITE_CONFORMANCE'] === '1') {
    const report = cited(fresh);
    writeFileSync(DATA, `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(REPORT, reportMarkdown(report));
    writeFileSync(CLAIM, withClaim(readFileSync(CLAIM, 'utf8'), report));
  }
  expect(existsSync(DATA), 'docs/conformance.json (npm run conformance:write)').toBe(true);
  const committed = JSON.parse(readFileSync(DATA, 'utf8')) as ConformanceReport;
  const rewrite = 'npm run conformance:write, then review the diff';
  expect(shownOf(committed), `what the report says is shown differs from this run: ${rewrite}`).toEqual(shownOf(fresh));
  expect(unbackedCitations(committed, fresh), `cited tests that showed nothing of it this run: ${rewrite}`).toEqual([]);
  expect(readFileSync(REPORT, 'utf8'), `docs/conformance.md is not docs/conformance.json rendered: ${rewrite}`).toBe(reportMarkdown(committed));
  const claim = readFileSync(CLAIM, 'utf8');
  expect(claim, `the claim in docs/conformance-claim.md is not the report's: ${rewrite}`).toBe(withClaim(claim, committed));
});
