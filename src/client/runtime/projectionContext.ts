/**
 * What the parts of the local projection (Cursors and inbox, outbox, work) share: the open
 * connection, the file's path for error messages, the bounds, the clock, and one way to read
 * and one to write. Every write is one immediate transaction, so a refusal or a failure (a full
 * disk) leaves nothing half-written, and every SQLite failure leaves as a ProjectionError.
 */

import type Database from 'better-sqlite3';
import {
  MAX_CHECKPOINT_BYTES,
  MAX_CONTEXT_BYTES,
  MAX_INBOX_EVENTS_PER_GROUP,
  MAX_KEPT_ARTIFACT_BYTES,
  MAX_OUTBOX_COMMANDS,
  MAX_PROJECTED_WORK,
  MAX_PROJECTION_BYTES,
} from '../limits.js';
import { ProjectionError, projectionFailure } from './projectionErrors.js';

/** The bounds of one projection; each defaults to its limits.ts constant. */
export interface ProjectionLimits {
  /** Outbox rows not yet acknowledged or refused (MAX_OUTBOX_COMMANDS). */
  readonly maxOutboxCommands: number;
  /** Inbox rows per Group (MAX_INBOX_EVENTS_PER_GROUP). */
  readonly maxInboxEventsPerGroup: number;
  /** One WorkItem's checkpoint data (MAX_CHECKPOINT_BYTES). */
  readonly maxCheckpointBytes: number;
  /** One Group's context, and the scheduler snapshot (MAX_CONTEXT_BYTES). */
  readonly maxContextBytes: number;
  /** WorkItems tracked (MAX_PROJECTED_WORK). */
  readonly maxProjectedWork: number;
  /** Artifact content kept for submissions signed offline, all together (MAX_KEPT_ARTIFACT_BYTES). */
  readonly maxKeptArtifactBytes: number;
  /** The file (MAX_PROJECTION_BYTES), rounded down to whole pages. */
  readonly maxBytes: number;
}

export const DEFAULT_PROJECTION_LIMITS: ProjectionLimits = {
  maxOutboxCommands: MAX_OUTBOX_COMMANDS,
  maxInboxEventsPerGroup: MAX_INBOX_EVENTS_PER_GROUP,
  maxCheckpointBytes: MAX_CHECKPOINT_BYTES,
  maxContextBytes: MAX_CONTEXT_BYTES,
  maxProjectedWork: MAX_PROJECTED_WORK,
  maxKeptArtifactBytes: MAX_KEPT_ARTIFACT_BYTES,
  maxBytes: MAX_PROJECTION_BYTES,
};

export class ProjectionContext {
  constructor(
    readonly db: Database.Database,
    readonly path: string,
    readonly limits: ProjectionLimits,
    private readonly clock: () => string,
  ) {}

  now(): string {
    return this.clock();
  }

  /** Runs `work` in one immediate transaction: all of it is kept, or none. */
  write<T>(work: () => T): T {
    try {
      return this.db.transaction(work).immediate();
    } catch (error) {
      throw projectionFailure(error, this.path);
    }
  }

  read<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw projectionFailure(error, this.path);
    }
  }

  refuse(reason: ConstructorParameters<typeof ProjectionError>[0], message: string, groupId?: string): ProjectionError {
    return new ProjectionError(reason, this.path, message, groupId === undefined ? {} : { groupId });
  }

  /** Refuses `bytes` over `limit`, naming what and which bound. */
  bound(what: string, bytes: number, limit: number, bound: string, groupId?: string): void {
    if (bytes > limit) throw this.refuse('too-large', `${what} is ${bytes} bytes, over ${bound} (${limit})`, groupId);
  }
}

/** UTF-8 bytes of a text, as SQLite stores it. */
export function byteLength(value: string | Uint8Array): number {
  return typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : value.byteLength;
}
