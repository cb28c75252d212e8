/**
 * The Artifacts published in a Group (§13.1): the signed manifest each `artifact.publish`
 * recorded, keyed by content hash — a mutable URI is never identity. The content itself lives
 * outside the Event log, in the Artifact store (`store/sql/artifacts*`); the Group state keeps
 * what the decisions need: which hashes this Mission published, under which WorkItem and lease,
 * and their provenance links (`sourceArtifactHashes`, §13.1 "Derived Artifacts form a provenance
 * graph").
 *
 * `mission.submit_for_approval` accepts only hashes published here (§7.3), and `work.submit`
 * only Artifact hashes its WorkItem published.
 */

import type { GroupState } from '../kinds/groupState.js';
import { withEntry } from '../kinds/groupState.js';
import type { PublishedArtifact } from './artifactDocuments.js';

export type { ArtifactManifest, PublishedArtifact } from './artifactDocuments.js';

export function withArtifact(state: GroupState, artifact: PublishedArtifact): GroupState {
  return { ...state, artifacts: withEntry(state.artifacts, artifact.contentHash, artifact) };
}

/** The hashes of `hashes` that this Group has not published. */
export function unpublished(state: GroupState, hashes: readonly string[]): string[] {
  return hashes.filter((hash) => !state.artifacts.has(hash));
}
