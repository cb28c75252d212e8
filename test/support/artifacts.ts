/**
 * Artifact fixtures: a published Artifact seeded as the `artifact` aggregate row its Group keeps
 * (keyed by content hash, `updated_sequence` the publishing Event's), written at the store level
 * so that store tests need no WorkItem; and a plain content hash. A download is served through
 * the seeded row only when its `producerAgentId` uploaded the bytes (§13.3).
 */

import { createHash, randomUUID } from 'node:crypto';
import type { Pool } from '../../src/store/pool.js';

export function contentHashOf(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Records `contentHash` as published in `groupId` at `sequence` (the Group's head by default). */
export async function seedPublishedArtifact(pool: Pool, groupId: string, contentHash: string, options: { sequence?: number; sourceArtifactHashes?: readonly string[]; producerAgentId?: string; workItemId?: string } = {}): Promise<void> {
  const head = await pool.query<{ last_sequence: number }>('select last_sequence from groups where group_id = $1', [groupId]);
  const sequence = options.sequence ?? head.rows[0]?.last_sequence ?? 1;
  const document = {
    contentHash,
    manifest: { contentHash, producer: { agentId: options.producerAgentId ?? 'urn:missionweave:agent:producer' }, sourceArtifactHashes: options.sourceArtifactHashes ?? [] },
    workItemId: options.workItemId ?? 'urn:missionweave:work:seeded',
    ownershipEpoch: 1,
    executionLeaseId: `urn:uuid:${randomUUID()}`,
    publishedAt: new Date().toISOString(),
    eventId: `urn:uuid:${randomUUID()}`,
    revision: 1,
  };
  await pool.query(
    `insert into aggregates (tree_id, group_id, aggregate_type, aggregate_id, revision, document, updated_sequence)
     select tree_id, $1, 'artifact', $2, 1, $3::jsonb, $4::bigint from group_trees where group_id = $1`,
    [groupId, contentHash, JSON.stringify(document), sequence],
  );
}
