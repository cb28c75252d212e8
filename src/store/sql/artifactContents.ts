/**
 * Facts about stored Artifact content (`migrations/0008_artifact_store.sql`) that decisions
 * read: which content hashes are completely stored, their size, and who holds them (§13.3,
 * `migrations/0017_artifact_possessions.sql`). `artifact.publish` needs the content in the store
 * before its manifest can enter the Group (§13.1), and a publisher that holds it. The streaming
 * upload and download paths live with the Artifact routes; `storeContent` writes a small content
 * in one statement per chunk (tests).
 */

import type { Queryable } from '../pool.js';
import { heldByPublisher, recordPossession } from './artifactPossessions.js';

/** A Membership as the read rule reads it. */
export interface PublicationMembership {
  readonly state: string;
  readonly visibilityStartSequence: number;
}

/** A Group that published a stored content, its publisher holding it. */
export interface ContentPublicationRow {
  readonly groupId: string;
  /** The `artifact.published` Event and its Group sequence. */
  readonly eventId: string;
  readonly publishedSequence: number;
  readonly classification: string;
  /** The Memberships there of the Agents asked about, by Agent ID. */
  readonly memberships: ReadonlyMap<string, PublicationMembership>;
}

export interface StoredContent {
  readonly contentHash: string;
  readonly sizeBytes: number;
  /** The Agents asked about that uploaded the bytes themselves. */
  readonly heldBy: ReadonlySet<string>;
  /** Up to the limit, the publications in Groups where an Agent asked about has a Membership. */
  readonly publications: readonly ContentPublicationRow[];
}

interface Row {
  content_hash: string;
  size_bytes: string;
  held_by: string[];
}

interface Publication {
  groupId: string;
  eventId: string;
  publishedSequence: number;
  classification: string;
  members: { agentId: string; state: string; visibilityStartSequence: number | null }[] | null;
}

/** Memberships of the Agents asked about (`$3`) in the Group of the publication row `a`. */
const MEMBERS_ASKED = `from aggregates m where m.tree_id = a.tree_id and m.group_id = a.group_id and m.aggregate_type = 'membership'
  and m.document->'member'->>'type' = 'agent' and m.document->'member'->>'id' = any($3::text[])`;

/**
 * The completely stored contents among `$2`, with which of the Agents `$3` hold them (reference
 * tables alone on Citus).
 */
const READ_STORED_CONTENTS = `
select c.content_hash, c.size_bytes::text as size_bytes,
  array(select p.agent_id from artifact_possessions p
        where p.organization_id = c.organization_id and p.content_hash = c.content_hash and p.agent_id = any($3::text[])) as held_by
from artifact_contents c
where c.organization_id = $1 and c.content_hash = any($2::text[]) and c.complete`;

/**
 * Up to `$4` publications of the content `$2` (by publishers that held it, `$1` the Organization)
 * in Groups where one of the Agents `$3` has a Membership, with their Memberships there. A
 * statement per content, read from the Groups' side: on Citus a statement over a reference table
 * may not read a distributed one row by row.
 */
const READ_PUBLICATIONS = `
select a.group_id as "groupId", a.document->>'eventId' as "eventId", a.updated_sequence as "publishedSequence",
       a.document->'manifest'->>'classification' as classification,
       (select json_agg(json_build_object('agentId', m.document->'member'->>'id', 'state', m.document->>'state',
               'visibilityStartSequence', (m.document->>'visibilityStartSequence')::bigint)) ${MEMBERS_ASKED}) as members
from aggregates a
where a.aggregate_type = 'artifact' and a.aggregate_id = $2 and ${heldByPublisher('$1')}
  and exists (select 1 ${MEMBERS_ASKED})
order by a.group_id limit $4`;

/**
 * The completely stored contents among `hashes`, by hash, with what `agents` hold of them and
 * may read of their publications (at most `maxPublications` Groups each).
 */
export async function readStoredContents(db: Queryable, organizationId: string, hashes: readonly string[], agents: readonly string[], maxPublications: number): Promise<Map<string, StoredContent>> {
  const found = new Map<string, StoredContent>();
  if (hashes.length === 0) return found;
  const asked = [...new Set(agents)];
  const result = await db.query<Row>(READ_STORED_CONTENTS, [organizationId, [...new Set(hashes)], asked]);
  for (const row of result.rows) {
    const publications = await db.query<Publication>(READ_PUBLICATIONS, [organizationId, row.content_hash, asked, maxPublications]);
    found.set(row.content_hash, {
      contentHash: row.content_hash,
      sizeBytes: Number(row.size_bytes),
      heldBy: new Set(row.held_by),
      publications: publications.rows.map((p) => ({
        groupId: p.groupId,
        eventId: p.eventId,
        publishedSequence: Number(p.publishedSequence),
        classification: p.classification,
        memberships: new Map((p.members ?? []).map((m) => [m.agentId, { state: m.state, visibilityStartSequence: Number(m.visibilityStartSequence ?? 0) }])),
      })),
    });
  }
  return found;
}

/**
 * Stores `chunks` (already hashed by the caller to `contentHash`) as one complete content, and
 * records that `uploadedBy` holds it; a hash stored before is kept as it is.
 */
export async function storeContent(db: Queryable, organizationId: string, contentHash: string, chunks: readonly Uint8Array[], uploadedBy: string, createdAt: string): Promise<void> {
  const size = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  const inserted = await db.query(
    'insert into artifact_contents (organization_id, content_hash, size_bytes, chunk_count, complete, uploaded_by, created_at) values ($1, $2, $3, $4, false, $5, $6) on conflict do nothing',
    [organizationId, contentHash, size, chunks.length, uploadedBy, createdAt],
  );
  if (inserted.rowCount !== 0) {
    for (const [index, chunk] of chunks.entries()) {
      await db.query('insert into artifact_chunks (organization_id, content_hash, chunk_index, data) values ($1, $2, $3, $4)', [organizationId, contentHash, index, Buffer.from(chunk)]);
    }
    await db.query('update artifact_contents set complete = true where organization_id = $1 and content_hash = $2', [organizationId, contentHash]);
  }
  await recordPossession(db, organizationId, contentHash, uploadedBy, createdAt);
}
