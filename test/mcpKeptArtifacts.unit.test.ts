/**
 * What `work_submit` keeps of its inline Artifacts while the Authority cannot be reached
 * (mcp/keptArtifacts.ts), on a real projection file with a small `maxKeptArtifactBytes`: each
 * Artifact not yet published, with its manifest signed now, in order; one this execution
 * published already is not kept; past the bound the call is refused (`kept_artifacts_full`,
 * naming the bound) and nothing of it is kept.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { hashArtifactSource } from '../src/client/artifacts.js';
import { keepInlineArtifacts } from '../src/client/mcp/keptArtifacts.js';
import type { ResolvedArtifact } from '../src/client/mcp/inlineArtifacts.js';
import { openProjection, projectionPathIn, type LocalProjection } from '../src/client/runtime/projection.js';
import { keySigner } from '../src/client/signer.js';
import { signWorkManifest } from '../src/client/workArtifacts.js';
import type { WorkItemDocument } from '../src/client/workDocuments.js';
import type { WorkExecution } from '../src/client/workExecution.js';
import { makeKey } from './support/keys.js';

const builder = makeKey({ type: 'agent', id: 'urn:missionweave:agent:builder' });
const agent = { agentId: builder.principal.id, signer: keySigner(builder.signingKey.keyId, builder.signingKey.privateKey) };
const ORIGIN = new URL('https://127.0.0.1:8443');
const opened: { projection: LocalProjection; folder: string }[] = [];
afterEach(() => {
  for (const { projection, folder } of opened.splice(0)) {
    projection.close();
    rmSync(folder, { recursive: true, force: true });
  }
});

function projection(maxKeptArtifactBytes: number): LocalProjection {
  const folder = mkdtempSync(join(tmpdir(), 'mw-kept-'));
  const opening = openProjection({ path: projectionPathIn(folder), agentId: agent.agentId, limits: { maxKeptArtifactBytes } });
  opened.push({ projection: opening, folder });
  return opening;
}

/** An execution as keepInlineArtifacts sees it: its WorkItem, what it published, its manifests signed as WorkExecution signs them. */
function execution(workItemId: string, published: readonly string[] = []): WorkExecution {
  const workItem = { workItemId, groupId: 'urn:missionweave:group:g', missionId: 'urn:missionweave:mission:m', contract: { requiredCapabilities: [{ id: 'acme.sql-migration', version: '1.5.0' }] } } as unknown as WorkItemDocument;
  return {
    workItemId,
    groupId: workItem.groupId,
    publishedArtifactHashes: published,
    signArtifactManifest: (origin: URL, content: { contentHash: string; sizeBytes: number }, details: ResolvedArtifact['details']) => signWorkManifest({ agent: { ...agent, sessionEpoch: undefined, command: () => Promise.reject(new Error('offline')) }, producer: undefined, workItem }, origin, content, details),
  } as unknown as WorkExecution;
}

const resolved = (text: string): ResolvedArtifact => ({ bytes: Buffer.from(text), details: { mediaType: 'text/x-sql', schemaUri: 'urn:acme:schema:sql' } });

it('keeps each Artifact not yet published with its signed manifest, in order', async () => {
  const kept = projection(1000);
  const done = await hashArtifactSource({ bytes: Buffer.from('-- published before') });
  const answer = await keepInlineArtifacts(kept, ORIGIN, execution('urn:missionweave:work-item:w1', [done.contentHash]), [resolved('ALTER TABLE a;'), resolved('-- published before'), resolved('ALTER TABLE b;')]);
  expect(answer.map((a) => a.kept)).toEqual([true, undefined, true]);
  expect(answer[1]).toMatchObject({ contentHash: done.contentHash, published: false });
  const rows = kept.artifacts.of('urn:missionweave:work-item:w1');
  expect(rows.map((r) => r.content.toString())).toEqual(['ALTER TABLE a;', 'ALTER TABLE b;']);
  expect(rows.map((r) => r.contentHash)).toEqual([answer[0]?.contentHash, answer[2]?.contentHash]);
  const manifest = JSON.parse(rows[0]?.manifest ?? '{}') as Record<string, unknown>;
  expect(manifest).toMatchObject({ contentHash: answer[0]?.contentHash, sizeBytes: 14, mediaType: 'text/x-sql', workItemId: 'urn:missionweave:work-item:w1', producer: { agentId: agent.agentId } });
  expect(JSON.stringify(manifest)).toContain(ORIGIN.host);
  expect(manifest['signature']).toBeDefined();
});

it('refuses past maxKeptArtifactBytes with kept_artifacts_full, naming the bound, and keeps nothing of that call', async () => {
  const kept = projection(100);
  await keepInlineArtifacts(kept, ORIGIN, execution('urn:missionweave:work-item:w1'), [resolved('x'.repeat(60))]);
  const refused = await keepInlineArtifacts(kept, ORIGIN, execution('urn:missionweave:work-item:w2'), [resolved('y'.repeat(30)), resolved('z'.repeat(20))]).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT', reason: 'kept_artifacts_full' });
  expect((refused as Error).message).toContain('pass the bound maxKeptArtifactBytes (100)');
  expect((refused as Error).message).toContain('nothing was kept');
  expect(kept.artifacts.of('urn:missionweave:work-item:w2')).toEqual([]);
  expect(kept.artifacts.totalBytes()).toBe(60);
});
