/**
 * What the local projection refuses or fails with: one `AgentClientError` code,
 * `PROJECTION_FAILED`, and a `reason` that says which fault or bound (classify by `reason`, as by
 * `code`). Every message names the projection file. SQLite's own errors are translated here, so
 * a caller never sees a raw `SqliteError`:
 *
 * - `corrupt`: the file is not a SQLite database, or SQLite found it malformed;
 * - `locked`: another process holds the projection (one writer per file);
 * - `disk-full`: the disk, or the projection's byte bound, is full; the write was rolled back;
 * - `io`: the file could not be opened, read or written;
 * - `schema-too-new`: the file was written by a newer version of this code;
 * - `other-agent`: the file belongs to another Agent;
 * - `closed`: the projection was closed;
 * - `outbox-full`, `inbox-full`, `work-full`, `too-large`: a named bound of limits.ts;
 * - `action-id-collision`, `event-id-collision`: the same ID with other content;
 * - `stale`: an older revision or Ownership Epoch, a lease that is not the current one, or a
 *   transition the row's state does not allow.
 */

import { AgentClientError } from '../errors.js';

export type ProjectionFailure =
  | 'corrupt'
  | 'locked'
  | 'disk-full'
  | 'io'
  | 'schema-too-new'
  | 'other-agent'
  | 'closed'
  | 'outbox-full'
  | 'inbox-full'
  | 'work-full'
  | 'too-large'
  | 'action-id-collision'
  | 'event-id-collision'
  | 'stale';

export class ProjectionError extends AgentClientError {
  readonly reason: ProjectionFailure;
  readonly path: string;

  constructor(reason: ProjectionFailure, path: string, message: string, init: { readonly groupId?: string; readonly cause?: unknown } = {}) {
    super('PROJECTION_FAILED', `${path}: ${message}`, init);
    this.reason = reason;
    this.path = path;
  }
}

export function isProjectionError(value: unknown): value is ProjectionError {
  return value instanceof ProjectionError;
}

/** SQLite result codes (extended codes start with the primary one's name) and what they mean here. */
const SQLITE_FAILURES: readonly (readonly [string, ProjectionFailure, string])[] = [
  ['SQLITE_NOTADB', 'corrupt', 'not a SQLite database (corrupt or overwritten)'],
  ['SQLITE_CORRUPT', 'corrupt', 'the database file is malformed'],
  ['SQLITE_BUSY', 'locked', 'another process holds this projection (one writer per file)'],
  ['SQLITE_LOCKED', 'locked', 'another connection holds this projection'],
  ['SQLITE_FULL', 'disk-full', 'the disk or the projection size bound is full; the write was rolled back'],
  ['SQLITE_CANTOPEN', 'io', 'the file cannot be opened'],
  ['SQLITE_IOERR', 'io', 'reading or writing the file failed'],
  ['SQLITE_READONLY', 'io', 'the file is read-only'],
  ['SQLITE_PERM', 'io', 'no permission to write the file'],
];

/** A thrown value as a ProjectionError (itself when it already is one); anything unknown is rethrown as it was. */
export function projectionFailure(error: unknown, path: string): ProjectionError {
  if (error instanceof ProjectionError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    const known = SQLITE_FAILURES.find(([prefix]) => code === prefix || code.startsWith(`${prefix}_`));
    if (known !== undefined) return new ProjectionError(known[1], path, `${known[2]} (${code})`, { cause: error });
  }
  if (error instanceof TypeError && /database connection is not open/.test(error.message)) {
    return new ProjectionError('closed', path, 'the projection is closed', { cause: error });
  }
  throw error;
}
