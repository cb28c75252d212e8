/**
 * `missionweave conformance [--spec DIR] [--json]`: runs the three official bundles against our
 * implementation; exits 1 on any mismatch or bundle-integrity problem.
 */

import { join, resolve } from 'node:path';
import { schemaRegistry } from '../protocol/schemas/files.js';
import { parseArgs, stringOption } from './args.js';
import { runAdmission } from './conformance/admission.js';
import { Bundle, type SuiteReport } from './conformance/bundle.js';
import { runCryptography } from './conformance/cryptography.js';
import { runStructural } from './conformance/structural.js';

export function defaultSpecDirectory(): string {
  return resolve(process.env['MW_SPEC_DIR'] ?? join(process.cwd(), '..', 'shared', 'missionweave-0.1'));
}

export async function runAllSuites(specDir: string): Promise<Record<string, SuiteReport>> {
  const bundle = new Bundle(specDir);
  const schemas = schemaRegistry();
  return {
    structural: runStructural(bundle, schemas),
    cryptography: runCryptography(bundle, schemas),
    admission: await runAdmission(bundle, schemas),
  };
}

export async function conformanceCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { spec: 'value', json: 'boolean' });
  const specDir = resolve(stringOption(args, 'spec') ?? defaultSpecDirectory());
  const reports = await runAllSuites(specDir);
  let clean = true;
  for (const [suite, report] of Object.entries(reports)) {
    clean &&= report.failed === 0 && report.failures.length === 0;
    process.stdout.write(`${suite}: ${report.passed}/${report.total} passed, ${report.failed} failed\n`);
    for (const line of report.failures) process.stdout.write(`  ${line}\n`);
  }
  if (args.options.has('json')) {
    const summary = Object.fromEntries(
      Object.entries(reports).map(([suite, r]) => [
        suite,
        { passed: r.passed, failed: r.failed, total: r.total, integrityProblems: r.failures.length - r.failed },
      ]),
    );
    process.stdout.write(`${JSON.stringify({ spec: specDir, ...summary })}\n`);
  }
  return clean ? 0 : 1;
}
