/**
 * HTTPS on the same listener, for actors without Agent sessions (humans, Organization services):
 * `POST /v1/commands` takes one signed Command through the very same pipeline and
 * authorization; `GET /health` and `GET /ready` answer liveness and readiness;
 * `GET /v1/groups/{groupId}/snapshots/{hash}` serves signed snapshots named by CURSOR_TOO_OLD.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { wireError, errorDocument, type WireError } from '../app/wireError.js';
import type { ErrorCode } from '../protocol/errorCodes.js';
import { parseStrictJson, type JsonObject } from '../protocol/strictJson.js';
import { readMembership } from '../store/sql/memberships.js';
import { readSnapshot } from '../store/sql/snapshots.js';
import type { TransportContext } from './transportContext.js';

const STATUS: Partial<Record<ErrorCode, number>> = {
  UNSUPPORTED_VERSION: 400,
  PROTOCOL_VIOLATION: 400,
  SCHEMA_VALIDATION_FAILED: 400,
  INVALID_COMMAND: 422,
  WORK_CONTRACT_INCOMPLETE: 422,
  UNKNOWN_CRITICAL_EXTENSION: 422,
  AUTH_REQUIRED: 401,
  AUTH_INVALID_SIGNATURE: 401,
  AUTH_STALE_SESSION: 401,
  AUTH_FORBIDDEN: 403,
  AUTH_STALE_COORDINATOR: 403,
  MEMBERSHIP_REQUIRED: 403,
  MEMBERSHIP_STALE: 403,
  GROUP_NOT_FOUND: 404,
  RATE_LIMITED: 429,
  BACKPRESSURE: 429,
  INTERNAL_ERROR: 503,
};

function send(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(body);
}

function sendError(response: ServerResponse, error: WireError, now: string): void {
  send(response, STATUS[error.code] ?? 409, JSON.stringify({ error: errorDocument(error, now) }));
}

function readBody(request: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolve(null);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

async function postCommand(context: TransportContext, request: IncomingMessage, response: ServerResponse, now: string): Promise<void> {
  const body = await readBody(request, context.limits.maxPayloadBytes);
  if (body === null) {
    sendError(response, wireError('PROTOCOL_VIOLATION', `body larger than ${context.limits.maxPayloadBytes} bytes`), now);
    return;
  }
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
  const outcome = await context.authority.submit(command, undefined, origin);
  if (!outcome.ok) {
    sendError(response, outcome.error, now);
    return;
  }
  send(response, outcome.duplicate ? 200 : 201, `{"duplicate":${outcome.duplicate},"events":[${outcome.events.map((e) => e.text).join(',')}]}`);
}

/**
 * A snapshot is Group content: only a live session (its HELLO token as a Bearer credential) of
 * an Agent with an active, full-history Membership may read it.
 */
async function getSnapshot(context: TransportContext, request: IncomingMessage, response: ServerResponse, now: string, groupId: string, hash: string): Promise<void> {
  const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  const session = token === undefined ? undefined : context.sessions.session(token);
  if (session === undefined) return sendError(response, wireError('AUTH_REQUIRED', 'present the session token of a live session'), now);
  const membership = await readMembership(context.pool, groupId, 'agent', session.agentId);
  const found = membership?.state === 'active' ? await readSnapshot(context.pool, groupId, hash) : undefined;
  if (found === undefined) return sendError(response, wireError('GROUP_NOT_FOUND', 'no such snapshot'), now);
  if (membership !== undefined && membership.visibilityStartSequence > 1) {
    return sendError(response, wireError('AUTH_FORBIDDEN', 'a snapshot holds history before this Membership’s visibility'), now);
  }
  return send(response, 200, found);
}

/** Routes one HTTPS request. */
export async function handleHttp(context: TransportContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const now = new Date(context.clock.nowMillis()).toISOString();
  const url = new URL(request.url ?? '/', 'https://localhost');
  try {
    if (request.method === 'GET' && url.pathname === '/health') return send(response, 200, '{"status":"ok"}');
    if (request.method === 'GET' && url.pathname === '/ready') {
      await context.pool.query('select 1');
      return send(response, 200, '{"status":"ready"}');
    }
    if (request.method === 'POST' && url.pathname === '/v1/commands') return await postCommand(context, request, response, now);
    const snapshot = /^\/v1\/groups\/([^/]+)\/snapshots\/(sha256:[0-9a-f]{64})$/.exec(url.pathname);
    if (request.method === 'GET' && snapshot !== null) return await getSnapshot(context, request, response, now, decodeURIComponent(snapshot[1] as string), snapshot[2] as string);
    send(response, 404, '{"error":"not found"}');
  } catch (error) {
    context.logger.error({ err: error, path: url.pathname }, 'HTTP request failed');
    if (!response.headersSent) sendError(response, wireError('INTERNAL_ERROR', ''), now);
  }
}
