/**
 * An empty, unmigrated database of its own for a file that tests the migrations themselves (it
 * runs them up to a version, seeds rows, then runs the rest): created before the file's tests on
 * the test server, dropped after them.
 */

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, inject } from 'vitest';
import { onNode, withDatabase } from '../../src/store/adminConnection.js';
import { createPool, type Pool } from '../../src/store/pool.js';

/** Registers the hooks; the pool is there once `beforeAll` has run. */
export function emptyDatabase(): { readonly pool: () => Pool } {
  const name = `mw_test_${randomBytes(6).toString('hex')}`;
  const adminUrl = (): string => inject('adminDatabaseUrl');
  let pool: Pool | undefined;
  beforeAll(async () => {
    await onNode(adminUrl(), [`create database ${name}`]);
    pool = createPool(withDatabase(adminUrl(), name), { max: 2 });
  });
  afterAll(async () => {
    await pool?.end();
    await onNode(adminUrl(), [`drop database if exists ${name} with (force)`]);
  });
  return {
    pool: () => {
      if (pool === undefined) throw new Error('the empty database is created in beforeAll');
      return pool;
    },
  };
}
