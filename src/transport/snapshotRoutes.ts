/**
 * Signed Group Snapshots over HTTPS (§7.4, §16): `GET /v1/groups/{groupId}/snapshots/{hash}`, the
 * snapshot CURSOR_TOO_OLD names, and `GET /v1/groups/{groupId}/archive`, an archived Group's
 * signed final snapshot. A snapshot is Group content: any live session — an Agent's HELLO session
 * or a human's (`readerAuth.ts`) — whose Membership the read rule lets read whole snapshots may
 * read one; the body is the stored `{snapshot, state}` JCS text, whose SHA-256 is its hash.
 */

import type { IncomingMessage } from 'node:http';
import { wireError, type WireError } from '../app/wireError.js';
import { readerOf } from './readerAuth.js';
import type { TransportContext } from './transportContext.js';

const SNAPSHOT_PATH = /^\/v1\/groups\/([^/]+)\/snapshots\/(sha256:[0-9a-f]{64})$/;
const ARCHIVE_PATH = /^\/v1\/groups\/([^/]+)\/archive$/;

export interface SnapshotIo {
  send(status: number, body: string): void;
  fail(error: WireError): void;
}

/** Serves the request when it is one of these routes; false when it is not. */
export async function routeSnapshots(context: TransportContext, request: IncomingMessage, path: string, io: SnapshotIo): Promise<boolean> {
  if (request.method !== 'GET') return false;
  const snapshot = SNAPSHOT_PATH.exec(path);
  const archive = snapshot === null ? ARCHIVE_PATH.exec(path) : null;
  if (snapshot === null && archive === null) return false;
  const reader = readerOf(context, request);
  if (reader === undefined) {
    io.fail(wireError('AUTH_REQUIRED', 'present a live session token (a human session or an Agent HELLO session) as a Bearer credential'));
    return true;
  }
  let groupId: string;
  try {
    groupId = decodeURIComponent(((snapshot ?? archive) as RegExpExecArray)[1] as string);
  } catch {
    io.fail(wireError('GROUP_NOT_FOUND', 'no such Group'));
    return true;
  }
  const read = snapshot === null ? await context.groups.archiveSnapshot(groupId, reader.principal) : await context.groups.snapshot(groupId, reader.principal, snapshot[2] as string);
  if (read.ok) io.send(200, read.body);
  else io.fail(read.error);
  return true;
}
