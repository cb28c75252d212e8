/**
 * Facts about stored Artifact content (`migrations/0008_artifact_store.sql`) that decisions
 * read: which content hashes are completely stored, and their size. `artifact.publish` needs
 * the content in the store before its manifest can enter the Group (§13.1). The streaming
 * upload and download paths live with the Artifact routes; `storeContent` writes a small
 * content in one statement per chunk (tests, the CLI, and the upload path's last step).
 */

import type { Queryable } from '../pool.js';

export interface StoredContent {
  readonly contentHash: string;
  readonly sizeBytes: number;
  readonly uploadedBy: string;
}

/** The completely stored contents among `hashes`, by hash. */
export async function readStoredContents(db: Queryable, organizationId: string, hashes: readonly string[]): Promise<Map<string, StoredContent>> {
  const found = new Map<string, StoredContent>();
  if (hashes.length === 0) return found;
  const result = await db.query<{ content_hash: string; size_bytes: string; uploaded_by: string }>(
    'select content_hash, size_bytes, uploaded_by from artifact_contents where organization_id = $1 and content_hash = any($2::text[]) and complete',
    [organizationId, [...new Set(hashes)]],
  );
  for (const row of result.rows) found.set(row.content_hash, { contentHash: row.content_hash, sizeBytes: Number(row.size_bytes), uploadedBy: row.uploaded_by });
  return found;
}

/** Stores `chunks` (already hashed by the caller to `contentHash`) as one complete content; a hash stored before is kept as it is. */
export async function storeContent(db: Queryable, organizationId: string, contentHash: string, chunks: readonly Uint8Array[], uploadedBy: string, createdAt: string): Promise<void> {
  const size = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  const inserted = await db.query(
    'insert into artifact_contents (organization_id, content_hash, size_bytes, chunk_count, complete, uploaded_by, created_at) values ($1, $2, $3, $4, false, $5, $6) on conflict do nothing',
    [organizationId, contentHash, size, chunks.length, uploadedBy, createdAt],
  );
  if (inserted.rowCount === 0) return;
  for (const [index, chunk] of chunks.entries()) {
    await db.query('insert into artifact_chunks (organization_id, content_hash, chunk_index, data) values ($1, $2, $3, $4)', [organizationId, contentHash, index, Buffer.from(chunk)]);
  }
  await db.query('update artifact_contents set complete = true where organization_id = $1 and content_hash = $2', [organizationId, contentHash]);
}
