/**
 * The Artifacts the projection keeps with a `work.submit` signed while offline
 * (runtime/projectionArtifacts.ts): kept per WorkItem in the order given, across a reopen, and
 * bounded by maxKeptArtifactBytes (MAX_KEPT_ARTIFACT_BYTES) over all WorkItems — past it the
 * whole keep is refused, `too-large` naming the bound, and nothing of it is kept.
 */

import { expect, it } from 'vitest';
import { MAX_INLINE_ARTIFACTS_TOTAL_BYTES, MAX_KEPT_ARTIFACT_BYTES } from '../src/client/limits.js';
import { ProjectionError } from '../src/client/runtime/projectionErrors.js';
import { projectionFiles } from './support/projectionFiles.js';

const AGENT = 'urn:missionweave:agent:worker-7';
const G1 = 'urn:missionweave:group:g1';
const W1 = 'urn:missionweave:work-item:w1';
const W2 = 'urn:missionweave:work-item:w2';
const { home, open } = projectionFiles(AGENT, Date.parse('2026-07-15T00:00:00.000Z'));

function artifact(text: string): { contentHash: string; content: Buffer; manifest: string } {
  return { contentHash: `sha256:${text.length.toString(16).padStart(64, '0')}`, content: Buffer.from(text), manifest: JSON.stringify({ note: text.slice(0, 8) }) };
}

it('keeps a WorkItem\'s Artifacts in order across a reopen, and drops them', () => {
  const path = home();
  const first = open(path);
  first.artifacts.keep(G1, W1, [artifact('ALTER TABLE a;'), artifact('ALTER TABLE bb;')]);
  first.close();
  const again = open(path);
  expect(again.artifacts.of(W1).map((a) => [a.groupId, a.content.toString(), a.manifest])).toEqual([
    [G1, 'ALTER TABLE a;', '{"note":"ALTER TA"}'],
    [G1, 'ALTER TABLE bb;', '{"note":"ALTER TA"}'],
  ]);
  expect(again.artifacts.totalBytes()).toBe(29);
  again.artifacts.drop(W1);
  expect(again.artifacts.of(W1)).toEqual([]);
  expect(again.artifacts.totalBytes()).toBe(0);
});

it('refuses past maxKeptArtifactBytes, all WorkItems together, and keeps nothing of the refused keep', () => {
  expect(MAX_KEPT_ARTIFACT_BYTES).toBe(4 * MAX_INLINE_ARTIFACTS_TOTAL_BYTES);
  const projection = open(home(), { limits: { maxKeptArtifactBytes: 100 } });
  projection.artifacts.keep(G1, W1, [artifact('x'.repeat(60))]);
  let refused: unknown;
  try {
    projection.artifacts.keep(G1, W2, [artifact('y'.repeat(30)), artifact('z'.repeat(11))]);
  } catch (error) {
    refused = error;
  }
  expect(refused).toBeInstanceOf(ProjectionError);
  expect(refused).toMatchObject({ code: 'PROJECTION_FAILED', reason: 'too-large' });
  expect((refused as Error).message).toContain(`41 bytes of Artifacts to keep for ${W2}, with 60 kept already, pass the bound maxKeptArtifactBytes (100)`);
  expect(projection.artifacts.of(W2)).toEqual([]);
  expect(projection.artifacts.totalBytes()).toBe(60);
  // At the bound exactly, kept; keeping a WorkItem again replaces what it kept, not adds to it.
  projection.artifacts.keep(G1, W2, [artifact('y'.repeat(40))]);
  projection.artifacts.keep(G1, W1, [artifact('x'.repeat(59))]);
  expect(projection.artifacts.totalBytes()).toBe(99);
});
