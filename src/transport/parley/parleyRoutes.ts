/**
 * Parley over HTTPS (docs/parley.md, seed « Transport et découverte »): the node-wide manifest,
 * and a Group's threads, state-change logs and the reader's inbox. A reader is a human session
 * or an Agent HELLO session (`../readerAuth.ts`), judged by the one read rule; Parley actions are
 * not here: they are signed Commands (`ext.missionweave.parley.post` / `.claim`) posted to
 * `POST /v1/commands` like every other Command, so both transports share one authorization path.
 */

import type { ParleyReads } from '../../app/parley/parleyReads.js';
import { wireError } from '../../app/wireError.js';
import type { Reader } from '../readerAuth.js';
import { MAX_IDENTIFIER_CHARS } from '../readerLimits.js';
import type { Route, RouteCall } from '../routeTable.js';

const PARLEY_MANIFEST_PATH = '/v1/parley/manifest';
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

async function getGroupParley(parley: ParleyReads, { url, io, params }: RouteCall, reader: Reader): Promise<void> {
  let groupId: string;
  try {
    groupId = decodeURIComponent(params[0] as string);
  } catch {
    return io.fail(wireError('GROUP_NOT_FOUND', 'no such Group'));
  }
  if (params[3] === 'inbox') {
    const query = inboxQuery(url);
    if (query === undefined) {
      return io.fail(wireError('PROTOCOL_VIOLATION', `"since", "cursor" and "extension" are 1 to ${MAX_IDENTIFIER_CHARS} characters, "limit" a positive integer`));
    }
    const { extension, ...page } = query;
    const read = await parley.inbox(groupId, reader.principal, extension, page);
    return read.ok ? io.send(200, JSON.stringify(read.body)) : io.fail(read.error);
  }
  const thread = threadNumber(params[1] as string);
  if (thread === undefined) return io.fail(wireError('INVALID_COMMAND', 'a thread is th_<n> or <n>', { details: { reason: 'unknown_thread' } }));
  const read = params[2] === '/log' ? await parley.log(groupId, reader.principal, thread) : await parley.thread(groupId, reader.principal, thread);
  return read.ok ? io.send(200, JSON.stringify(read.body)) : io.fail(read.error);
}

/** Parley's reads over `reads`; its actions are Commands. */
export function parleyRoutes(reads: ParleyReads): Route[] {
  return [
    // The manifest is the profile's public description, the same for every Group: no reader needed.
    { method: 'GET', path: PARLEY_MANIFEST_PATH, auth: 'public', handle: ({ io }) => io.send(200, JSON.stringify(reads.manifest())) },
    { method: 'GET', path: GROUP_PARLEY, auth: 'reader', handle: (call, reader) => getGroupParley(reads, call, reader) },
  ];
}
