/**
 * A streamed Artifact upload (§13.1): the content is named by its `sha256:` hash before it is
 * sent, hashed while it streams, and kept only when the two agree. It is written in chunks of
 * `chunkBytes` as it arrives, so the server holds one chunk of it at a time; a content larger
 * than the limit is refused from its declared length before any byte is read, or as soon as the
 * running count passes the limit. Each Agent's pending uploads (no Group published them yet)
 * are bounded in count and bytes, and every failure removes what the upload had written.
 *
 * Uploading a content already stored is idempotent: the body is still read and hashed (so the
 * answer proves possession, not mere knowledge of a hash) and no byte is written; the uploader is
 * recorded as holding the content, as the first one was (§13.3: only a holder publishes it).
 */

import { createHash } from 'node:crypto';
import { checkOut, type Pool } from '../../store/pool.js';
import { claimUpload, completeUpload, discardUpload, insertChunk, readPendingUploads, sweepArtifactUploads, type UploadClaim } from '../../store/sql/artifactUploads.js';
import { recordPossession } from '../../store/sql/artifactPossessions.js';
import { wireError, type WireError } from '../wireError.js';
import type { ArtifactLimits } from './artifactLimits.js';

export interface ArtifactStoreScope {
  readonly pool: Pool;
  readonly organizationId: string;
  readonly limits: ArtifactLimits;
}

export type UploadOutcome =
  /** `stored`: this upload wrote the content; `existing`: it was already stored. */
  | { readonly ok: true; readonly result: 'stored' | 'existing'; readonly contentHash: string; readonly sizeBytes: number }
  /** `tooLarge`: past `maxContentBytes` (the binding answers 413); `aborted`: the client went away. */
  | { readonly ok: false; readonly error: WireError; readonly tooLarge?: true; readonly aborted?: true };

function tooLarge(limit: number): UploadOutcome {
  return { ok: false, tooLarge: true, error: wireError('PROTOCOL_VIOLATION', `an Artifact is at most ${limit} bytes`) };
}

function overPendingBytes(limit: number): UploadOutcome {
  return { ok: false, error: wireError('RATE_LIMITED', `pending uploads of this Agent hold at most ${limit} bytes; publish or wait for them first`) };
}

/**
 * Checks the Agent's pending uploads and claims the hash, under a per-Agent transaction lock so
 * that concurrent uploads of one Agent are counted one after another. Returns the claim and the
 * bytes this upload may still take, or the refusal.
 */
async function claim(scope: ArtifactStoreScope, agentId: string, contentHash: string, declared: number | undefined, nowMillis: number): Promise<{ claim: UploadClaim; allowance: number } | UploadOutcome> {
  const { limits } = scope;
  const { client, release } = await checkOut(scope.pool);
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(hashtext($1))', [`artifact-uploads ${scope.organizationId} ${agentId}`]);
    await sweepArtifactUploads(client, scope.organizationId, agentId, new Date(nowMillis - limits.abandonedUploadMs).toISOString(), new Date(nowMillis - limits.unpublishedRetentionMs).toISOString());
    const pending = await readPendingUploads(client, scope.organizationId, agentId);
    const allowance = Math.min(limits.maxContentBytes, limits.maxPendingBytesPerAgent - pending.bytes);
    let refusal: UploadOutcome | undefined;
    if (pending.count >= limits.maxPendingUploadsPerAgent) {
      refusal = { ok: false, error: wireError('RATE_LIMITED', `an Agent has at most ${limits.maxPendingUploadsPerAgent} unpublished uploads; publish or wait for them first`) };
    } else if ((declared ?? 0) > allowance) refusal = overPendingBytes(limits.maxPendingBytesPerAgent);
    if (refusal !== undefined) {
      await client.query('commit');
      return refusal;
    }
    const claimed = await claimUpload(client, scope.organizationId, contentHash, agentId, declared ?? 0, new Date(nowMillis).toISOString());
    await client.query('commit');
    if (claimed === 'inProgress') return { ok: false, error: wireError('RATE_LIMITED', 'an upload of this content is in progress; try again once it ended', { retryAfterMs: 1_000 }) };
    return { claim: claimed, allowance };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    release();
  }
}

/**
 * Stores `body` as the content named `contentHash` (`sha256:<hex>`) for `agentId`. `declared` is
 * the body's declared length, when the request has one; `body` is read only when the upload may
 * proceed, and not to its end when it is refused midway.
 */
export async function uploadArtifact(scope: ArtifactStoreScope, agentId: string, contentHash: string, declared: number | undefined, body: AsyncIterable<Uint8Array>, nowMillis: number): Promise<UploadOutcome> {
  const { limits, organizationId, pool } = scope;
  if (declared !== undefined && declared > limits.maxContentBytes) return tooLarge(limits.maxContentBytes);
  const claimed = await claim(scope, agentId, contentHash, declared, nowMillis);
  if ('ok' in claimed) return claimed;
  const writes = claimed.claim === 'claimed';
  const hash = createHash('sha256');
  let size = 0;
  let chunkCount = 0;
  let buffered: Buffer[] = [];
  let bufferedBytes = 0;
  /** Set while a chunk is written: a failure then is the store's, not the body's. */
  let writing = false;
  const flush = async (bytes: Buffer): Promise<void> => {
    writing = true;
    if (writes) await insertChunk(pool, organizationId, contentHash, chunkCount, bytes);
    writing = false;
    chunkCount++;
  };
  try {
    for await (const piece of body) {
      size += piece.byteLength;
      if (size > limits.maxContentBytes) return await refuse(tooLarge(limits.maxContentBytes));
      if (size > claimed.allowance) return await refuse(overPendingBytes(limits.maxPendingBytesPerAgent));
      hash.update(piece);
      buffered.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
      bufferedBytes += piece.byteLength;
      while (bufferedBytes >= limits.chunkBytes) {
        const all = Buffer.concat(buffered, bufferedBytes);
        await flush(all.subarray(0, limits.chunkBytes));
        buffered = [all.subarray(limits.chunkBytes)];
        bufferedBytes -= limits.chunkBytes;
      }
    }
  } catch (error) {
    if (writing) {
      if (writes) await discardUpload(pool, organizationId, contentHash).catch(() => undefined);
      throw error;
    }
    // The body failed: the client went away or the request timed out. Nothing is answered.
    return await refuse({ ok: false, aborted: true, error: wireError('PROTOCOL_VIOLATION', 'the upload ended before its body did') });
  }
  const actual = `sha256:${hash.digest('hex')}`;
  if (actual !== contentHash) return await refuse({ ok: false, error: wireError('PROTOCOL_VIOLATION', `the content's hash is ${actual}, not the ${contentHash} it was uploaded as; nothing was kept`) });
  if (declared !== undefined && size !== declared) return await refuse({ ok: false, error: wireError('PROTOCOL_VIOLATION', `the body had ${size} bytes, not the ${declared} declared`) });
  const completedAt = new Date(nowMillis).toISOString();
  if (!writes) {
    await recordPossession(pool, organizationId, contentHash, agentId, completedAt);
    return { ok: true, result: 'existing', contentHash, sizeBytes: size };
  }
  try {
    if (bufferedBytes > 0) await flush(Buffer.concat(buffered, bufferedBytes));
    if (!(await completeUpload(pool, organizationId, contentHash, size, chunkCount, completedAt))) {
      return { ok: false, error: wireError('RATE_LIMITED', 'the upload was swept before it completed; upload it again', { retryAfterMs: 1_000 }) };
    }
  } catch (error) {
    await discardUpload(pool, organizationId, contentHash).catch(() => undefined);
    throw error;
  }
  return { ok: true, result: 'stored', contentHash, sizeBytes: size };

  async function refuse(outcome: UploadOutcome): Promise<UploadOutcome> {
    if (writes) await discardUpload(pool, organizationId, contentHash);
    return outcome;
  }
}
