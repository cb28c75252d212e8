/**
 * HTTPS on the same listener as the WebSocket binding, for actors without Agent sessions (humans,
 * Organization services) and for the read API: one request is matched against the route table
 * (`routeTable.ts`; the core's routes in `coreRoutes.ts`, then those of the node's Extension
 * Profiles), authenticated as its route requires and served; a request no route serves goes to
 * the console (consoleRoute.ts), else answers 404. This module lends the routes their body
 * reader and answers (`RouteIo`).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { wireError, errorDocument, type WireError } from '../app/wireError.js';
import { httpStatusOf } from '../protocol/errorCodes.js';
import { serveConsole } from './consoleRoute.js';
import { matchRoute, serveRoute, type Route, type RouteIo } from './routeTable.js';
import type { TransportContext } from './transportContext.js';
import { requestTrace } from './requestTrace.js';
import { traceParentOf } from '../app/tracing/tracing.js';

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

/**
 * Routes one HTTPS request through `routes` (the core's, then the profiles'); what no route
 * serves goes to the console, then 404.
 */
export async function handleHttp(context: TransportContext, routes: readonly Route[], request: IncomingMessage, response: ServerResponse): Promise<void> {
  const now = new Date(context.clock.nowMillis()).toISOString();
  const url = new URL(request.url ?? '/', 'https://localhost');
  // A `traceparent` the request brings goes on to a Command's Event even with tracing off.
  const brought = request.headers.traceparent === undefined ? undefined : traceParentOf(request.headers.traceparent, request.headers.tracestate);
  const trace = requestTrace(context.authority.tracing, request, response, url, brought);
  try {
    const found = matchRoute(routes, request.method ?? '', url.pathname);
    if (found !== undefined) {
      if (trace.span !== undefined && typeof found.route.path === 'string') trace.span.setAttribute('http.route', found.route.path).updateName(`${found.route.method} ${found.route.path}`);
      const io: RouteIo = { read: (limit) => readBody(request, limit), send: (status, body) => send(response, status, body), fail: (error) => sendError(response, error, now), tooLarge: (limit) => refuseTooLarge(request, response, limit, now) };
      return await serveRoute(found.route, { context, request, response, url, params: found.params, io, now, ...(trace.origin === undefined ? {} : { trace: trace.origin }) });
    }
    if (serveConsole(request, response, url.pathname)) return undefined;
    send(response, 404, '{"error":"not found"}');
  } catch (error) {
    context.logger.error({ err: error, path: url.pathname }, 'HTTP request failed');
    if (!response.headersSent) sendError(response, wireError('INTERNAL_ERROR', ''), now);
  }
}
