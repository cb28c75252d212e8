/**
 * The Artifact store as the HTTPS binding reaches it (§13.1): streamed uploads, verified
 * downloads and provenance reads of one Organization's content, in PostgreSQL so that every
 * node serves every Artifact. Transport calls this and never names the store.
 */

import type { Principal } from '../../protocol/principal.js';
import type { Pool } from '../../store/pool.js';
import { DEFAULT_ARTIFACT_LIMITS, type ArtifactLimits } from './artifactLimits.js';
import { readArtifactProvenance, type ProvenanceRead } from './artifactProvenance.js';
import { openArtifactDownload, type DownloadOpening } from './downloadArtifact.js';
import { uploadArtifact, type ArtifactStoreScope, type UploadOutcome } from './uploadArtifact.js';

export class ArtifactAccess {
  private readonly scope: ArtifactStoreScope;

  constructor(pool: Pool, organizationId: string, limits: Partial<ArtifactLimits> = {}) {
    this.scope = { pool, organizationId, limits: { ...DEFAULT_ARTIFACT_LIMITS, ...limits } };
  }

  get limits(): ArtifactLimits {
    return this.scope.limits;
  }

  /** Stores `body` as the content `contentHash` uploaded by `agentId` (uploadArtifact.ts). */
  upload(agentId: string, contentHash: string, declaredBytes: number | undefined, body: AsyncIterable<Uint8Array>, nowMillis: number): Promise<UploadOutcome> {
    return uploadArtifact(this.scope, agentId, contentHash, declaredBytes, body, nowMillis);
  }

  /** Authorizes and opens a verified download for an Agent or a human reader (downloadArtifact.ts). */
  download(reader: Principal, contentHash: string): Promise<DownloadOpening> {
    return openArtifactDownload(this.scope, reader, contentHash);
  }

  /** An Artifact's ancestry in a Group, for a reader of that Group (artifactProvenance.ts). */
  provenance(groupId: string, reader: Principal, contentHash: string): Promise<ProvenanceRead> {
    return readArtifactProvenance(this.scope.pool, this.scope.limits, groupId, reader, contentHash);
  }
}
