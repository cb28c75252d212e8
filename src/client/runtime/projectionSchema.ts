/**
 * The projection's schema: numbered plain-SQL migrations, each applied with its `schema_version`
 * row inside one transaction, so a crash leaves a file at one version or the next, never
 * between. A file at a version this code does not know was written by a newer runtime and is
 * refused (its tables may mean something this code would corrupt).
 *
 * Version 1 holds what the wire side needs (the Agent it belongs to, Cursors, the inbox, the
 * outbox); version 2 adds what the runtime's own scheduling needs (the scheduler's snapshot,
 * per-Group context, per-WorkItem ownership and checkpoints); version 3 records, on an outbox
 * row a §19 rebase gave a new Action ID, the Action ID it was first kept under (`rebased_from`);
 * version 4 keeps the Artifacts of a `work.submit` signed while offline, content and signed
 * manifest, until they are uploaded and published on reconnect (`kept_artifacts`).
 */

import type Database from 'better-sqlite3';
import { ProjectionError } from './projectionErrors.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'cursors, inbox and outbox',
    sql: `
      CREATE TABLE projection_owner (
        singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
        agent_id TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE cursors (
        group_id TEXT PRIMARY KEY,
        sequence INTEGER NOT NULL CHECK (sequence >= 0),
        updated_at TEXT NOT NULL
      );
      CREATE TABLE inbox (
        event_id TEXT PRIMARY KEY,
        group_id TEXT NOT NULL,
        sequence INTEGER NOT NULL CHECK (sequence >= 1),
        event TEXT NOT NULL,
        applied INTEGER NOT NULL DEFAULT 0 CHECK (applied IN (0, 1)),
        received_at TEXT NOT NULL
      );
      CREATE INDEX inbox_by_group ON inbox (group_id, applied, sequence);
      CREATE TABLE outbox (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        action_id TEXT NOT NULL UNIQUE,
        group_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        bytes BLOB NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'acked', 'refused')),
        refusal TEXT,
        event_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX outbox_by_state ON outbox (state, position);
    `,
  },
  {
    version: 2,
    name: 'scheduler snapshot, Group context and WorkItem checkpoints',
    sql: `
      CREATE TABLE scheduler_snapshot (
        singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
        snapshot TEXT NOT NULL,
        saved_at TEXT NOT NULL
      );
      CREATE TABLE group_context (
        group_id TEXT PRIMARY KEY,
        revision INTEGER NOT NULL CHECK (revision >= 0),
        context TEXT NOT NULL,
        saved_at TEXT NOT NULL
      );
      CREATE TABLE work (
        group_id TEXT NOT NULL,
        work_item_id TEXT NOT NULL,
        ownership_epoch INTEGER NOT NULL CHECK (ownership_epoch >= 1),
        execution_lease_id TEXT,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'paused', 'blocked')),
        blocked_reason TEXT,
        checkpoint BLOB,
        checkpoint_ownership_epoch INTEGER,
        checkpoint_lease_id TEXT,
        checkpoint_at TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (group_id, work_item_id)
      );
    `,
  },
  {
    version: 3,
    name: 'the Action ID a rebased outbox Command was first kept under',
    sql: `ALTER TABLE outbox ADD COLUMN rebased_from TEXT;`,
  },
  {
    version: 4,
    name: 'Artifacts kept with a work.submit signed offline',
    sql: `
      CREATE TABLE kept_artifacts (
        work_item_id TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        group_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        content BLOB NOT NULL,
        manifest TEXT NOT NULL,
        kept_at TEXT NOT NULL,
        PRIMARY KEY (work_item_id, content_hash)
      );
    `,
  },
];

/** The version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.reduce((highest, migration) => Math.max(highest, migration.version), 0);

/** The highest version recorded in the file; 0 for a new file. */
export function schemaVersionOf(db: Database.Database): number {
  const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'`).get();
  if (table === undefined) return 0;
  const row = db.prepare('SELECT max(version) AS version FROM schema_version').get() as { version: number | null };
  return row.version ?? 0;
}

/**
 * Brings the file to SCHEMA_VERSION, one transaction per migration; refuses a newer file.
 * Returns the versions applied.
 */
export function migrate(db: Database.Database, path: string, appliedAt: string, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const known = migrations.reduce((highest, migration) => Math.max(highest, migration.version), 0);
  const found = schemaVersionOf(db);
  if (found > known) throw new ProjectionError('schema-too-new', path, `schema version ${found} is newer than this runtime knows (${known}); open it with a newer runtime`);
  const applied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (migration.version <= found) continue;
    db.transaction(() => {
      db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
      db.prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, appliedAt);
      db.exec(migration.sql);
    }).immediate();
    applied.push(migration.version);
  }
  return applied;
}
