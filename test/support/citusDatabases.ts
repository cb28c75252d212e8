/**
 * Databases on a Citus cluster, for the test harness: a database exists on every node (the
 * coordinator reaches each worker's shards in the worker's database of the same name), so it is
 * created, cloned from a template and dropped on every node, workers first.
 *
 * A template clones on every node as on one: each node copies its own part (the coordinator its
 * metadata, each worker its shards, under the same shard IDs). PostgreSQL clones only a database
 * nobody is connected to, and Citus keeps a maintenance daemon and cached connections on it, so
 * those are ended first (they come back on their own).
 */

import { onNode, withDatabase } from '../../src/store/adminConnection.js';



/** The workers' admin URLs (their `postgres` database) when `adminUrl` is a Citus coordinator; undefined otherwise. */
export async function citusWorkers(adminUrl: string): Promise<string[] | undefined> {
  const [citus] = await onNode<{ yes: boolean }>(adminUrl, ["select exists (select 1 from pg_extension where extname = 'citus') as yes"]);
  if (citus?.yes !== true) return undefined;
  const nodes = await onNode<{ nodename: string; nodeport: number }>(adminUrl, ["select nodename, nodeport from pg_dist_node where groupid > 0 and noderole = 'primary' order by nodeid"]);
  return nodes.map((n) => withDatabase(adminUrl, 'postgres', n.nodename, n.nodeport));
}

/**
 * Creates `name` on every node with the extension, registers the workers in it, and makes its
 * distributed tables `shards` shards each (tests hold little data; fewer shards migrate faster).
 */
export async function createOnCluster(adminUrl: string, workers: readonly string[], name: string, shards = 4): Promise<string> {
  for (const worker of workers) {
    await onNode(worker, [`create database ${name}`]);
    await onNode(withDatabase(worker, name), ['create extension citus']);
  }
  await onNode(adminUrl, [`create database ${name}`]);
  const coordinator = new URL(adminUrl);
  const url = withDatabase(adminUrl, name);
  await onNode(url, [
    'create extension citus',
    `alter database ${name} set citus.multi_shard_modify_mode to sequential`,
    `alter database ${name} set citus.shard_count to ${shards}`,
    `select citus_set_coordinator_host('${coordinator.hostname}', ${Number(coordinator.port || 5432)})`,
  ]);
  for (const worker of workers.map((w) => new URL(w))) {
    await retryingRoleRace(() => onNode(url, [`select citus_add_node('${worker.hostname}', ${Number(worker.port)})`]));
  }
  return url;
}

/**
 * `citus_add_node` creates or alters the connecting role on the worker (`worker_create_or_alter_role`),
 * a row of the cluster-wide `pg_authid`: two test files adding the same worker to their own
 * databases at once make one fail with "tuple concurrently updated" (CI at 02:54 UTC on Dec 5).
 * Nothing was added then, so it is tried again.
 */
async function retryingRoleRace(step: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await step();
      return;
    } catch (error) {
      const message = String((error as Error).message);
      if (attempt >= 10 || !/tuple concurrently updated|marked as essential/.test(message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
    }
  }
}

/** Clones `template` as `name` on every node. */
export async function cloneOnCluster(adminUrl: string, workers: readonly string[], template: string, name: string): Promise<void> {
  for (const node of [...workers, adminUrl]) {
    for (let attempt = 1; ; attempt++) {
      try {
        await onNode(node, [
          `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${template}' and pid <> pg_backend_pid()`,
          `create database ${name} template ${template}`,
        ]);
        break;
      } catch (error) {
        // A maintenance daemon that came back between the two statements: end it again.
        if (attempt >= 20 || (error as { code?: string }).code !== '55006') throw error;
      }
    }
  }
  // A database's settings are not cloned with it (`distributeTables` sets this one in production).
  await onNode(adminUrl, [`alter database ${name} set citus.multi_shard_modify_mode to sequential`]);
}

/** Drops `name` on every node, the coordinator first. */
export async function dropOnCluster(adminUrl: string, workers: readonly string[], name: string): Promise<void> {
  for (const node of [adminUrl, ...workers]) await onNode(node, [`drop database if exists ${name} with (force)`]);
}
