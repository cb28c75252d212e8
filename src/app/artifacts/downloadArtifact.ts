/**
 * Serving a stored Artifact (§13.1): to an Agent that uploaded it (it holds the bytes), or to a
 * reader (an Agent, or a human through the read API) that may read a Group that published it, by
 * the same read rule as that Group's Events (`decideRead`: an active Membership whose visibility
 * reaches the Event that published it, or a human's ownership of an ancestor Mission,
 * `readerStanding.ts`) — and only through a publication whose publisher held the content (§13.3:
 * a Mission's bytes do not leave it through a manifest naming their hash). Everyone else is told
 * exactly what a missing content gets, so a stranger learns nothing of what is stored.
 *
 * The content is read one chunk per statement and re-hashed on the way out; the last chunk is
 * held back until the whole has been hashed, so a content that no longer matches its name (a
 * corrupted chunk, a missing one) is never delivered complete: the caller aborts the response.
 */

import { createHash } from 'node:crypto';
import { decideRead } from '../../domain/readAccess.js';
import type { Principal } from '../../protocol/principal.js';
import { holdsContent } from '../../store/sql/artifactPossessions.js';
import { readChunk, readContentHead, readPublishingGroups, type PublishingGroup } from '../../store/sql/artifactReads.js';
import { ownedAncestorOf } from '../readerStanding.js';
import { wireError, type WireError } from '../wireError.js';
import type { ArtifactStoreScope } from './uploadArtifact.js';

/** What a stranger, a non-reader and a request for missing content are all told. */
export const UNDISCLOSED_ARTIFACT = 'no such Artifact';

/** A stored content whose bytes no longer hash to its name; the response must be aborted. */
export class ArtifactIntegrityError extends Error {
  constructor(readonly contentHash: string, reason: string) {
    super(`stored Artifact ${contentHash} failed verification on read: ${reason}`);
    this.name = 'ArtifactIntegrityError';
  }
}

export type DownloadOpening =
  | { readonly ok: true; readonly sizeBytes: number; readonly chunks: AsyncGenerator<Buffer, void, undefined> }
  | { readonly ok: false; readonly error: WireError };

/** Whether `reader` may read `contentHash` through a Group that published it. */
async function readsAPublishingGroup(scope: ArtifactStoreScope, contentHash: string, reader: Principal): Promise<boolean> {
  const groups = await readPublishingGroups(scope.pool, scope.organizationId, contentHash, reader, scope.limits.maxPublishingGroupsChecked);
  const visible = (group: PublishingGroup): boolean => {
    const decision = decideRead(group.membership, { purpose: 'recheck' });
    return decision.allowed && group.publishedSequence > decision.afterSequence;
  };
  if (groups.some(visible)) return true;
  // A human who owns an ancestor Mission of a publishing Group sees all of it (§14).
  for (const group of groups) {
    if ((await ownedAncestorOf(scope.pool, group.groupId, reader, group.membership)) !== undefined) return true;
  }
  return false;
}

async function* verifiedChunks(scope: ArtifactStoreScope, contentHash: string, sizeBytes: number, chunkCount: number): AsyncGenerator<Buffer, void, undefined> {
  const hash = createHash('sha256');
  let size = 0;
  let held: Buffer | undefined;
  for (let index = 0; index < chunkCount; index++) {
    const chunk = await readChunk(scope.pool, scope.organizationId, contentHash, index);
    if (chunk === undefined) throw new ArtifactIntegrityError(contentHash, `chunk ${index} is missing`);
    hash.update(chunk);
    size += chunk.length;
    if (held !== undefined) yield held;
    held = chunk;
  }
  const actual = `sha256:${hash.digest('hex')}`;
  if (size !== sizeBytes) throw new ArtifactIntegrityError(contentHash, `${size} bytes stored, ${sizeBytes} recorded`);
  if (actual !== contentHash) throw new ArtifactIntegrityError(contentHash, `the bytes hash to ${actual}`);
  if (held !== undefined) yield held;
}

/** Authorizes a download and opens the content's verified chunk stream. */
export async function openArtifactDownload(scope: ArtifactStoreScope, reader: Principal, contentHash: string): Promise<DownloadOpening> {
  const head = await readContentHead(scope.pool, scope.organizationId, contentHash);
  // Only Agents upload, so the uploader's own read applies to an Agent only.
  const holder = head !== undefined && reader.type === 'agent' && (await holdsContent(scope.pool, scope.organizationId, contentHash, reader.id));
  const allowed = head !== undefined && (holder || (await readsAPublishingGroup(scope, contentHash, reader)));
  if (head === undefined || !allowed) return { ok: false, error: wireError('GROUP_NOT_FOUND', UNDISCLOSED_ARTIFACT) };
  return { ok: true, sizeBytes: head.sizeBytes, chunks: verifiedChunks(scope, contentHash, head.sizeBytes, head.chunkCount) };
}
