/**
 * The Artifact store over HTTPS (§13.1), authenticated by a Bearer token: uploads by a live Agent
 * session's, reads by any reader's — an Agent session or a human session (`readerAuth.ts`), judged
 * by the same read rule:
 *
 * - `PUT /v1/artifacts/sha256:<hex>` streams a content in; the path names it, and it is kept
 *   only when its bytes hash to that name (201 stored, 200 already stored).
 * - `GET /v1/artifacts/sha256:<hex>` streams it out, re-hashed on the way: a content that fails
 *   verification is cut off before its last chunk, so no client receives it complete.
 * - `GET /v1/groups/{groupId}/artifacts/sha256:<hex>/provenance` lists its ancestry there.
 */

import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorDocument, wireError, type WireError } from '../app/wireError.js';
import { httpStatusOf } from '../protocol/errorCodes.js';
import type { Principal } from '../protocol/principal.js';
import { readerOf } from './readerAuth.js';
import { decodedParam, SESSION_REQUIRED, type Route, type RouteCall } from './routeTable.js';
import type { TransportContext } from './transportContext.js';

const CONTENT = /^\/v1\/artifacts\/(sha256:[0-9a-f]{64})$/;
const PROVENANCE = /^\/v1\/groups\/([^/]+)\/artifacts\/(sha256:[0-9a-f]{64})\/provenance$/;

function sendJson(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(body);
}

/**
 * Answers `error`. Before the request body was read to its end, the answer is written at once
 * and the connection closes once the client stops sending (the unread rest is dropped, never
 * stored: closing with unread bytes would reset the connection and lose the answer); the
 * request timeout bounds how long that may take. `tooLarge` answers 413, the binding's own
 * framing status, as a too-large Command body does.
 */
function refuse(request: IncomingMessage, response: ServerResponse, error: WireError, now: string, tooLarge = false): void {
  const body = JSON.stringify({ error: errorDocument(error, now) });
  if (request.complete) return sendJson(response, tooLarge ? 413 : httpStatusOf(error.code), body);
  response.writeHead(tooLarge ? 413 : httpStatusOf(error.code), { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body), connection: 'close' });
  response.write(body);
  request.once('end', () => response.end());
  request.resume();
}

function sessionAgent(context: TransportContext, request: IncomingMessage): string | undefined {
  const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  return token === undefined ? undefined : context.sessions.session(token)?.agentId;
}

async function putContent(context: TransportContext, request: IncomingMessage, response: ServerResponse, now: string, agentId: string, contentHash: string): Promise<void> {
  // Node's parser has already refused a malformed Content-Length; a chunked body declares none.
  const length = Number(request.headers['content-length'] ?? Number.NaN);
  const declared = Number.isSafeInteger(length) ? length : undefined;
  // `destroyOnReturn: false`: a refusal midway stops reading without destroying the socket, so the answer still reaches the client.
  const body = request.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>;
  const outcome = await context.groups.artifacts.upload(agentId, contentHash, declared, body, context.clock.nowMillis());
  if (outcome.ok) return sendJson(response, outcome.result === 'stored' ? 201 : 200, JSON.stringify({ contentHash, sizeBytes: outcome.sizeBytes, result: outcome.result }));
  if (outcome.aborted === true) {
    context.logger.debug({ address: request.socket.remoteAddress, contentHash }, 'Artifact upload aborted; nothing kept');
    return undefined;
  }
  return refuse(request, response, outcome.error, now, outcome.tooLarge === true);
}

/** Writes `chunk`, waiting for the socket to drain; false once the client has gone. */
async function write(response: ServerResponse, chunk: Buffer): Promise<boolean> {
  if (response.destroyed) return false;
  if (response.write(chunk)) return true;
  await Promise.race([once(response, 'drain'), once(response, 'close')]);
  return !response.destroyed;
}

async function getContent(context: TransportContext, response: ServerResponse, now: string, reader: Principal, contentHash: string): Promise<void> {
  const opening = await context.groups.artifacts.download(reader, contentHash);
  if (!opening.ok) return sendJson(response, httpStatusOf(opening.error.code), JSON.stringify({ error: errorDocument(opening.error, now) }));
  response.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': opening.sizeBytes,
    'cache-control': 'no-store',
    // RFC 9530: the digest of the whole content, so that any HTTP client can check it too.
    'repr-digest': `sha-256=:${Buffer.from(contentHash.slice('sha256:'.length), 'hex').toString('base64')}:`,
  });
  try {
    for await (const chunk of opening.chunks) {
      if (!(await write(response, chunk))) return await opening.chunks.return(undefined).then(() => undefined);
    }
    response.end();
  } catch (error) {
    context.logger.error({ err: error, contentHash }, 'Artifact download aborted');
    response.destroy();
  }
}

async function getProvenance(context: TransportContext, response: ServerResponse, now: string, reader: Principal, groupId: string, contentHash: string): Promise<void> {
  const read = await context.groups.artifacts.provenance(groupId, reader, contentHash);
  if (!read.ok) return sendJson(response, httpStatusOf(read.error.code), JSON.stringify({ error: errorDocument(read.error, now) }));
  return sendJson(response, 200, JSON.stringify(read.provenance));
}

/**
 * Only an Agent uploads; any reader reads. Each handler authenticates itself: a refusal before
 * the body was read must drop the rest of it (`refuse`).
 */
async function putArtifact({ context, request, response, now, params }: RouteCall): Promise<void> {
  const agentId = sessionAgent(context, request);
  if (agentId === undefined) return refuse(request, response, wireError('AUTH_REQUIRED', SESSION_REQUIRED), now);
  return putContent(context, request, response, now, agentId, params[0] as string);
}

async function getArtifact({ context, request, response, now, params }: RouteCall): Promise<void> {
  const reader = readerOf(context, request)?.principal;
  if (reader === undefined) return refuse(request, response, wireError('AUTH_REQUIRED', SESSION_REQUIRED), now);
  return getContent(context, response, now, reader, params[0] as string);
}

async function getArtifactProvenance({ context, request, response, now, params }: RouteCall): Promise<void> {
  const reader = readerOf(context, request)?.principal;
  if (reader === undefined) return refuse(request, response, wireError('AUTH_REQUIRED', SESSION_REQUIRED), now);
  const groupId = decodedParam(params[0]);
  if (groupId === undefined) return refuse(request, response, wireError('GROUP_NOT_FOUND', 'no such Group'), now);
  return getProvenance(context, response, now, reader, groupId, params[1] as string);
}

export const artifactRoutes: readonly Route[] = [
  { method: 'PUT', path: CONTENT, auth: 'handler', handle: putArtifact },
  { method: 'GET', path: CONTENT, auth: 'handler', handle: getArtifact },
  { method: 'GET', path: PROVENANCE, auth: 'handler', handle: getArtifactProvenance },
];
