/**
 * The statements of a streamed Artifact upload (`migrations/0008_artifact_store.sql`): a content
 * row is claimed incomplete, its chunks are written one statement each as they arrive (no
 * transaction spans the upload, so a slow client holds no connection), and it is marked
 * complete only after the whole was hashed and found equal to its name (§13.1).
 */

import type { Queryable } from '../pool.js';

export interface PendingUploads {
  readonly count: number;
  readonly bytes: number;
}

/** What claiming a content hash found. */
export type UploadClaim = 'claimed' | 'stored' | 'inProgress';

/**
 * Published somewhere: an `artifact` aggregate row of any Group is keyed by the content hash. The
 * published ones among the Agent's (`$2`) uploads in the Organization (`$1`) are found in a
 * subquery of its own: on Citus a statement over a reference table (`artifact_contents`) may not
 * read a distributed table (`aggregates`) row by row.
 */
const PUBLISHED = `c.content_hash in (select a.aggregate_id from aggregates a where a.aggregate_type = 'artifact' and a.aggregate_id in (
  select content_hash from artifact_contents where organization_id = $1 and uploaded_by = $2))`;

/**
 * Removes the Organization's abandoned incomplete uploads (older than `abandonedBefore`) and
 * the Agent's complete uploads no Group published (older than `unpublishedBefore`).
 */
export async function sweepArtifactUploads(db: Queryable, organizationId: string, agentId: string, abandonedBefore: string, unpublishedBefore: string): Promise<void> {
  await db.query('delete from artifact_contents where organization_id = $1 and not complete and created_at < $2', [organizationId, abandonedBefore]);
  await db.query(
    `delete from artifact_contents c where organization_id = $1 and uploaded_by = $2 and complete and created_at < $3 and not ${PUBLISHED}`,
    [organizationId, agentId, unpublishedBefore],
  );
}

/** The Agent's uploads that no Group has published, complete or not, and their bytes. */
export async function readPendingUploads(db: Queryable, organizationId: string, agentId: string): Promise<PendingUploads> {
  const result = await db.query<{ count: number; bytes: string }>(
    `select count(*)::int as count, coalesce(sum(size_bytes), 0)::text as bytes from artifact_contents c
     where organization_id = $1 and uploaded_by = $2 and (not complete or not ${PUBLISHED})`,
    [organizationId, agentId],
  );
  const row = result.rows[0];
  return { count: row?.count ?? 0, bytes: Number(row?.bytes ?? 0) };
}

/**
 * Claims `contentHash` for an upload of (at least) `sizeBytes`: `stored` when a complete copy
 * exists, `inProgress` when another upload holds it.
 */
export async function claimUpload(db: Queryable, organizationId: string, contentHash: string, agentId: string, sizeBytes: number, createdAt: string): Promise<UploadClaim> {
  const inserted = await db.query(
    `insert into artifact_contents (organization_id, content_hash, size_bytes, chunk_count, complete, uploaded_by, created_at)
     values ($1, $2, $3, 0, false, $4, $5) on conflict do nothing`,
    [organizationId, contentHash, sizeBytes, agentId, createdAt],
  );
  if (inserted.rowCount === 1) return 'claimed';
  const existing = await db.query<{ complete: boolean }>('select complete from artifact_contents where organization_id = $1 and content_hash = $2', [organizationId, contentHash]);
  // Gone between the two statements (a sweep): the caller may try again; report it as busy.
  return existing.rows[0]?.complete === true ? 'stored' : 'inProgress';
}

export async function insertChunk(db: Queryable, organizationId: string, contentHash: string, chunkIndex: number, data: Uint8Array): Promise<void> {
  await db.query({
    name: 'insert-artifact-chunk',
    text: 'insert into artifact_chunks (organization_id, content_hash, chunk_index, data) values ($1, $2, $3, $4)',
    values: [organizationId, contentHash, chunkIndex, Buffer.from(data.buffer, data.byteOffset, data.byteLength)],
  });
}

/**
 * Marks a claimed upload complete with its final size and records, in the same statement, that
 * its uploader holds the bytes (`artifactPossessions.ts`); false when it was swept meanwhile.
 */
export async function completeUpload(db: Queryable, organizationId: string, contentHash: string, sizeBytes: number, chunkCount: number, completedAt: string): Promise<boolean> {
  const result = await db.query<{ completed: number }>(
    `with completed as (
       update artifact_contents set complete = true, size_bytes = $3, chunk_count = $4
       where organization_id = $1 and content_hash = $2 and not complete returning uploaded_by),
     held as (
       insert into artifact_possessions (organization_id, content_hash, agent_id, recorded_at)
       select $1, $2, uploaded_by, $5 from completed on conflict do nothing)
     select count(*)::int as completed from completed`,
    [organizationId, contentHash, sizeBytes, chunkCount, completedAt],
  );
  return result.rows[0]?.completed === 1;
}

/** Removes an incomplete upload and its chunks (never a complete content). */
export async function discardUpload(db: Queryable, organizationId: string, contentHash: string): Promise<void> {
  await db.query('delete from artifact_contents where organization_id = $1 and content_hash = $2 and not complete', [organizationId, contentHash]);
}
