/**
 * The HTTPS API as a table: each route names its method, its path (an exact path or an anchored
 * pattern whose groups are its parameters, still percent-encoded), what authenticates it and its
 * handler. The core's routes are listed in `coreRoutes.ts`; an Extension Profile's read side adds
 * its own (`ListenerOptions.routes`) without a line changed here. The first route whose method
 * and path both match serves the request; a path served under another method is not matched, so
 * the request goes on to the console and the API's 404, as an unknown path does.
 *
 * `auth` is enforced before the handler runs:
 * - `public`: no credential (liveness, the metrics, a profile's public description);
 * - `reader`: a live human or Agent HELLO session (`readerAuth.ts`), handed to the handler;
 * - `session`: a live Agent session, handed to the handler;
 * - `handler`: the handler authenticates itself (a Signed Command, a token in the body, or a
 *   check that must come after reading the path).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { wireError, type WireError } from '../app/wireError.js';
import { readerOf, bearerToken, type Reader } from './readerAuth.js';
import type { AgentSession } from './sessions.js';
import type { TransportContext } from './transportContext.js';
import type { CommandTraceOrigin } from '../app/tracing/tracing.js';

/** What the HTTP router lends the routes: its body reader and answers. */
export interface RouteIo {
  read(limit: number): Promise<{ readonly kind: 'complete'; readonly bytes: Buffer } | { readonly kind: 'tooLarge' } | { readonly kind: 'aborted' }>;
  send(status: number, body: string): void;
  fail(error: WireError): void;
  tooLarge(limit: number): void;
}

/** One request as a route's handler sees it. */
export interface RouteCall {
  readonly context: TransportContext;
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly url: URL;
  /** The path pattern's groups, percent-encoded as they came (undefined for an unmatched optional group). */
  readonly params: readonly (string | undefined)[];
  readonly io: RouteIo;
  /** The request's time, for error documents. */
  readonly now: string;
  /** The request's trace: its span's context (tracing on) and the `traceparent` it brought. */
  readonly trace?: CommandTraceOrigin;
}

export type RouteMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';

interface RouteHead {
  readonly method: RouteMethod;
  /** An exact path, or a pattern anchored at both ends. */
  readonly path: string | RegExp;
}

type Answer = Promise<void> | void;

export type Route =
  | (RouteHead & { readonly auth: 'public' | 'handler'; handle(call: RouteCall): Answer })
  | (RouteHead & { readonly auth: 'reader'; handle(call: RouteCall, reader: Reader): Answer })
  | (RouteHead & { readonly auth: 'session'; handle(call: RouteCall, session: AgentSession): Answer });

export const READER_REQUIRED = 'present a live session token (a human session or an Agent HELLO session) as a Bearer credential';
export const SESSION_REQUIRED = 'present the session token of a live session';

/** The route serving `method` and `pathname`, with its path parameters; undefined when none does. */
export function matchRoute(routes: readonly Route[], method: string, pathname: string): { route: Route; params: (string | undefined)[] } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    if (typeof route.path === 'string') {
      if (route.path === pathname) return { route, params: [] };
      continue;
    }
    const match = route.path.exec(pathname);
    if (match !== null) return { route, params: match.slice(1) };
  }
  return undefined;
}

/** Authenticates the call as the route requires, then serves it. */
export function serveRoute(route: Route, call: RouteCall): Answer {
  switch (route.auth) {
    case 'reader': {
      const reader = readerOf(call.context, call.request);
      if (reader === undefined) return call.io.fail(wireError('AUTH_REQUIRED', READER_REQUIRED));
      return route.handle(call, reader);
    }
    case 'session': {
      const token = bearerToken(call.request);
      const session = token === undefined ? undefined : call.context.sessions.session(token);
      if (session === undefined) return call.io.fail(wireError('AUTH_REQUIRED', SESSION_REQUIRED));
      return route.handle(call, session);
    }
    default:
      return route.handle(call);
  }
}

/** A path parameter decoded, or undefined when its percent-encoding is malformed. */
export function decodedParam(text: string | undefined): string | undefined {
  try {
    return decodeURIComponent(text as string);
  } catch {
    return undefined;
  }
}
