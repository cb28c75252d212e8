/**
 * An Artifact's ancestry in one Group (§13.1: "Derived Artifacts form a provenance graph"): its
 * signed manifest's `sourceArtifactHashes`, followed level by level through the Artifacts the
 * Group published, for a reader of that Group. Only Artifacts published by Events the reader
 * may see are listed; a source not published (visibly) there is named in `unresolved`. The walk
 * is bounded in depth and in size, and says when it stopped short.
 */

import type { Principal } from '../../protocol/principal.js';
import type { Pool } from '../../store/pool.js';
import { readPublishedArtifactRows, type PublishedArtifactRow } from '../../store/sql/artifactReads.js';
import { authorizeRead } from '../authorizeRead.js';
import { wireError, type WireError } from '../wireError.js';
import type { ArtifactLimits } from './artifactLimits.js';
import { UNDISCLOSED_ARTIFACT } from './downloadArtifact.js';

export interface ProvenanceNode {
  readonly contentHash: string;
  /** Levels from the Artifact asked about (0). */
  readonly depth: number;
  readonly workItemId: string;
  readonly producerAgentId: string;
  readonly sourceArtifactHashes: readonly string[];
  readonly publishedAt: string;
  /** The `artifact.published` Event that recorded it. */
  readonly eventId: string;
}

export interface Provenance {
  readonly groupId: string;
  readonly contentHash: string;
  readonly artifacts: readonly ProvenanceNode[];
  /** Sources cited but not published (visibly) in this Group. */
  readonly unresolved: readonly string[];
  /** True when the depth or size bound stopped the walk. */
  readonly truncated: boolean;
}

export type ProvenanceRead = { readonly ok: true; readonly provenance: Provenance } | { readonly ok: false; readonly error: WireError };

interface StoredArtifact {
  readonly manifest?: { readonly producer?: { readonly agentId?: string }; readonly sourceArtifactHashes?: readonly string[] };
  readonly workItemId?: string;
  readonly publishedAt?: string;
  readonly eventId?: string;
}

function nodeOf(row: PublishedArtifactRow, depth: number): ProvenanceNode {
  const stored = row.document as StoredArtifact;
  return {
    contentHash: row.contentHash,
    depth,
    workItemId: stored.workItemId ?? '',
    producerAgentId: stored.manifest?.producer?.agentId ?? '',
    sourceArtifactHashes: stored.manifest?.sourceArtifactHashes ?? [],
    publishedAt: stored.publishedAt ?? '',
    eventId: stored.eventId ?? '',
  };
}

export async function readArtifactProvenance(pool: Pool, limits: ArtifactLimits, groupId: string, reader: Principal, contentHash: string): Promise<ProvenanceRead> {
  const access = await authorizeRead(pool, groupId, reader, { purpose: 'recheck' });
  if (!access.ok) return access;
  const visible = (rows: readonly PublishedArtifactRow[]) => rows.filter((row) => row.publishedSequence > access.afterSequence);
  const [root] = visible(await readPublishedArtifactRows(pool, groupId, [contentHash]));
  if (root === undefined) return { ok: false, error: wireError('GROUP_NOT_FOUND', UNDISCLOSED_ARTIFACT, { groupId }) };
  const artifacts: ProvenanceNode[] = [nodeOf(root, 0)];
  const seen = new Set([contentHash]);
  const unresolved: string[] = [];
  let truncated = false;
  let level = artifacts;
  for (let depth = 1; level.length > 0; depth++) {
    const wanted = [...new Set(level.flatMap((node) => node.sourceArtifactHashes))].filter((hash) => !seen.has(hash));
    if (wanted.length === 0) break;
    const room = limits.maxProvenanceNodes - artifacts.length;
    if (depth > limits.maxProvenanceDepth || room <= 0) {
      truncated = true;
      break;
    }
    const asked = wanted.slice(0, room);
    if (asked.length < wanted.length) truncated = true;
    for (const hash of asked) seen.add(hash);
    const found = new Map(visible(await readPublishedArtifactRows(pool, groupId, asked)).map((row) => [row.contentHash, row]));
    level = [];
    for (const hash of asked) {
      const row = found.get(hash);
      if (row === undefined) unresolved.push(hash);
      else level.push(nodeOf(row, depth));
    }
    artifacts.push(...level);
  }
  return { ok: true, provenance: { groupId, contentHash, artifacts, unresolved, truncated } };
}
