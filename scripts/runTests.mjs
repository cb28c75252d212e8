// `npm test`'s last step. Runs every test with the pipeline's conformance evidence recorded into
// .evidence/ (MW_CONFORMANCE_EVIDENCE, src/app/evidence/), then — after a whole, passing run —
// the check that the committed conformance report (docs/conformance.md, and the claim in
// docs/conformance-claim.md) is exactly what this run showed (test/conformanceReport.check.ts). Arguments go to
// vitest; a run narrowed by them records evidence but checks no report.
//
// After a change that moves the evidence: `npm test`, then `npm run conformance:write`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const folder = resolve('.evidence');
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder);
const env = { ...process.env, MW_CONFORMANCE_EVIDENCE: folder };
const vitest = resolve('node_modules', '.bin', 'vitest');
const run = spawnSync(vitest, ['run', ...args], { stdio: 'inherit', env });
if (run.status !== 0) process.exit(run.status ?? 1);
if (args.length > 0) {
  console.log('A narrowed run: the conformance report is not checked against it.');
  process.exit(0);
}
const check = spawnSync(vitest, ['run', '--config', 'vitest.conformance.config.ts'], { stdio: 'inherit', env });
process.exit(check.status ?? 1);
