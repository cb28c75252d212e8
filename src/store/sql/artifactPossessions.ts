/**
 * Who holds which Artifact bytes (`migrations/0017_artifact_possessions.sql`, §13.3): every Agent
 * that uploaded a content — the first uploader and each later one whose body hashed to the same
 * name — and the test of whether a publication's publisher held what it published.
 */

import type { Queryable } from '../pool.js';

/**
 * True for an `artifact` aggregate row `a` whose publisher held the content: it uploaded the
 * bytes itself, or published them as an explicit reuse of a publication it could read (the
 * Event, and so the row, then names its source). `organization` is the query's parameter holding
 * the Organization ID (`$1`…). A download is served only through such a publication.
 */
export function heldByPublisher(organization: string): string {
  return `(a.document ? 'reusedFrom' or exists (select 1 from artifact_possessions p
    where p.organization_id = ${organization} and p.content_hash = a.aggregate_id
      and p.agent_id = a.document->'manifest'->'producer'->>'agentId'))`;
}

/**
 * Records that `agentId` holds the completely stored content `contentHash` (it uploaded the
 * bytes); recording it again changes nothing, and a content no longer stored records nothing.
 */
export async function recordPossession(db: Queryable, organizationId: string, contentHash: string, agentId: string, recordedAt: string): Promise<void> {
  await db.query({
    name: 'record-artifact-possession',
    text: `insert into artifact_possessions (organization_id, content_hash, agent_id, recorded_at)
           select $1, $2, $3, $4 where exists (select 1 from artifact_contents where organization_id = $1 and content_hash = $2 and complete)
           on conflict do nothing`,
    values: [organizationId, contentHash, agentId, recordedAt],
  });
}

/** Whether `agentId` holds the stored content `contentHash`. */
export async function holdsContent(db: Queryable, organizationId: string, contentHash: string, agentId: string): Promise<boolean> {
  const result = await db.query({
    name: 'holds-artifact-content',
    text: 'select 1 from artifact_possessions where organization_id = $1 and content_hash = $2 and agent_id = $3',
    values: [organizationId, contentHash, agentId],
  });
  return (result.rowCount ?? 0) > 0;
}
