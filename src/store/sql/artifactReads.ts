/**
 * Reads behind Artifact downloads and provenance (§13.1): a stored content's header, one chunk
 * at a time (a download never reads a content whole), the Groups that published a content hash
 * (their publisher holding it) with the reader's Membership in each, and a Group's published
 * Artifact rows.
 */

import type { JsonValue } from '../../protocol/strictJson.js';
import type { Queryable } from '../pool.js';
import { heldByPublisher } from './artifactPossessions.js';
import type { MembershipView } from './memberships.js';

export interface ContentHead {
  readonly sizeBytes: number;
  readonly chunkCount: number;
}

/** A completely stored content's header, or undefined. */
export async function readContentHead(db: Queryable, organizationId: string, contentHash: string): Promise<ContentHead | undefined> {
  const result = await db.query<{ size_bytes: number; chunk_count: number }>(
    'select size_bytes, chunk_count from artifact_contents where organization_id = $1 and content_hash = $2 and complete',
    [organizationId, contentHash],
  );
  const row = result.rows[0];
  return row === undefined ? undefined : { sizeBytes: row.size_bytes, chunkCount: row.chunk_count };
}

/** One chunk's bytes, or undefined when it is missing. */
export async function readChunk(db: Queryable, organizationId: string, contentHash: string, chunkIndex: number): Promise<Buffer | undefined> {
  const result = await db.query<{ data: Buffer }>({
    name: 'read-artifact-chunk',
    text: 'select data from artifact_chunks where organization_id = $1 and content_hash = $2 and chunk_index = $3',
    values: [organizationId, contentHash, chunkIndex],
  });
  return result.rows[0]?.data;
}

export interface PublishingGroup {
  readonly groupId: string;
  /** The sequence of the Event that published the Artifact there. */
  readonly publishedSequence: number;
  /** The reader's Membership in that Group, if it ever had one. */
  readonly membership: MembershipView | undefined;
}

/**
 * Up to `limit` Groups that published `contentHash` and whose publisher held it (a publication
 * of bytes its publisher never had serves nothing, §13.3), each with the reader's (an Agent's or
 * a human's) Membership there.
 */
export async function readPublishingGroups(db: Queryable, organizationId: string, contentHash: string, reader: { readonly type: string; readonly id: string }, limit: number): Promise<PublishingGroup[]> {
  const result = await db.query<{ group_id: string; published: number; membership_id: string | null; state: string | null; visibility: number | null }>(
    `select a.group_id, a.updated_sequence as published, m.aggregate_id as membership_id, m.document->>'state' as state,
            (m.document->>'visibilityStartSequence')::bigint as visibility
     from aggregates a
     left join aggregates m on m.tree_id = a.tree_id and m.group_id = a.group_id and m.aggregate_type = 'membership'
       and m.document->'member'->>'type' = $2 and m.document->'member'->>'id' = $3
     where a.aggregate_type = 'artifact' and a.aggregate_id = $1 and ${heldByPublisher('$5')}
     order by a.group_id limit $4`,
    [contentHash, reader.type, reader.id, limit, organizationId],
  );
  return result.rows.map((row) => ({
    groupId: row.group_id,
    publishedSequence: row.published,
    membership: row.state === null || row.membership_id === null ? undefined : { membershipId: row.membership_id, state: row.state, visibilityStartSequence: row.visibility ?? 0 },
  }));
}

export interface PublishedArtifactRow {
  readonly contentHash: string;
  readonly document: JsonValue;
  readonly publishedSequence: number;
}

/** The Group's published Artifact rows among `hashes`. */
export async function readPublishedArtifactRows(db: Queryable, groupId: string, hashes: readonly string[]): Promise<PublishedArtifactRow[]> {
  if (hashes.length === 0) return [];
  const result = await db.query<{ id: string; document: JsonValue; published: number }>(
    `select aggregate_id as id, document, updated_sequence as published from aggregates
     where group_id = $1 and aggregate_type = 'artifact' and aggregate_id = any($2::text[])`,
    [groupId, [...new Set(hashes)]],
  );
  return result.rows.map((row) => ({ contentHash: row.id, document: row.document, publishedSequence: row.published }));
}
