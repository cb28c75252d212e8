/**
 * Each test file gets its own database, cloned from the migrated template of the run.
 */

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { withDatabase } from '../../src/store/adminConnection.js';
import { createPool, type Pool } from '../../src/store/pool.js';
import { cloneOnCluster, dropOnCluster } from './citusDatabases.js';

const TEMPLATE = 'mw_test_template';

export interface TestDatabase {
  readonly url: string;
  readonly pool: Pool;
}

/** Creates this file's database and drops it after the file's tests. */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `mw_test_${randomBytes(6).toString('hex')}`;
  const workers = inject('citusWorkers');
  if (workers.length > 0) {
    // A Citus cluster: the clone is made on every node (citusDatabases.ts).
    await cloneOnCluster(adminUrl, workers, TEMPLATE, name);
    const url = withDatabase(adminUrl, name);
    const pool = createPool(url, { max: options.poolSize ?? 10 });
    afterAll(async () => {
      await pool.end();
      await dropOnCluster(adminUrl, workers, name);
    });
    return { url, pool };
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${TEMPLATE}`);
  await admin.end();
  const url = withDatabase(adminUrl, name);
  const pool = createPool(url, { max: options.poolSize ?? 10 });
  afterAll(async () => {
    await pool.end();
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  });
  return { url, pool };
}
