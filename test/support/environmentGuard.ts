/**
 * Vitest setup, per test file: the file must leave `DATABASE_URL` and the `MW_…` variables as it
 * found them. The int and e2e files of a worker share one process (vitest.config.ts,
 * SHARED_MODULES), so a variable one file leaves set is what the next file's nodes and homes read:
 * a home reads `DATABASE_URL` before its configured database (src/home/home.ts), and a file that
 * left it set sent the next file's Authorities to its own database. A file that does fails here,
 * naming the variables, and they are put back for the files after it.
 */

import { afterAll } from 'vitest';
import { EVIDENCE_SOURCE_VARIABLE } from '../../src/app/evidence/evidenceFile.js';

/** The variables watched; the evidence source is set per file on purpose (evidenceSource.ts). */
function watched(name: string): boolean {
  return name === 'DATABASE_URL' || (name.startsWith('MW_') && name !== EVIDENCE_SOURCE_VARIABLE);
}

const before = new Map(Object.entries(process.env).filter(([name]) => watched(name)));

afterAll(() => {
  const names = new Set([...before.keys(), ...Object.keys(process.env).filter(watched)]);
  const changed: string[] = [];
  for (const name of names) {
    const was = before.get(name);
    if (process.env[name] === was) continue;
    changed.push(name);
    if (was === undefined) delete process.env[name];
    else process.env[name] = was;
  }
  if (changed.length > 0) throw new Error(`this file left process.env changed: ${changed.sort().join(', ')} (put back now; the next file in this worker would have read it)`);
});
