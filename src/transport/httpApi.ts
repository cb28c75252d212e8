/**
 * HTTPS on the same listener, for actors without Agent sessions (humans, Organization services):
 * `POST /v1/commands` takes one signed Command through the very same pipeline and
 * authorization; `GET /health` and `GET /ready` answer liveness and readiness;
 * `GET /v1/groups/{groupId}/snapshots/{hash}` serves signed snapshots named by CURSOR_TOO_OLD and
 * `…/archive` an archived Group's final one (snapshotRoutes.ts);
 * `GET /v1/registry` publishes the Registry's key bindings (registryRoute.ts); `/v1/artifacts/…`
 * stores and serves Artifact content (artifactRoutes.ts); human sessions and the read API of humans
 * and Agents — `/v1/me`, a Group's events, event stream, view and Mission tree — humanRoutes.ts;
 * `GET /v1/groups/{groupId}/context-packages[/{id}]` serves Context Packages to their recipient
 * (contextPackageRoute.ts); the Authorization Service issues and checks capability tokens
 * (capabilityRoutes.ts); `GET /v1/groups/{groupId}/mission-tree` the Mission tree below a
 * Mission (§14); `GET /metrics` the operator metrics (metricsRoute.ts).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { wireError, errorDocument, type WireError } from '../app/wireError.js';
import { httpStatusOf } from '../protocol/errorCodes.js';
import { parseStrictJson, type JsonObject } from '../protocol/strictJson.js';
import { routeArtifacts } from './artifactRoutes.js';
import { serveConsole } from './consoleRoute.js';
import { getContextPackages, isContextPackagePath } from './contextPackageRoute.js';
import { CAPABILITY_CHARGE_PATH, CAPABILITY_STATUS_PATH, GRANT_PATH, postCapability, postCapabilityCharge, postCapabilityStatus, type RouteIo } from './capabilityRoutes.js';
import { routeReaders } from './humanRoutes.js';
import { routeParley } from './parleyRoutes.js';
import { getRegistry, REGISTRY_PATH } from './registryRoute.js';
import { getMetrics, METRICS_PATH } from './metricsRoute.js';
import { routeSnapshots } from './snapshotRoutes.js';
import type { TransportContext } from './transportContext.js';

function send(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(body);
}

function sendError(response: ServerResponse, error: WireError, now: string): void {
  send(response, httpStatusOf(error.code), JSON.stringify({ error: errorDocument(error, now) }));
}

type Body = { readonly kind: 'complete'; readonly bytes: Buffer } | { readonly kind: 'tooLarge' } | { readonly kind: 'aborted' };

/**
 * Reads a request body of at most `limit` bytes. A larger one (declared, or found while reading)
 * is not buffered: the rest is read and dropped so that the refusal reaches the client (closing
 * with unread bytes would reset the connection and lose the answer); the request timeout bounds
 * how long that may take.
 */
function readBody(request: IncomingMessage, limit: number): Promise<Body> {
  return new Promise((resolve) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > limit) {
      request.resume();
      resolve({ kind: 'tooLarge' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        request.off('data', onData);
        request.resume();
        resolve({ kind: 'tooLarge' });
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.on('end', () => resolve({ kind: 'complete', bytes: Buffer.concat(chunks) }));
    // A client that goes away mid-body (or is cut by the request timeout) is ordinary: no answer.
    request.on('error', () => resolve({ kind: 'aborted' }));
    request.on('close', () => resolve({ kind: 'aborted' }));
  });
}

/**
 * 413, not the catalogue's 400 for PROTOCOL_VIOLATION: the body was never read as a document,
 * so this is the binding's own framing limit (a WebSocket message over it closes with 1009), and
 * 413 tells HTTP clients and proxies exactly that. The whole answer is written at once; the
 * response ends, and the connection closes, once the client has stopped sending.
 */
function refuseTooLarge(request: IncomingMessage, response: ServerResponse, limit: number, now: string): void {
  const error = wireError('PROTOCOL_VIOLATION', `body larger than ${limit} bytes`);
  const body = JSON.stringify({ error: errorDocument(error, now) });
  response.writeHead(413, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body), connection: 'close' });
  response.write(body);
  if (request.complete) response.end();
  else request.once('end', () => response.end());
}

async function postCommand(context: TransportContext, request: IncomingMessage, response: ServerResponse, now: string): Promise<void> {
  const read = await readBody(request, context.limits.maxPayloadBytes);
  if (read.kind === 'tooLarge') return refuseTooLarge(request, response, context.limits.maxPayloadBytes, now);
  if (read.kind === 'aborted') {
    context.logger.debug({ address: request.socket.remoteAddress, path: request.url }, 'HTTP request aborted');
    return;
  }
  const body = read.bytes;
  let command: JsonObject;
  try {
    command = parseStrictJson(body) as JsonObject;
  } catch (error) {
    sendError(response, wireError('PROTOCOL_VIOLATION', (error as Error).message), now);
    return;
  }
  const actor = typeof command === 'object' && command !== null ? (command['actor'] as JsonObject | undefined) : undefined;
  if (actor?.['type'] === 'agent') {
    // An Agent's Commands belong to its authenticated session (§6.3).
    sendError(response, wireError('AUTH_REQUIRED', 'Agents send Commands over their WebSocket session'), now);
    return;
  }
  const origin = { transport: 'https' as const, ...(request.socket.remoteAddress === undefined ? {} : { address: request.socket.remoteAddress }) };
  const outcome = await context.authority.submit(command, { text: body.toString('utf8'), frame: false }, origin, request.socket);
  if (!outcome.ok) {
    sendError(response, outcome.error, now);
    return;
  }
  send(response, outcome.duplicate ? 200 : 201, `{"duplicate":${outcome.duplicate},"events":[${outcome.events.map((e) => e.text).join(',')}]}`);
}

/** Routes one HTTPS request. */
export async function handleHttp(context: TransportContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const now = new Date(context.clock.nowMillis()).toISOString();
  const url = new URL(request.url ?? '/', 'https://localhost');
  try {
    if (request.method === 'GET' && url.pathname === '/health') return send(response, 200, '{"status":"ok"}');
    if (request.method === 'GET' && url.pathname === '/ready') {
      await context.groups.ready();
      return send(response, 200, '{"status":"ready"}');
    }
    if (request.method === 'GET' && url.pathname === METRICS_PATH) return await getMetrics(context, response);
    if (request.method === 'POST' && url.pathname === '/v1/commands') return await postCommand(context, request, response, now);
    if (request.method === 'GET' && url.pathname === REGISTRY_PATH) return await getRegistry(context, request, response, (error) => sendError(response, error, now));
    if (request.method === 'GET' && isContextPackagePath(url.pathname)) return await getContextPackages(context, request, response, url.pathname, (error) => sendError(response, error, now));
    const io: RouteIo = { read: (limit) => readBody(request, limit), send: (status, body) => send(response, status, body), fail: (error) => sendError(response, error, now), tooLarge: (limit) => refuseTooLarge(request, response, limit, now) };
    if (await routeReaders(context, request, response, url, io)) return undefined;
    if (await routeParley(context, request, url, io)) return undefined;
    const grant = GRANT_PATH.exec(url.pathname);
    if (request.method === 'POST' && grant !== null) return await postCapability(context, request, io, decodeURIComponent(grant[1] as string));
    if (request.method === 'POST' && url.pathname === CAPABILITY_STATUS_PATH) return await postCapabilityStatus(context, io);
    if (request.method === 'POST' && url.pathname === CAPABILITY_CHARGE_PATH) return await postCapabilityCharge(context, io);
    if (await routeSnapshots(context, request, url.pathname, io)) return undefined;
    if (await routeArtifacts(context, request, response, url.pathname, now)) return undefined;
    if (serveConsole(request, response, url.pathname)) return undefined;
    send(response, 404, '{"error":"not found"}');
  } catch (error) {
    context.logger.error({ err: error, path: url.pathname }, 'HTTP request failed');
    if (!response.headersSent) sendError(response, wireError('INTERNAL_ERROR', ''), now);
  }
}
