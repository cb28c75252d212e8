/**
 * The read API of docs/human-api.md over HTTPS: human sessions (a challenge signed with the
 * human's registered key, then a short-lived bearer token; HELLO stays Agent-only, §6.3) and the
 * reads a reader's Memberships allow — its Groups, a Group's Events (as a page or a live
 * Server-Sent Events stream), its current state and its Mission tree. A reader is a human
 * session or an Agent's HELLO session (`readerAuth.ts`); both are judged by the one read rule.
 * Tokens never authorize a state change: Commands stay individually signed.
 */

import type { IncomingMessage } from 'node:http';
import { wireError } from '../app/wireError.js';
import { parseStrictJson, type JsonObject } from '../protocol/strictJson.js';
import { openEventStream } from './eventStream.js';
import type { Reader } from './readerAuth.js';
import type { Route, RouteCall, RouteIo } from './routeTable.js';
import { DEFAULT_EVENTS_PER_READ, MAX_CHALLENGE_ID_CHARS, MAX_IDENTIFIER_CHARS, MAX_SIGN_IN_BODY_BYTES } from './readerLimits.js';
import type { TransportContext } from './transportContext.js';

const GROUP_READ = /^\/v1\/groups\/([^/]+)\/(events|stream|view|mission-tree)$/;
const CHALLENGE_PATH = '/v1/human-sessions/challenge';
const SESSIONS_PATH = '/v1/human-sessions';
const CURRENT_SESSION_PATH = '/v1/human-sessions/current';

/** A JSON object body with these string members, or undefined after answering the refusal. */
async function readStrings(io: RouteIo, names: readonly string[]): Promise<Record<string, string> | undefined> {
  const read = await io.read(MAX_SIGN_IN_BODY_BYTES);
  if (read.kind === 'tooLarge') return void io.tooLarge(MAX_SIGN_IN_BODY_BYTES);
  if (read.kind === 'aborted') return undefined;
  let body: JsonObject;
  try {
    body = parseStrictJson(read.bytes) as JsonObject;
  } catch (error) {
    return void io.fail(wireError('PROTOCOL_VIOLATION', (error as Error).message));
  }
  const values: Record<string, string> = {};
  for (const name of names) {
    const value = typeof body === 'object' && body !== null && !Array.isArray(body) ? body[name] : undefined;
    const max = name === 'challengeId' ? MAX_CHALLENGE_ID_CHARS : MAX_IDENTIFIER_CHARS;
    if (typeof value !== 'string' || value.length === 0 || value.length > max) {
      return void io.fail(wireError('PROTOCOL_VIOLATION', `"${name}" must be a string of 1 to ${max} characters`));
    }
    values[name] = value;
  }
  return values;
}

async function postChallenge(context: TransportContext, request: IncomingMessage, io: RouteIo): Promise<void> {
  const body = await readStrings(io, ['humanId', 'keyId']);
  if (body === undefined) return;
  const audience = (request.headers.host ?? '').slice(0, MAX_IDENTIFIER_CHARS);
  const issued = context.humans.challenge(body['humanId'] as string, body['keyId'] as string, audience);
  if (!issued.ok) return io.fail(issued.error);
  io.send(200, JSON.stringify({ challengeId: issued.challengeId, transcript: issued.transcript, expiresAt: issued.expiresAt }));
}

async function postSession(context: TransportContext, io: RouteIo): Promise<void> {
  const body = await readStrings(io, ['challengeId', 'signature']);
  if (body === undefined) return;
  // A key enrolled a moment ago, by `missionweave human add` or on another node, counts; revocations
  // reach this node's Registry through its NOTIFY and its poll.
  if (await context.humans.awaitsKey(body['challengeId'] as string)) {
    await context.authority.refreshRegistry().catch((error: unknown) => context.logger.warn({ err: error }, 'Registry refresh failed'));
  }
  const opened = await context.humans.open(body['challengeId'] as string, body['signature'] as string);
  if (!opened.ok) return io.fail(opened.error);
  io.send(201, JSON.stringify({ token: opened.token, humanId: opened.humanId, keyId: opened.keyId, expiresAt: opened.expiresAt }));
}

/** A non-negative integer query value, `fallback` when absent, undefined when malformed. */
function countOf(text: string | null | undefined, fallback: number): number | undefined {
  if (text === null || text === undefined || text === '') return fallback;
  return /^(0|[1-9][0-9]{0,15})$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : undefined;
}

async function getMe(context: TransportContext, reader: Reader, io: RouteIo): Promise<void> {
  const { groups, truncated } = await context.groups.readers.groups(reader.principal);
  io.send(200, JSON.stringify({ principal: reader.principal, groups, truncated }));
}

async function getEvents(context: TransportContext, reader: Reader, io: RouteIo, groupId: string, url: URL): Promise<void> {
  const after = countOf(url.searchParams.get('after'), 0);
  const limit = countOf(url.searchParams.get('limit'), DEFAULT_EVENTS_PER_READ);
  if (after === undefined || limit === undefined || limit === 0) return io.fail(wireError('PROTOCOL_VIOLATION', '"after" and "limit" are non-negative integers, "limit" at least 1'));
  const read = await context.groups.readers.events(groupId, reader.principal, after, Math.min(limit, context.limits.maxEventsPerRead));
  if (!read.ok) return io.fail(read.error);
  // The stored signed Event texts, byte for byte.
  io.send(200, `{"events":[${read.events.map((event) => event.document).join(',')}],"lastSequence":${read.lastSequence}}`);
}

function presenceOf(context: TransportContext): (agentId: string) => { connected: boolean; record: JsonObject | undefined } {
  return (agentId) => ({ connected: context.sessions.connected(agentId), record: context.presence.get(agentId) });
}

async function readGroup({ context, request, response, io, params, url }: RouteCall, reader: Reader): Promise<void> {
  let groupId: string;
  try {
    groupId = decodeURIComponent(params[0] as string);
  } catch {
    return io.fail(wireError('GROUP_NOT_FOUND', 'no such Group'));
  }
  switch (params[1]) {
    case 'events':
      return getEvents(context, reader, io, groupId, url);
    case 'stream': {
      const resume = request.headers['last-event-id'];
      const after = countOf(typeof resume === 'string' && resume !== '' ? resume : url.searchParams.get('after'), 0);
      if (after === undefined) return io.fail(wireError('PROTOCOL_VIOLATION', '"Last-Event-ID" and "after" are non-negative integers'));
      return openEventStream(context, request, response, reader, groupId, after, (error) => io.fail(error));
    }
    case 'view': {
      const read = await context.groups.readers.view(groupId, reader.principal, presenceOf(context));
      return read.ok ? io.send(200, JSON.stringify(read.view)) : io.fail(read.error);
    }
    default: {
      const read = await context.groups.readers.missionTree(groupId, reader.principal);
      return read.ok ? io.send(200, JSON.stringify(read.tree)) : io.fail(read.error);
    }
  }
}

async function endSession({ context, response, io }: RouteCall, reader: Reader): Promise<void> {
  if (reader.humanToken === undefined || !(await context.humans.end(reader.humanToken))) return io.fail(wireError('AUTH_REQUIRED', 'the token is not a human session'));
  response.writeHead(204, { 'cache-control': 'no-store' });
  response.end();
}

/** Human sign-in, and the reads of humans and Agents. */
export const readerRoutes: readonly Route[] = [
  { method: 'POST', path: CHALLENGE_PATH, auth: 'public', handle: ({ context, request, io }) => postChallenge(context, request, io) },
  { method: 'POST', path: SESSIONS_PATH, auth: 'public', handle: ({ context, io }) => postSession(context, io) },
  { method: 'GET', path: GROUP_READ, auth: 'reader', handle: readGroup },
  { method: 'DELETE', path: CURRENT_SESSION_PATH, auth: 'reader', handle: endSession },
  { method: 'GET', path: '/v1/me', auth: 'reader', handle: ({ context, io }, reader) => getMe(context, reader, io) },
];
