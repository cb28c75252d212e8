/**
 * Parley over HTTPS (docs/parley.md, seed « Transport et découverte »): the node-wide manifest,
 * and a Group's threads, state-change logs and the reader's inbox. A reader is a human session
 * or an Agent HELLO session (`readerAuth.ts`), judged by the one read rule; Parley actions are
 * not here: they are signed Commands (`ext.missionweave.parley.post` / `.claim`) posted to
 * `POST /v1/commands` like every other Command, so both transports share one authorization path.
 */

import type { IncomingMessage } from 'node:http';
import { wireError } from '../app/wireError.js';
import type { RouteIo } from './capabilityRoutes.js';
import { readerOf } from './readerAuth.js';
import { MAX_IDENTIFIER_CHARS } from './readerLimits.js';
import type { TransportContext } from './transportContext.js';

export const PARLEY_MANIFEST_PATH = '/v1/parley/manifest';
const GROUP_PARLEY = /^\/v1\/groups\/([^/]+)\/parley\/(?:threads\/([^/]+)(\/log)?|(inbox))$/;

/** `th_7` or `7` (seed: `thread` accepts the opaque key or the plain number). */
function threadNumber(text: string): number | undefined {
  const match = /^(?:th_)?([1-9][0-9]{0,8})$/.exec(text);
  return match === null ? undefined : Number(match[1]);
}

/** A query value that is absent, or 1 to MAX_IDENTIFIER_CHARS characters. */
function queryValue(url: URL, name: string): { ok: true; value: string | undefined } | { ok: false } {
  const value = url.searchParams.get(name);
  if (value === null) return { ok: true, value: undefined };
  return value.length === 0 || value.length > MAX_IDENTIFIER_CHARS ? { ok: false } : { ok: true, value };
}

function inboxQuery(url: URL): { since?: string; cursor?: string; limit?: number; extension?: string } | undefined {
  const since = queryValue(url, 'since');
  const cursor = queryValue(url, 'cursor');
  const extension = queryValue(url, 'extension');
  const limitText = url.searchParams.get('limit');
  if (!since.ok || !cursor.ok || !extension.ok) return undefined;
  if (limitText !== null && !/^[1-9][0-9]{0,3}$/.test(limitText)) return undefined;
  return {
    ...(since.value === undefined ? {} : { since: since.value }),
    ...(cursor.value === undefined ? {} : { cursor: cursor.value }),
    ...(extension.value === undefined ? {} : { extension: extension.value }),
    ...(limitText === null ? {} : { limit: Number(limitText) }),
  };
}

/** Serves the request when it is a Parley read; false when it is not. */
export async function routeParley(context: TransportContext, request: IncomingMessage, url: URL, io: RouteIo): Promise<boolean> {
  if (request.method !== 'GET') return false;
  if (url.pathname === PARLEY_MANIFEST_PATH) {
    // The manifest is the profile's public description, the same for every Group: no reader needed.
    io.send(200, JSON.stringify(context.groups.parley.manifest()));
    return true;
  }
  const match = GROUP_PARLEY.exec(url.pathname);
  if (match === null) return false;
  const reader = readerOf(context, request);
  if (reader === undefined) {
    io.fail(wireError('AUTH_REQUIRED', 'present a live session token (a human session or an Agent HELLO session) as a Bearer credential'));
    return true;
  }
  let groupId: string;
  try {
    groupId = decodeURIComponent(match[1] as string);
  } catch {
    io.fail(wireError('GROUP_NOT_FOUND', 'no such Group'));
    return true;
  }
  const parley = context.groups.parley;
  if (match[4] === 'inbox') {
    const query = inboxQuery(url);
    if (query === undefined) {
      io.fail(wireError('PROTOCOL_VIOLATION', `"since", "cursor" and "extension" are 1 to ${MAX_IDENTIFIER_CHARS} characters, "limit" a positive integer`));
      return true;
    }
    const { extension, ...page } = query;
    const read = await parley.inbox(groupId, reader.principal, extension, page);
    if (read.ok) io.send(200, JSON.stringify(read.body));
    else io.fail(read.error);
    return true;
  }
  const thread = threadNumber(match[2] as string);
  if (thread === undefined) {
    io.fail(wireError('INVALID_COMMAND', 'a thread is th_<n> or <n>', { details: { reason: 'unknown_thread' } }));
    return true;
  }
  const read = match[3] === '/log' ? await parley.log(groupId, reader.principal, thread) : await parley.thread(groupId, reader.principal, thread);
  if (read.ok) io.send(200, JSON.stringify(read.body));
  else io.fail(read.error);
  return true;
}
