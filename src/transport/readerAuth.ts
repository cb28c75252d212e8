/**
 * Who is reading (docs/human-api.md): the Bearer token of an HTTPS read names either a human
 * session (`app/humans/humanSessions.ts`) or an Agent's live HELLO session, and both become a
 * Principal that the one read rule judges (`authorizeRead`, §8). `live()` says whether that
 * session still stands, for a stream that outlives the request that opened it.
 */

import type { IncomingMessage } from 'node:http';
import type { Principal } from '../protocol/principal.js';
import type { TransportContext } from './transportContext.js';

export interface Reader {
  readonly principal: Principal;
  /** The token that authenticated the reader, when it is a human session's (it can end it). */
  readonly humanToken?: string;
  live(): boolean;
}

export function bearerToken(request: IncomingMessage): string | undefined {
  return /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
}

/** The reader the request's Bearer token authenticates now, or undefined. */
export function readerOf(context: TransportContext, request: IncomingMessage): Reader | undefined {
  const token = bearerToken(request);
  if (token === undefined) return undefined;
  const human = context.humans.principalOf(token);
  if (human !== undefined) return { principal: human, humanToken: token, live: () => context.humans.principalOf(token) !== undefined };
  const session = context.sessions.session(token);
  if (session === undefined || session.state === 'closing') return undefined;
  return {
    principal: { type: 'agent', id: session.agentId },
    live: () => context.sessions.session(token) === session && session.state !== 'closing',
  };
}
