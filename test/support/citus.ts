/**
 * A Citus cluster for the tests that need one: MW_CITUS_URL names its coordinator (an admin
 * connection; `scripts/citus.sh start` prints it). Without it those tests skip and say why, in
 * their name and on stderr — never silently.
 *
 * Each file gets a database of its own on every node, with the extension created and the
 * workers registered on the coordinator, and dropped after the file.
 */

import { randomBytes } from 'node:crypto';
import { afterAll, describe } from 'vitest';
import { createPool, type Pool } from '../../src/store/pool.js';
import { withDatabase } from '../../src/store/adminConnection.js';
import { citusWorkers, createOnCluster, dropOnCluster } from './citusDatabases.js';

export const CITUS_URL = process.env['MW_CITUS_URL'] ?? '';

/** Why the Citus tests are skipped, or undefined when they run. */
export const CITUS_SKIP_REASON = CITUS_URL === '' ? 'MW_CITUS_URL is not set: start a cluster with `export MW_CITUS_URL=$(scripts/citus.sh start)`' : undefined;

/** `describe`, or a skipped one whose name says why when there is no cluster. */
export function describeOnCitus(name: string, body: () => void): void {
  if (CITUS_SKIP_REASON === undefined) {
    describe(name, body);
    return;
  }
  process.stderr.write(`skipped on purpose: "${name}" needs Citus; ${CITUS_SKIP_REASON}\n`);
  describe.skip(`${name} (skipped: ${CITUS_SKIP_REASON})`, body);
}

export interface CitusDatabase {
  /** The coordinator's URL for this database. */
  readonly url: string;
  readonly pool: Pool;
  /** Each worker's URL for this database. */
  readonly workers: readonly string[];
}

/** Creates this file's database on every node of the cluster and drops it after the file's tests. */
export async function createCitusDatabase(options: { poolSize?: number; shards?: number } = {}): Promise<CitusDatabase> {
  const name = `mw_citus_${randomBytes(6).toString('hex')}`;
  const workers = (await citusWorkers(CITUS_URL)) ?? [];
  const url = await createOnCluster(CITUS_URL, workers, name, options.shards ?? 8);
  const pool = createPool(url, { max: options.poolSize ?? 10 });
  afterAll(async () => {
    await pool.end();
    await dropOnCluster(CITUS_URL, workers, name);
  });
  return { url, pool, workers: workers.map((w) => withDatabase(w, name)) };
}
