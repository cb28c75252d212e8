/**
 * Forward-only numbered plain-SQL migrations (`migrations/0001_*.sql` …), applied at start.
 * Each runs in its own transaction that first takes a transaction-scoped advisory lock and
 * records itself, so concurrent starters serialize and each migration applies exactly once.
 * On a Citus coordinator the tables are then distributed (`citusLayout.ts`); on plain PostgreSQL
 * nothing more happens.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distributeTables, isCitusCoordinator } from './citusLayout.js';
import { inTransaction, type Pool } from './pool.js';

/** An arbitrary constant naming "missionweave schema migration" among advisory locks. */
const MIGRATION_LOCK = 0x6d77_0001;

export function defaultMigrationsDirectory(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'migrations');
}

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export function readMigrations(directory = defaultMigrationsDirectory()): Migration[] {
  return readdirSync(directory)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file,
      sql: readFileSync(join(directory, file), 'utf8'),
    }));
}

/** Applies every migration not yet applied; returns the names applied now. */
export async function migrate(pool: Pool, migrations = readMigrations()): Promise<string[]> {
  await pool.query(
    `create table if not exists schema_migrations (
       version integer primary key, name text not null, applied_at timestamptz not null default now())`,
  );
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await inTransaction(pool, async (client) => {
      await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const inserted = await client.query(
        'insert into schema_migrations (version, name) values ($1, $2) on conflict (version) do nothing',
        [migration.version, migration.name],
      );
      if (inserted.rowCount === 0) return false;
      await client.query(migration.sql);
      return true;
    });
    if (done) applied.push(migration.name);
  }
  // On a Citus coordinator the tables are then distributed (citusLayout.ts), under the same lock.
  if (await isCitusCoordinator(pool)) {
    await inTransaction(pool, async (client) => {
      await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await distributeTables(client);
    });
  }
  return applied;
}
