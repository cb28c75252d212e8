/**
 * Signed Group Snapshots over HTTPS (§7.4, §16): `GET /v1/groups/{groupId}/snapshots/{hash}`, the
 * snapshot CURSOR_TOO_OLD names, and `GET /v1/groups/{groupId}/archive`, an archived Group's
 * signed final snapshot. A snapshot is Group content: any live session — an Agent's HELLO session
 * or a human's (`readerAuth.ts`) — whose Membership the read rule lets read whole snapshots may
 * read one; the body is the stored `{snapshot, state}` JCS text, whose SHA-256 is its hash.
 */

import { wireError } from '../app/wireError.js';
import type { Reader } from './readerAuth.js';
import { decodedParam, type Route, type RouteCall } from './routeTable.js';

const SNAPSHOT_PATH = /^\/v1\/groups\/([^/]+)\/snapshots\/(sha256:[0-9a-f]{64})$/;
const ARCHIVE_PATH = /^\/v1\/groups\/([^/]+)\/archive$/;

async function getSnapshot({ context, io, params }: RouteCall, reader: Reader): Promise<void> {
  const groupId = decodedParam(params[0]);
  if (groupId === undefined) return io.fail(wireError('GROUP_NOT_FOUND', 'no such Group'));
  const read = params[1] === undefined ? await context.groups.archiveSnapshot(groupId, reader.principal) : await context.groups.snapshot(groupId, reader.principal, params[1]);
  if (read.ok) io.send(200, read.body);
  else io.fail(read.error);
}

/** A snapshot CURSOR_TOO_OLD names, and an archived Group's final one. */
export const snapshotRoutes: readonly Route[] = [
  { method: 'GET', path: SNAPSHOT_PATH, auth: 'reader', handle: getSnapshot },
  { method: 'GET', path: ARCHIVE_PATH, auth: 'reader', handle: getSnapshot },
];
