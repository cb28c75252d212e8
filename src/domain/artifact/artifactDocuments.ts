/**
 * The Artifact documents a Group keeps (§13.1); see `publishedArtifacts.ts`.
 */

import type { MissionWeaveArtifactManifest } from '../../protocol/schemas/payloadTypes.js';

export type ArtifactManifest = MissionWeaveArtifactManifest;

/** One published Artifact, as the Group keeps it (row type `artifact`, keyed by content hash). */
export interface PublishedArtifact {
  readonly contentHash: string;
  /** The signed manifest, exactly as published. */
  readonly manifest: ArtifactManifest;
  readonly workItemId: string;
  readonly ownershipEpoch: number;
  readonly executionLeaseId: string;
  readonly publishedAt: string;
  /** The `artifact.published` Event that recorded it. */
  readonly eventId: string;
  /** Row revision: 1 (an Artifact never changes once published). */
  readonly revision: number;
  /** For a cross-Mission reuse (§13.3): the Group and Event of the publication it reuses. */
  readonly reusedFrom?: { readonly groupId: string; readonly eventId: string };
}
