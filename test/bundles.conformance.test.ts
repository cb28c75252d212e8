/**
 * The three official bundles, run as tests: 58 structural vectors, 62 cryptography evaluations
 * and 30 admission evaluations at the pinned commit, each one a separate expectation.
 */

import { expect, it } from 'vitest';
import { Bundle } from '../src/cli/conformance/bundle.js';
import { runAdmission } from '../src/cli/conformance/admission.js';
import { runCryptography } from '../src/cli/conformance/cryptography.js';
import { runStructural } from '../src/cli/conformance/structural.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { describeWithSpec, SPEC_DIR, specBytes } from './support/spec.js';

describeWithSpec('official MissionWeave 0.1 bundles', () => {
  const bundle = new Bundle(SPEC_DIR);
  const schemas = schemaRegistry();

  it('is the pinned upstream commit', () => {
    expect(specBytes('UPSTREAM_COMMIT').toString('utf8').trim()).toBe('f7e70a72c76bbeb5014c186cd820aac2112f0dde');
  });

  it('passes all 58 structural vectors', () => {
    const report = runStructural(bundle, schemas);
    expect(report.failures).toEqual([]);
    expect(report).toMatchObject({ passed: 58, failed: 0, total: 58 });
  });

  it('passes all 62 cryptography evaluations with an intact bundle', () => {
    const report = runCryptography(bundle, schemas);
    expect(report.failures).toEqual([]);
    expect(report).toMatchObject({ passed: 62, failed: 0, total: 62 });
  });

  it('passes all 30 admission evaluations with an intact bundle', async () => {
    const report = await runAdmission(bundle, schemas);
    expect(report.failures).toEqual([]);
    expect(report).toMatchObject({ passed: 30, failed: 0, total: 30 });
  });
});
