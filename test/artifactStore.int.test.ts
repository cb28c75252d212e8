/**
 * The Artifact store against a real PostgreSQL (§13.1): content is chunked on the way in and
 * re-hashed on the way out, kept only under its own hash, refused early when too large, bounded
 * per Agent while unpublished, and served only to its uploaders and to readers of a Group that
 * published it, its publisher holding the bytes (§13.3). Published Artifacts are seeded as
 * `artifact` aggregate rows (store level).
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ArtifactAccess } from '../src/app/artifacts/artifactAccess.js';
import { ArtifactIntegrityError } from '../src/app/artifacts/downloadArtifact.js';
import { contentHashOf, seedPublishedArtifact } from './support/artifacts.js';
import type { TestDatabase } from './support/database.js';
import type { Actor, Harness } from './support/harness.js';
import { createMission, type MissionRefs } from './support/missions.js';
import { world } from './support/world.js';

const CHUNK = 1024;
let db: TestDatabase;
let harness: Harness;
let store: ArtifactAccess;
let organizationId: string;
let owner: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ db, h: harness, owner, mission } = await world({
    humans: { owner: 'owner' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
    poolSize: 4,
  }));
  organizationId = harness.authority.settings.services.organizationId;
  store = new ArtifactAccess(db.pool, organizationId, { chunkBytes: CHUNK, maxContentBytes: 10 * CHUNK, maxPendingUploadsPerAgent: 3, maxPendingBytesPerAgent: 24 * CHUNK });
});

function agentId(): string {
  return `urn:missionweave:agent:${randomUUID()}`;
}

/** Yields `bytes` in pieces of `piece` bytes, counting how many were pulled. */
function pieces(bytes: Buffer, piece = 300): AsyncIterable<Uint8Array> & { pulled: number } {
  const source = {
    pulled: 0,
    async *[Symbol.asyncIterator]() {
      for (let offset = 0; offset < bytes.length; offset += piece) {
        source.pulled++;
        yield bytes.subarray(offset, offset + piece);
      }
    },
  };
  return source;
}

async function rows(contentHash: string): Promise<{ contents: number; chunks: number }> {
  const contents = await db.pool.query('select 1 from artifact_contents where organization_id = $1 and content_hash = $2', [organizationId, contentHash]);
  const chunks = await db.pool.query('select 1 from artifact_chunks where organization_id = $1 and content_hash = $2', [organizationId, contentHash]);
  return { contents: contents.rowCount ?? 0, chunks: chunks.rowCount ?? 0 };
}

async function readAll(uploader: string, contentHash: string): Promise<Buffer> {
  const opening = await store.download({ type: 'agent', id: uploader }, contentHash);
  if (!opening.ok) throw new Error(opening.error.code);
  const parts: Buffer[] = [];
  for await (const chunk of opening.chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

function upload(uploader: string, bytes: Buffer, options: { hash?: string; declared?: number | null } = {}) {
  const declared = options.declared === null ? undefined : (options.declared ?? bytes.length);
  return store.upload(uploader, options.hash ?? contentHashOf(bytes), declared, pieces(bytes), harness.clock.millis);
}

describe('the Artifact store', () => {
  it('stores a multi-chunk content in chunks and returns it byte for byte', async () => {
    const bytes = randomBytes(4 * CHUNK + 123);
    const uploader = agentId();
    expect(await upload(uploader, bytes, { declared: null })).toMatchObject({ ok: true, result: 'stored', sizeBytes: bytes.length });
    expect(await rows(contentHashOf(bytes))).toEqual({ contents: 1, chunks: 5 });
    expect((await readAll(uploader, contentHashOf(bytes))).equals(bytes)).toBe(true);
  });

  it('keeps nothing of a content that does not hash to its name', async () => {
    const bytes = randomBytes(3 * CHUNK);
    const named = contentHashOf(randomBytes(8));
    const outcome = await upload(agentId(), bytes, { hash: named });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'PROTOCOL_VIOLATION' } });
    expect(await rows(named)).toEqual({ contents: 0, chunks: 0 });
  });

  it('refuses a declared oversize content before reading its body, and a running one as soon as it passes the limit', async () => {
    const bytes = randomBytes(12 * CHUNK);
    const declaredSource = pieces(bytes);
    expect(await store.upload(agentId(), contentHashOf(bytes), bytes.length, declaredSource, harness.clock.millis)).toMatchObject({ ok: false, tooLarge: true });
    expect(declaredSource.pulled).toBe(0);
    const running = pieces(bytes, CHUNK);
    expect(await store.upload(agentId(), contentHashOf(bytes), undefined, running, harness.clock.millis)).toMatchObject({ ok: false, tooLarge: true, error: { code: 'PROTOCOL_VIOLATION' } });
    expect(running.pulled).toBe(11);
    expect(await rows(contentHashOf(bytes))).toEqual({ contents: 0, chunks: 0 });
  });

  it('stores one copy of a content uploaded twice, after reading it again', async () => {
    const bytes = randomBytes(2 * CHUNK + 5);
    const first = agentId();
    expect(await upload(first, bytes)).toMatchObject({ ok: true, result: 'stored' });
    expect(await upload(agentId(), bytes)).toMatchObject({ ok: true, result: 'existing', sizeBytes: bytes.length });
    expect(await upload(agentId(), Buffer.concat([bytes, Buffer.from('x')]), { hash: contentHashOf(bytes) })).toMatchObject({ ok: false, error: { code: 'PROTOCOL_VIOLATION' } });
    expect(await rows(contentHashOf(bytes))).toEqual({ contents: 1, chunks: 3 });
  });

  it('aborts a download whose stored chunk was corrupted before the last chunk leaves', async () => {
    const bytes = randomBytes(3 * CHUNK);
    const uploader = agentId();
    await upload(uploader, bytes);
    await db.pool.query("update artifact_chunks set data = overlay(data placing '\\x00'::bytea from 7) where organization_id = $1 and content_hash = $2 and chunk_index = 1", [organizationId, contentHashOf(bytes)]);
    const opening = await store.download({ type: 'agent', id: uploader }, contentHashOf(bytes));
    if (!opening.ok) throw new Error(opening.error.code);
    let served = 0;
    await expect((async () => {
      for await (const chunk of opening.chunks) served += chunk.length;
    })()).rejects.toBeInstanceOf(ArtifactIntegrityError);
    expect(served).toBe(2 * CHUNK);
  });

  it('bounds an Agent’s unpublished uploads in count and bytes; publishing frees a place', async () => {
    const uploader = agentId();
    const contents = [0, 1, 2].map(() => randomBytes(CHUNK));
    for (const bytes of contents) expect(await upload(uploader, bytes)).toMatchObject({ ok: true });
    const fourth = randomBytes(CHUNK);
    expect(await upload(uploader, fourth)).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED', retryable: true } });
    expect(await rows(contentHashOf(fourth))).toEqual({ contents: 0, chunks: 0 });
    await seedPublishedArtifact(db.pool, mission.groupId, contentHashOf(contents[0] as Buffer));
    expect(await upload(uploader, fourth)).toMatchObject({ ok: true });
    const bytesBound = agentId();
    expect(await upload(bytesBound, randomBytes(10 * CHUNK))).toMatchObject({ ok: true });
    expect(await upload(bytesBound, randomBytes(10 * CHUNK))).toMatchObject({ ok: true });
    expect(await upload(bytesBound, randomBytes(5 * CHUNK))).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } });
    expect(await upload(bytesBound, randomBytes(5 * CHUNK), { declared: null })).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED' } });
  });

  it('removes an upload whose body failed, and sweeps an abandoned one at the next upload', async () => {
    const uploader = agentId();
    const bytes = randomBytes(3 * CHUNK);
    const failing = {
      async *[Symbol.asyncIterator]() {
        yield bytes.subarray(0, 2 * CHUNK);
        throw new Error('aborted');
      },
    };
    expect(await store.upload(uploader, contentHashOf(bytes), bytes.length, failing, harness.clock.millis)).toMatchObject({ ok: false, aborted: true });
    expect(await rows(contentHashOf(bytes))).toEqual({ contents: 0, chunks: 0 });
    const stale = contentHashOf(randomBytes(8));
    await db.pool.query("insert into artifact_contents (organization_id, content_hash, size_bytes, chunk_count, complete, uploaded_by, created_at) values ($1, $2, 0, 0, false, $3, '2020-01-01T00:00:00.000Z')", [organizationId, stale, agentId()]);
    expect(await upload(uploader, randomBytes(10))).toMatchObject({ ok: true });
    expect(await rows(stale)).toEqual({ contents: 0, chunks: 0 });
  });

  it('serves its uploaders and readers of a Group whose publisher held the bytes, and no one else', async () => {
    const bytes = randomBytes(CHUNK + 1);
    const hash = contentHashOf(bytes);
    const uploader = await harness.agent('uploader');
    await upload(uploader.principal.id, bytes);
    const again = await harness.agent('uploads-it-too');
    expect(await upload(again.principal.id, bytes)).toMatchObject({ ok: true, result: 'existing' });
    const reader = await harness.agent('reader');
    const late = await harness.agent('late');
    const stranger = await harness.agent('stranger');
    const grant = (agent: Actor, visibility: { visibilityAfterSequence?: number }, groupId = mission.groupId) =>
      harness.expectOk(harness.send(owner, 'membership.change', { principal: { ...agent.principal }, roles: ['observer'], ...visibility }, { groupId, membershipEpoch: 1 }));
    // A Mission whose manifest names the hash without its publisher ever holding the bytes (§13.3).
    const other = await createMission(harness, owner, await harness.agent('coordinator-elsewhere'));
    await grant(reader, { visibilityAfterSequence: 0 }, other.groupId);
    await seedPublishedArtifact(db.pool, other.groupId, hash, { producerAgentId: stranger.principal.id });
    const throughOther = await store.download(reader.principal, hash);
    await grant(reader, { visibilityAfterSequence: 0 });
    await seedPublishedArtifact(db.pool, mission.groupId, hash, { producerAgentId: uploader.principal.id });
    await grant(late, {});
    expect((await store.download(uploader.principal, hash)).ok).toBe(true);
    expect((await readAll(again.principal.id, hash)).equals(bytes)).toBe(true);
    expect((await readAll(reader.principal.id, hash)).equals(bytes)).toBe(true);
    const refusals = await Promise.all([late, stranger].map(async (agent) => store.download(agent.principal, hash)));
    const missing = await store.download(stranger.principal, contentHashOf(randomBytes(4)));
    for (const refusal of [throughOther, ...refusals]) expect(refusal).toEqual(missing);
    expect(missing).toMatchObject({ ok: false, error: { code: 'GROUP_NOT_FOUND' } });
  });

  it('walks an Artifact’s provenance in a Group, bounded, for its readers only', async () => {
    const [a, b, c] = [randomBytes(4), randomBytes(4), randomBytes(4)].map(contentHashOf) as [string, string, string];
    const cited = contentHashOf(randomBytes(4));
    await seedPublishedArtifact(db.pool, mission.groupId, a);
    await seedPublishedArtifact(db.pool, mission.groupId, b, { sourceArtifactHashes: [a, cited] });
    await seedPublishedArtifact(db.pool, mission.groupId, c, { sourceArtifactHashes: [b, a] });
    const read = await store.provenance(mission.groupId, (await harness.agent('coordinator-reader')).principal, c);
    expect(read).toMatchObject({ ok: false, error: { code: 'GROUP_NOT_FOUND' } });
    const member = await harness.agent('provenance-reader');
    await harness.expectOk(harness.send(owner, 'membership.change', { principal: { ...member.principal }, roles: ['observer'], visibilityAfterSequence: 0 }, { groupId: mission.groupId, membershipEpoch: 1 }));
    const walked = await store.provenance(mission.groupId, member.principal, c);
    if (!walked.ok) throw new Error(walked.error.code);
    expect(walked.provenance.artifacts.map((n) => [n.contentHash, n.depth])).toEqual([[c, 0], [b, 1], [a, 1]]);
    expect(walked.provenance).toMatchObject({ unresolved: [cited], truncated: false });
    const shallow = new ArtifactAccess(db.pool, organizationId, { maxProvenanceDepth: 0 });
    const cut = await shallow.provenance(mission.groupId, member.principal, c);
    expect(cut).toMatchObject({ ok: true, provenance: { truncated: true, artifacts: [{ contentHash: c }] } });
    const narrow = await new ArtifactAccess(db.pool, organizationId, { maxProvenanceNodes: 2 }).provenance(mission.groupId, member.principal, c);
    expect(narrow).toMatchObject({ ok: true, provenance: { truncated: true, unresolved: [] } });
    if (narrow.ok) expect(narrow.provenance.artifacts.map((n) => n.contentHash)).toEqual([c, b]);
  });
});
