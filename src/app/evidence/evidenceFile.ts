/**
 * The conformance evidence of one process, appended to a file of the folder named by
 * `MW_CONFORMANCE_EVIDENCE` (set by `npm test`, see scripts/runTests.mjs), one JSON line per
 * distinct fact and source: the test file the fact came from (`MW_EVIDENCE_SOURCE`, which the
 * test setup sets per file and the nodes a test starts inherit), or `node` outside a test.
 *
 * Each fact is written when first seen, synchronously, so that a node a test SIGKILLs has
 * already written what it showed; the set of seen facts is bounded by kinds × codes × states.
 */

import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EvidenceFact, PipelineEvidence } from './pipelineEvidence.js';

export const EVIDENCE_FOLDER_VARIABLE = 'MW_CONFORMANCE_EVIDENCE';
export const EVIDENCE_SOURCE_VARIABLE = 'MW_EVIDENCE_SOURCE';

/** One recorded fact, as the report reads it back. */
export type EvidenceLine = EvidenceFact & { readonly source: string };

class EvidenceFile implements PipelineEvidence {
  private readonly seen = new Set<string>();
  private readonly path: string;

  constructor(folder: string) {
    this.path = join(folder, `${process.pid}.jsonl`);
  }

  record(fact: EvidenceFact): void {
    const line = JSON.stringify({ ...fact, source: process.env[EVIDENCE_SOURCE_VARIABLE] ?? 'node' });
    if (this.seen.has(line)) return;
    this.seen.add(line);
    appendFileSync(this.path, `${line}\n`);
  }
}

/** The evidence recorder `npm test` asks for, or `undefined` (no cost) everywhere else. */
export function evidenceFromEnvironment(): PipelineEvidence | undefined {
  const folder = process.env[EVIDENCE_FOLDER_VARIABLE];
  return folder === undefined || folder === '' ? undefined : new EvidenceFile(folder);
}
