/**
 * Artifacts on the Agent's side (§13.1): upload content to the Group Authority's store, download
 * it with its hash verified, and build the signed manifest that `artifact.publish` carries.
 *
 * Content is named by its `sha256:` hash, computed before the upload (a file is read twice:
 * once to hash, once to send, never held whole in memory); the store keeps it only when the
 * bytes it received hash to that name. A download is written to a temporary file beside its
 * destination, hashed while it arrives, and renamed into place only when the hash and size are
 * right: a content that fails verification never appears at the destination. The retrieval
 * URI in a manifest is where the content can be fetched, never its identity.
 *
 * Both requests are authenticated by the live session's token (HELLO's `sessionToken`) as a
 * Bearer credential, over TLS 1.3 to the Group Authority's own origin.
 */

import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { pipeline } from 'node:stream/promises';
import type { ContentHash } from '../protocol/contentHash.js';
import type { MissionWeaveArtifactManifest } from '../protocol/schemas/payloadTypes.js';
import { AgentClientError, errorFromDocument } from './errors.js';
import { signArtifactManifest, type Signer, type SignedResult } from './signer.js';

/** Where the Artifact store is and how to authenticate to it. */
export interface ArtifactEndpoint {
  /** The Group Authority's HTTPS origin, e.g. `https://authority.example:8443`. */
  readonly origin: URL | string;
  /** The CA the Group Authority's certificate chains to, when not a public one. */
  readonly ca?: string | Buffer;
  /** The live session's token (HELLO's `sessionToken`). */
  readonly sessionToken: string;
  /** How long the server may stay silent, in milliseconds (default 30 s). */
  readonly timeoutMs?: number;
}

/** Content to upload: a file, streamed, or bytes in memory. */
export type ArtifactSource = { readonly path: string } | { readonly bytes: Uint8Array };

export interface StoredArtifact {
  readonly contentHash: ContentHash;
  readonly sizeBytes: number;
}

export interface UploadedArtifact extends StoredArtifact {
  /** `stored`: this upload wrote it; `existing`: the store already held it. */
  readonly result: 'stored' | 'existing';
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** The most of an error answer read: error documents are small. */
const MAX_ERROR_BYTES = 16 * 1024;

/** The content's store path: its name is its hash. */
function contentUrl(origin: URL | string, contentHash: string): URL {
  return new URL(`/v1/artifacts/${contentHash}`, origin);
}

/** The retrieval URI of a content in this store, as a manifest's `uri`. */
export function artifactUri(origin: URL | string, contentHash: string): string {
  return contentUrl(origin, contentHash).toString();
}

/** The `sha256:` hash and size of a source, reading a file as a stream. */
export async function hashArtifactSource(source: ArtifactSource): Promise<StoredArtifact> {
  const hash = createHash('sha256');
  let size = 0;
  if ('bytes' in source) {
    hash.update(source.bytes);
    size = source.bytes.byteLength;
  } else {
    for await (const chunk of createReadStream(source.path)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  }
  return { contentHash: `sha256:${hash.digest('hex')}` as ContentHash, sizeBytes: size };
}

async function readSmall(response: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += (chunk as Buffer).length;
    if (size > MAX_ERROR_BYTES) break;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The server's refusal as a MissionWeaveError (its §19 error document), or a client error. */
async function refusal(response: IncomingMessage, what: string): Promise<Error> {
  const body = await readSmall(response).catch(() => Buffer.alloc(0));
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { error?: unknown };
    if (typeof parsed.error === 'object' && parsed.error !== null) return errorFromDocument(parsed.error);
  } catch {
    // Not an error document: described below.
  }
  return new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', `${what} answered ${response.statusCode ?? 0}`);
}

/** Sends one request; resolves with the response (which may arrive before the body is sent). */
function send(endpoint: ArtifactEndpoint, method: 'PUT' | 'GET', url: URL, headers: Record<string, string | number>, body?: (req: ClientRequest) => void): Promise<IncomingMessage> {
  const timeoutMs = endpoint.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method,
      minVersion: 'TLSv1.3',
      timeout: timeoutMs,
      headers: { ...headers, authorization: `Bearer ${endpoint.sessionToken}` },
      ...(endpoint.ca === undefined ? {} : { ca: endpoint.ca }),
    }, resolve);
    req.on('timeout', () => req.destroy(new AgentClientError('CONNECTION_FAILED', `no answer from ${url.pathname} within ${timeoutMs} ms`)));
    req.on('error', (error) => reject(error instanceof AgentClientError ? error : new AgentClientError('CONNECTION_FAILED', `${method} ${url.pathname} failed: ${error.message}`, { cause: error })));
    if (body === undefined) req.end();
    else body(req);
  });
}

/**
 * Uploads content to the store and returns its hash and size. The server refuses (a
 * `MissionWeaveError`) content over its size limit, an Agent's pending uploads past their
 * bound (RATE_LIMITED), and bytes that do not hash to the name (a file changed meanwhile).
 */
export async function uploadArtifact(endpoint: ArtifactEndpoint, source: ArtifactSource): Promise<UploadedArtifact> {
  const { contentHash, sizeBytes } = await hashArtifactSource(source);
  const url = contentUrl(endpoint.origin, contentHash);
  const response = await send(endpoint, 'PUT', url, { 'content-type': 'application/octet-stream', 'content-length': sizeBytes }, (req) => {
    if ('bytes' in source) req.end(Buffer.from(source.bytes.buffer, source.bytes.byteOffset, source.bytes.byteLength));
    // A refusal may arrive (and the server close) before the file is sent: the answer counts, not the write.
    else createReadStream(source.path).on('error', (error) => req.destroy(error)).pipe(req);
  });
  if (response.statusCode !== 200 && response.statusCode !== 201) throw await refusal(response, `PUT ${url.pathname}`);
  const answer = JSON.parse((await readSmall(response)).toString('utf8')) as { contentHash?: unknown; sizeBytes?: unknown; result?: unknown };
  if (answer.contentHash !== contentHash || answer.sizeBytes !== sizeBytes) throw new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', `the store acknowledged ${String(answer.contentHash)}, not ${contentHash}`);
  return { contentHash, sizeBytes, result: answer.result === 'existing' ? 'existing' : 'stored' };
}

/**
 * Downloads `contentHash` to `destination`, at most `maxBytes` of it. The bytes go to a
 * temporary file beside it and are renamed into place only when their hash is `contentHash`;
 * a mismatch, a cut-off answer or a size over `maxBytes` leaves nothing and throws.
 */
export async function downloadArtifact(endpoint: ArtifactEndpoint, contentHash: string, destination: string, maxBytes = Number.MAX_SAFE_INTEGER): Promise<StoredArtifact> {
  if (!/^sha256:[0-9a-f]{64}$/.test(contentHash)) throw new AgentClientError('INVALID_ARGUMENT', `not a sha256 content hash: ${contentHash}`);
  const url = contentUrl(endpoint.origin, contentHash);
  const response = await send(endpoint, 'GET', url, {});
  if (response.statusCode !== 200) throw await refusal(response, `GET ${url.pathname}`);
  const declared = Number(response.headers['content-length']);
  if (!Number.isSafeInteger(declared) || declared > maxBytes) {
    response.destroy();
    throw new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', `the content has ${String(response.headers['content-length'])} bytes; at most ${maxBytes} were wanted`);
  }
  const partial = `${destination}.${randomUUID()}.partial`;
  const hash = createHash('sha256');
  let size = 0;
  try {
    await pipeline(
      response,
      async function* verify(source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          if (size > declared) throw new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', `the content ran past its declared ${declared} bytes`);
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(partial, { flags: 'wx' }),
    );
    // An answer cut off by the server (its own check failed) ends short of its declared length.
    if (size !== declared || !response.complete) throw new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', `the content ended after ${size} of ${declared} bytes`);
    const actual = `sha256:${hash.digest('hex')}`;
    if (actual !== contentHash) throw new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', `the content hashes to ${actual}, not ${contentHash}`);
    await rename(partial, destination);
  } catch (error) {
    await rm(partial, { force: true });
    throw error instanceof AgentClientError ? error : new AgentClientError('PROTOCOL_VIOLATION_BY_SERVER', `GET ${url.pathname} was cut off: ${(error as Error).message}`, { cause: error });
  }
  return { contentHash: contentHash as ContentHash, sizeBytes: (await stat(destination)).size };
}

/** What a manifest needs beyond what the builder fills in (§13.1, artifact.schema.json). */
export interface ArtifactManifestDraft {
  readonly contentHash: string;
  readonly sizeBytes: number;
  readonly mediaType: string;
  /** The schema (or format description) the content follows. */
  readonly schemaUri: string;
  readonly producer: MissionWeaveArtifactManifest['producer'];
  readonly missionId: string;
  readonly groupId: string;
  readonly workItemId: string;
  readonly classification: MissionWeaveArtifactManifest['classification'];
  /** Where the content can be fetched: by default this store's path for it. */
  readonly uri?: string;
  readonly sourceArtifactHashes?: readonly string[];
  readonly toolVersions?: MissionWeaveArtifactManifest['toolVersions'];
  readonly modelVersions?: MissionWeaveArtifactManifest['modelVersions'];
  readonly artifactId?: string;
  /** UTC `Z` timestamp; now by default. */
  readonly createdAt?: string;
  readonly extensions?: MissionWeaveArtifactManifest['extensions'];
}

/**
 * Builds a complete Artifact manifest (every member artifact.schema.json requires) and signs it
 * with the producing Agent's key (Signed Document profile `artifact`, §6.4): the manifest an
 * `artifact.publish` Command carries. `origin` gives the default retrieval `uri`.
 */
export function buildArtifactManifest(draft: ArtifactManifestDraft, signer: Signer, origin?: URL | string): Promise<SignedResult<Omit<MissionWeaveArtifactManifest, 'signature'>>> {
  const uri = draft.uri ?? (origin === undefined ? undefined : artifactUri(origin, draft.contentHash));
  if (uri === undefined) throw new AgentClientError('INVALID_ARGUMENT', 'an Artifact manifest needs a retrieval uri (or the store origin to derive it)');
  const unsigned: Omit<MissionWeaveArtifactManifest, 'signature'> = {
    artifactId: draft.artifactId ?? `urn:uuid:${randomUUID()}`,
    contentHash: draft.contentHash,
    uri,
    sizeBytes: draft.sizeBytes,
    mediaType: draft.mediaType,
    schemaUri: draft.schemaUri,
    producer: draft.producer,
    missionId: draft.missionId,
    groupId: draft.groupId,
    workItemId: draft.workItemId,
    sourceArtifactHashes: [...(draft.sourceArtifactHashes ?? [])],
    toolVersions: [...(draft.toolVersions ?? [])],
    modelVersions: [...(draft.modelVersions ?? [])],
    classification: draft.classification,
    createdAt: draft.createdAt ?? new Date().toISOString(),
    ...(draft.extensions === undefined ? {} : { extensions: draft.extensions }),
  };
  return signArtifactManifest(unsigned, signer);
}
