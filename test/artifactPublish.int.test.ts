/**
 * Published Artifacts on the real pipeline and PostgreSQL (§13.1, §7.3): a Worker stores content
 * in the Artifact store and publishes its signed manifest with `artifact.publish` under its
 * current Execution Lease; `work.submit` and `mission.submit_for_approval` take those hashes and
 * refuse unpublished ones; a manifest for content not stored, a forged manifest signature and a
 * second publication of a hash are refused, appending nothing.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import { createTestDatabase } from './support/database.js';
import { Harness, type Actor } from './support/harness.js';
import { count, createMission, eventsOf } from './support/missions.js';
import { acceptedResult, activeWork, publish, publishedArtifact, signedManifest, storedContent, submitWork, WORKER_CAPABILITIES } from './support/publishedWork.js';

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let worker: Actor;

beforeAll(async () => {
  const db = await createTestDatabase();
  h = await Harness.start(db.pool);
  owner = await h.human('dana');
  coordinator = await h.agent('coordinator');
  worker = await h.agent('worker', WORKER_CAPABILITIES);
});

const code = (outcome: { ok: boolean; error?: { code: string } }) => (outcome.ok ? 'accepted' : outcome.error?.code);

describe('artifact.publish', () => {
  it('publishes stored content under the current lease; the Event carries the signed manifest and its Group state row is kept', async () => {
    const m = await createMission(h, owner, coordinator);
    const work = await activeWork(h, m, { owner, coordinator, worker });
    const hash = await publishedArtifact(h, work, `report ${randomUUID()}`);
    const published = (await eventsOf(h.pool, m.groupId)).at(-1) as { kind: string; payload: { artifact: JsonObject; workItemId: string; executionLeaseId: string } };
    expect(published.kind).toBe('artifact.published');
    expect(published.payload).toMatchObject({ artifact: { contentHash: hash, workItemId: work.workItemId }, workItemId: work.workItemId, executionLeaseId: work.executionLeaseId });
    expect(await count(h.pool, 'aggregates', "group_id = $1 and aggregate_type = 'artifact' and aggregate_id = $2", [m.groupId, hash])).toBe(1);
  });

  it('refuses content not stored, a forged manifest and a second publication of a hash, appending nothing', async () => {
    const m = await createMission(h, owner, coordinator);
    const work = await activeWork(h, m, { owner, coordinator, worker });
    const content = `never uploaded ${randomUUID()}`;
    const missing = signedManifest(h, work, sha256ContentHash(content), Buffer.byteLength(content));
    const stored = `uploaded ${randomUUID()}`;
    const hash = await storedContent(h, stored, worker);
    const forged = { ...signedManifest(h, work, hash, Buffer.byteLength(stored)), classification: 'public' };
    const before = await count(h.pool, 'events', 'group_id = $1', [m.groupId]);
    const refused = [await publish(h, work, missing), await publish(h, work, forged)];
    expect(refused.map(code)).toEqual(['INVALID_COMMAND', 'AUTH_INVALID_SIGNATURE']);
    expect(await count(h.pool, 'events', 'group_id = $1', [m.groupId])).toBe(before);
    await h.expectOk(publish(h, work, signedManifest(h, work, hash, Buffer.byteLength(stored))));
    expect(code(await publish(h, work, signedManifest(h, work, hash, Buffer.byteLength(stored))))).toBe('INVALID_STATE_TRANSITION');
  });
});

describe('work.submit and mission.submit_for_approval take published Artifacts only', () => {
  it('refuses an unpublished hash in work.submit and accepts the published one', async () => {
    const m = await createMission(h, owner, coordinator);
    const work = await activeWork(h, m, { owner, coordinator, worker });
    const hash = await publishedArtifact(h, work, `result ${randomUUID()}`);
    const unpublished = await storedContent(h, `stored, never published ${randomUUID()}`, worker);
    expect(code(await submitWork(h, work, [hash, unpublished]))).toBe('INVALID_COMMAND');
    await h.expectOk(submitWork(h, work, [hash]));
  });

  it('submits for approval exactly the accepted results, refusing a hash never published here', async () => {
    const m = await createMission(h, owner, coordinator);
    const hashes = await acceptedResult(h, m, { owner, coordinator, worker }, [`migration ${randomUUID()}`, `report ${randomUUID()}`]);
    const asCoordinator = { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 };
    const foreign = sha256ContentHash(`elsewhere ${randomUUID()}`);
    const refused = await h.send(coordinator, 'mission.submit_for_approval', { artifactHashes: [...hashes, foreign] }, asCoordinator);
    expect(refused.ok ? 'accepted' : [refused.error.code, refused.error.details?.['contentHash']]).toEqual(['INVALID_COMMAND', foreign]);
    await h.expectOk(h.send(coordinator, 'mission.submit_for_approval', { artifactHashes: hashes }, asCoordinator));
    const submitted = (await eventsOf(h.pool, m.groupId)).at(-1) as { kind: string; payload: { artifactHashes: string[] } };
    expect(submitted).toMatchObject({ kind: 'mission.submitted_for_approval', payload: { artifactHashes: [...hashes].sort() } });
  });
});
