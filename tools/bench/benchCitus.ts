/**
 * The bench on a Citus cluster (`npm run bench -- --database citus`, issue 32): a database of
 * its own on every node of the cluster whose coordinator MW_CITUS_URL names (an admin
 * connection; `scripts/citus.sh start` prints it), the postmasters of every node (to sum their
 * CPU), and Citus's own count of the statements it ran on one shard or on several.
 *
 * The count is `citus_stat_counters` (Citus 13.1+, on with `citus.enable_stat_counters`): every
 * execution of a plan over distributed or reference tables on the coordinator adds one to
 * `query_execution_single_shard` (one task: a router plan) or `query_execution_multi_shard`.
 * Statements on the coordinator's local tables (`policy_log`, `schema_migrations`) are in
 * neither.
 */

import { randomBytes } from 'node:crypto';
import { onNode, withDatabase } from '#src/store/adminConnection.js';
import { postmasterPid } from './cpuCost.js';

/** Statements Citus ran since the counters were last read: on one shard, on several. */
export interface ShardCounts {
  readonly single: number;
  readonly multi: number;
}

export interface CitusBenchDatabase {
  /** The coordinator's URL for the bench's database. */
  readonly url: string;
  /** The coordinator's postmaster and each worker's, on this machine. */
  readonly postmasterPids: readonly number[];
  /** Citus's statement counters of the bench's database on the coordinator, cumulative. */
  counts(): Promise<ShardCounts>;
  drop(): Promise<void>;
}

/**
 * Creates the bench's database (`prefix`_random; the fault suite's too) on every node, with the extension, the workers registered, the
 * counters on, and `synchronous_commit` on as on the embedded PostgreSQL (a session setting; the
 * cluster's own `fsync` is whatever its nodes were started with, reported by the bench).
 */
export async function openCitusBenchDatabase(adminUrl: string, prefix = 'mw_bench'): Promise<CitusBenchDatabase> {
  const [citus] = await onNode<{ yes: boolean }>(adminUrl, ["select exists (select 1 from pg_extension where extname = 'citus') as yes"]);
  if (citus?.yes !== true) throw new Error(`${adminUrl} is not a Citus coordinator (no citus extension in its database)`);
  const nodes = await onNode<{ nodename: string; nodeport: number }>(adminUrl, ["select nodename, nodeport from pg_dist_node where groupid > 0 and noderole = 'primary' order by nodeid"]);
  if (nodes.length === 0) throw new Error(`the coordinator ${adminUrl} has no workers`);
  const workers = nodes.map((n) => withDatabase(adminUrl, 'postgres', n.nodename, n.nodeport));
  const postmasterPids: number[] = [];
  for (const node of [adminUrl, ...workers]) {
    const [row] = await onNode<{ data_directory: string }>(node, ['show data_directory']);
    postmasterPids.push(postmasterPid(row?.data_directory ?? ''));
  }
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const settings = [`alter database ${name} set synchronous_commit to on`];
  for (const worker of workers) {
    await onNode(worker, [`create database ${name}`, ...settings]);
    await onNode(withDatabase(worker, name), ['create extension citus']);
  }
  // `migrate` sets multi_shard_modify_mode for connections opened after it; the process that
  // migrates a fresh database keeps the ones it opened before, so the bench (as the test harness)
  // sets it when it creates the database.
  await onNode(adminUrl, [
    `create database ${name}`, ...settings, `alter database ${name} set citus.enable_stat_counters to on`,
    `alter database ${name} set citus.multi_shard_modify_mode to sequential`,
  ]);
  const coordinator = new URL(adminUrl);
  const url = withDatabase(adminUrl, name);
  await onNode(url, [
    'create extension citus',
    `select citus_set_coordinator_host('${coordinator.hostname}', ${Number(coordinator.port || 5432)})`,
    ...nodes.map((n) => `select citus_add_node('${n.nodename}', ${n.nodeport})`),
  ]);
  return {
    url,
    postmasterPids,
    async counts() {
      const [row] = await onNode<{ single: string; multi: string }>(url, ['select query_execution_single_shard as single, query_execution_multi_shard as multi from citus_stat_counters where name = current_database()']);
      return { single: Number(row?.single ?? 0), multi: Number(row?.multi ?? 0) };
    },
    async drop() {
      for (const node of [adminUrl, ...workers]) await onNode(node, [`drop database if exists ${name} with (force)`]);
    },
  };
}

/** The cluster's `fsync` and `synchronous_commit` as its nodes run them, for the report. */
export async function clusterDurability(url: string): Promise<string> {
  const [fsync, commit] = await onNode<{ fsync?: string; synchronous_commit?: string }>(url, ['show fsync', 'show synchronous_commit']);
  return `fsync ${fsync?.fsync ?? '?'}, synchronous_commit ${commit?.synchronous_commit ?? '?'}`;
}
