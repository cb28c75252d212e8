/**
 * Published Artifacts on the real pipeline and PostgreSQL (§13.1, §7.3): a Worker stores content
 * in the Artifact store and publishes its signed manifest with `artifact.publish` under its
 * current Execution Lease; `work.submit` and `mission.submit_for_approval` take those hashes and
 * refuse unpublished ones; a manifest for content not stored, a forged manifest signature and a
 * second publication of a hash are refused, appending nothing. Content stays in its Mission
 * (§4.9, §13.3): only a publisher that uploaded the bytes itself, or may read a Group that
 * published them, publishes them, and the second is an explicit reuse the Event records.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import type { Harness, Actor } from './support/harness.js';
import { count, createMission, eventsOf } from './support/missions.js';
import { acceptedResult, activeWork, publish, publishedArtifact, signedManifest, storedContent, submitWork, WORKER_CAPABILITIES } from './support/publishedWork.js';
import { ArtifactAccess } from '../src/app/artifacts/artifactAccess.js';
import { world } from './support/world.js';

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let worker: Actor;

beforeAll(async () => {
  ({ h, owner, coordinator, worker } = await world({ humans: { owner: 'dana' }, agents: { coordinator: {}, worker: WORKER_CAPABILITIES } }));
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

describe('possession: Artifact content stays in its Mission (§4.9, §13.3)', () => {
  /** Content `text` uploaded by A's Worker and published in Mission A; its hash and the publishing Event. */
  async function publishedInA(text: string) {
    const a = await createMission(h, owner, coordinator);
    const work = await activeWork(h, a, { owner, coordinator, worker });
    const hash = await publishedArtifact(h, work, text);
    const event = (await eventsOf(h.pool, a.groupId)).at(-1) as { eventId: string };
    return { a, hash, eventId: event.eventId };
  }

  it('refuses B’s Worker a hash only A’s Worker uploaded, word for word as content never stored, appending nothing', async () => {
    const text = `A's report ${randomUUID()}`;
    const { hash } = await publishedInA(text);
    const b = await createMission(h, owner, coordinator);
    const workB = await activeWork(h, b, { owner, coordinator, worker: await h.agent('worker-b', WORKER_CAPABILITIES) });
    const before = await count(h.pool, 'events', 'group_id = $1', [b.groupId]);
    const taken = await publish(h, workB, signedManifest(h, workB, hash, Buffer.byteLength(text)));
    const missing = await publish(h, workB, signedManifest(h, workB, sha256ContentHash(`never ${randomUUID()}`), Buffer.byteLength(text)));
    expect(taken.ok ? 'accepted' : taken.error).toMatchObject({ code: 'INVALID_COMMAND' });
    if (!taken.ok && !missing.ok) expect(taken.error.message).toBe(missing.error.message);
    expect(await count(h.pool, 'events', 'group_id = $1', [b.groupId])).toBe(before);
  });

  it('lets a Worker that uploaded the same bytes itself publish them in its own Mission', async () => {
    const text = `common text ${randomUUID()}`;
    const { hash } = await publishedInA(text);
    const b = await createMission(h, owner, coordinator);
    const workerB = await h.agent('worker-b-uploads', WORKER_CAPABILITIES);
    const workB = await activeWork(h, b, { owner, coordinator, worker: workerB });
    const store = new ArtifactAccess(h.pool, h.settings.services.organizationId);
    const body = (async function* () { yield Buffer.from(text); })();
    expect(await store.upload(workerB.principal.id, hash, Buffer.byteLength(text), body, h.clock.millis)).toMatchObject({ ok: true, result: 'existing' });
    await h.expectOk(publish(h, workB, signedManifest(h, workB, hash, Buffer.byteLength(text))));
    const event = (await eventsOf(h.pool, b.groupId)).at(-1) as { kind: string; payload: JsonObject };
    expect(event.kind).toBe('artifact.published');
    expect(event.payload['reusedFrom']).toBeUndefined();
  });

  it('publishes content a Worker may read in another Mission as an explicit reuse whose Event cites the source, never less restricted', async () => {
    const text = `reusable ${randomUUID()}`;
    const { a, hash, eventId } = await publishedInA(text);
    const b = await createMission(h, owner, coordinator);
    const both = await h.agent('worker-in-both', WORKER_CAPABILITIES);
    await h.expectOk(h.send(owner, 'membership.change', { principal: { ...both.principal }, roles: ['observer'], visibilityAfterSequence: 0 }, { groupId: a.groupId, membershipEpoch: 1 }));
    const workB = await activeWork(h, b, { owner, coordinator, worker: both });
    const lowered = await publish(h, workB, signedManifest(h, workB, hash, Buffer.byteLength(text), { classification: 'public' }));
    expect(lowered.ok ? 'accepted' : [lowered.error.code, lowered.error.details?.['reason'] ?? lowered.error.message]).toEqual(['INVALID_COMMAND', expect.stringMatching(/restricted/)]);
    await h.expectOk(publish(h, workB, signedManifest(h, workB, hash, Buffer.byteLength(text))));
    const event = (await eventsOf(h.pool, b.groupId)).at(-1) as { kind: string; payload: JsonObject };
    expect(event).toMatchObject({ kind: 'artifact.published', payload: { artifact: { contentHash: hash }, reusedFrom: { groupId: a.groupId, eventId } } });
  });
});
