/**
 * A Citus cluster for the tests that need one: MW_CITUS_URL names its coordinator (an admin
 * connection; `scripts/citus.sh start` prints it). Without it those tests skip and say why, in
 * their name and on stderr — never silently.
 *
 * Each file gets a database of its own on every node, with the extension created and the
 * workers registered on the coordinator, and dropped after the file.
 */

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe } from 'vitest';
import { createPool, type Pool } from '../../src/store/pool.js';

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

function withDatabase(url: string, database: string, host?: string, port?: number): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  if (host !== undefined) parsed.hostname = host;
  if (port !== undefined) parsed.port = String(port);
  return parsed.toString();
}

async function onNode(url: string, statements: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface CitusDatabase {
  /** The coordinator's URL for this database. */
  readonly url: string;
  readonly pool: Pool;
  /** Each worker's URL for this database. */
  readonly workers: readonly string[];
}

/** Creates this file's database on every node of the cluster and drops it after the file's tests. */
export async function createCitusDatabase(options: { poolSize?: number } = {}): Promise<CitusDatabase> {
  const name = `mw_citus_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: CITUS_URL });
  await admin.connect();
  const nodes = await admin.query<{ nodename: string; nodeport: number }>("select nodename, nodeport from pg_dist_node where groupid > 0 and noderole = 'primary' order by nodeid");
  const coordinator = new URL(CITUS_URL);
  await admin.end();
  const workers = nodes.rows.map((n) => withDatabase(CITUS_URL, name, n.nodename, n.nodeport));
  for (const worker of workers) {
    await onNode(withDatabase(worker, 'postgres'), [`create database ${name}`]);
    await onNode(worker, ['create extension citus']);
  }
  await onNode(CITUS_URL, [`create database ${name}`]);
  const url = withDatabase(CITUS_URL, name);
  await onNode(url, [
    'create extension citus',
    `alter database ${name} set citus.multi_shard_modify_mode to sequential`,
    `select citus_set_coordinator_host('${coordinator.hostname}', ${Number(coordinator.port || 5432)})`,
    ...nodes.rows.map((n) => `select citus_add_node('${n.nodename}', ${n.nodeport})`),
  ]);
  const pool = createPool(url, { max: options.poolSize ?? 10 });
  afterAll(async () => {
    await pool.end();
    await onNode(CITUS_URL, [`drop database if exists ${name} with (force)`]);
    for (const worker of workers) await onNode(withDatabase(worker, 'postgres'), [`drop database if exists ${name} with (force)`]);
  });
  return { url, pool, workers };
}
