/**
 * Every limit of the Artifact store (§13.1), in one place, with why it has its value. An upload
 * is one HTTPS request, so it must also finish within the binding's `requestTimeoutMs`
 * (`transport/limits.ts`): that is what bounds a slow-loris upload.
 */

export interface ArtifactLimits {
  /**
   * Largest Artifact content. 32 MiB arrives within the default 10 s request timeout at
   * 3.2 MiB/s; a deployment that stores larger content raises both. Refused from the declared
   * Content-Length before the body is read, or as soon as the running count passes it.
   */
  readonly maxContentBytes: number;
  /**
   * Bytes per stored chunk (one `bytea` row): what the server holds of one upload or download
   * at a time, and few enough rows for the largest content (128 at 32 MiB).
   */
  readonly chunkBytes: number;
  /**
   * Uploads of one Agent that no Group has published yet, complete or not: a Worker uploads
   * its results and then publishes them, so a handful is honest; beyond it RATE_LIMITED.
   */
  readonly maxPendingUploadsPerAgent: number;
  /** Bytes of those pending uploads: four of the largest content. */
  readonly maxPendingBytesPerAgent: number;
  /**
   * An incomplete upload older than this was abandoned (its node died mid-upload: a live one
   * removes its own at once); it is removed by the next upload's sweep. Far above any
   * request timeout.
   */
  readonly abandonedUploadMs: number;
  /**
   * A complete upload that no Group published within this time is removed at its uploader's
   * next upload, so that an unused content does not hold the Agent's pending allowance forever.
   */
  readonly unpublishedRetentionMs: number;
  /**
   * Groups that published one content hash checked for a downloader's read access: an honest
   * content is published by a few Groups of one Mission tree.
   */
  readonly maxPublishingGroupsChecked: number;
  /** Levels of `sourceArtifactHashes` a provenance read follows (§13.1's provenance graph). */
  readonly maxProvenanceDepth: number;
  /** Artifacts one provenance answer lists; the answer says when it stopped short. */
  readonly maxProvenanceNodes: number;
}

export const DEFAULT_ARTIFACT_LIMITS: ArtifactLimits = {
  maxContentBytes: 32 * 1024 * 1024,
  chunkBytes: 256 * 1024,
  maxPendingUploadsPerAgent: 16,
  maxPendingBytesPerAgent: 4 * 32 * 1024 * 1024,
  abandonedUploadMs: 10 * 60_000,
  unpublishedRetentionMs: 24 * 60 * 60_000,
  maxPublishingGroupsChecked: 64,
  maxProvenanceDepth: 32,
  maxProvenanceNodes: 1_000,
};
