/**
 * The agent runtime's durable local projection (§11.1, §11.5): one SQLite file per Agent home,
 * holding what the runtime must not lose across a restart — Cursors per Group, an inbox
 * deduplicated by Event ID, an outbox of signed Commands kept byte for byte, the scheduler's
 * snapshot, per-Group context and per-WorkItem ownership and checkpoints. Mission, ownership,
 * lease and WorkItem status stay authoritative in the Group log; everything here can be rebuilt
 * by replay except the outbox's Commands signed while offline, which is why they are kept.
 *
 * ```ts
 * const projection = openProjection({ path: projectionPathIn(home), agentId });
 * const agent = new MissionWeaveAgent({ …, cursorStore: projection.cursors });
 * ```
 *
 * - One writer: the connection takes SQLite's exclusive lock at open and holds it until
 *   `close()`; a second process opening the same file gets a ProjectionError `locked`.
 * - WAL journal, `synchronous = FULL`: a write that returned survives a crash or power loss.
 * - Bounded (ProjectionLimits): every bound refuses with a typed reason; the file itself is
 *   bounded by `max_page_count`, so a full bound behaves as a full disk: the write is rolled
 *   back with `disk-full` and everything written before stays.
 * - Checked at open: a file that is not a database, or fails `quick_check`, is refused as
 *   `corrupt`, naming the file; one written by a newer runtime as `schema-too-new`; one that
 *   belongs to another Agent as `other-agent`. Nothing is overwritten.
 */

import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { formatTimestamp } from '../../protocol/timestamp.js';
import { ProjectionArtifacts } from './projectionArtifacts.js';
import { DEFAULT_PROJECTION_LIMITS, ProjectionContext, type ProjectionLimits } from './projectionContext.js';
import { ProjectionError, projectionFailure } from './projectionErrors.js';
import { ProjectionCursors, ProjectionInbox } from './projectionInbox.js';
import { ProjectionOutbox, type OutboxCommand } from './projectionOutbox.js';
import { migrate, SCHEMA_VERSION } from './projectionSchema.js';
import { ProjectionState, type SavedSnapshot } from './projectionState.js';
import { ProjectionWork, type WorkRecovery } from './projectionWork.js';
import type { InboxEvent } from './projectionInbox.js';

/** The projection's file name in an Agent home: one file per home. */
export const PROJECTION_FILE_NAME = 'projection.sqlite';

/** Where the projection of the Agent whose home is `home` lives. */
export function projectionPathIn(home: string): string {
  return join(home, PROJECTION_FILE_NAME);
}

export interface ProjectionOptions {
  /** The projection file, `projectionPathIn(home)` by convention; its folder is created. */
  readonly path: string;
  /** The Agent the file belongs to: recorded when it is created, checked on every open. */
  readonly agentId: string;
  readonly limits?: Partial<ProjectionLimits>;
  /** Milliseconds since the epoch (tests pass a fixed clock). */
  readonly clock?: () => number;
}

/** What a restarted runtime rebuilds from (§11.5); the Authority's replay from `cursors` follows. */
export interface ProjectionRecovery {
  /** Where each Group's replay resumes. */
  readonly cursors: ReadonlyMap<string, number>;
  /** Events received before the restart and not applied: handed over again, in order. */
  readonly unapplied: readonly InboxEvent[];
  /** Signed Commands not answered: sent again with the same bytes. */
  readonly toSend: readonly OutboxCommand[];
  readonly schedulerSnapshot?: SavedSnapshot;
  readonly work: WorkRecovery;
}

export class LocalProjection {
  readonly path: string;
  readonly agentId: string;
  readonly schemaVersion: number;
  readonly cursors: ProjectionCursors;
  readonly inbox: ProjectionInbox;
  readonly outbox: ProjectionOutbox;
  /** Artifacts of a `work.submit` kept in the outbox while offline, until they are published. */
  readonly artifacts: ProjectionArtifacts;
  readonly work: ProjectionWork;
  readonly state: ProjectionState;
  private readonly db: Database.Database;
  private readonly context: ProjectionContext;

  /** Use openProjection. */
  constructor(context: ProjectionContext, agentId: string) {
    this.context = context;
    this.db = context.db;
    this.path = context.path;
    this.agentId = agentId;
    this.schemaVersion = SCHEMA_VERSION;
    this.cursors = new ProjectionCursors(context);
    this.inbox = new ProjectionInbox(context);
    this.outbox = new ProjectionOutbox(context);
    this.artifacts = new ProjectionArtifacts(context);
    this.work = new ProjectionWork(context);
    this.state = new ProjectionState(context);
  }

  /** The storage side of a restart: settles what was running (ProjectionWork.recover) and lists the rest. */
  recover(): ProjectionRecovery {
    const work = this.work.recover();
    const schedulerSnapshot = this.state.schedulerSnapshot();
    return {
      cursors: this.cursors.all(),
      unapplied: this.inbox.unapplied(),
      toSend: this.outbox.toSend(),
      ...(schedulerSnapshot === undefined ? {} : { schedulerSnapshot }),
      work,
    };
  }

  /**
   * Runs `work` as one transaction: the writes of the parts it calls (each its own transaction
   * otherwise) are kept all together, or none of them if it throws. The runtime uses it to save a
   * scheduler decision together with the WorkItem rows it changes.
   */
  atomically<T>(work: () => T): T {
    return this.context.write(work);
  }

  get open(): boolean {
    return this.db.open;
  }

  /** Checkpoints the WAL into the file and releases the lock; later calls fail as `closed`. */
  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Opens (creating, or migrating to the current schema) the projection of one Agent. */
export function openProjection(options: ProjectionOptions): LocalProjection {
  const path = resolve(options.path);
  const limits: ProjectionLimits = { ...DEFAULT_PROJECTION_LIMITS, ...options.limits };
  const clock = options.clock ?? Date.now;
  let db: Database.Database | undefined;
  try {
    mkdirSync(dirname(path), { recursive: true });
    // No waiting on the lock: the writer that holds it holds it until it closes.
    db = new Database(path, { timeout: 0 });
    // Exclusive before WAL: the WAL index then lives in this process's memory (no -shm file
    // another process could attach to), and the first transaction takes the lock for good.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
    db.pragma('synchronous = FULL');
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.pragma(`max_page_count = ${Math.max(1, Math.floor(limits.maxBytes / pageSize))}`);
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new ProjectionError('corrupt', path, `the database file is malformed (quick_check: ${String(check)})`);
    const context = new ProjectionContext(db, path, limits, () => formatTimestamp(clock()));
    migrate(db, path, context.now());
    const owner = context.write(() => {
      const row = context.db.prepare('SELECT agent_id FROM projection_owner').get() as { agent_id: string } | undefined;
      if (row !== undefined) return row.agent_id;
      context.db.prepare('INSERT INTO projection_owner (singleton, agent_id, created_at) VALUES (1, ?, ?)').run(options.agentId, context.now());
      return options.agentId;
    });
    if (owner !== options.agentId) throw new ProjectionError('other-agent', path, `this projection belongs to Agent ${owner}, not ${options.agentId}`);
    return new LocalProjection(context, options.agentId);
  } catch (error) {
    try {
      if (db?.open === true) db.close();
    } catch {
      // The open failed already; that failure is the one to report.
    }
    throw projectionFailure(error, path);
  }
}
