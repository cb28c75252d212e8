/**
 * The fault suite on a Citus cluster (`--database citus`, issue 32): a database of its own on
 * every node of the cluster whose coordinator MW_CITUS_URL names, which worker holds each Group's
 * Mission tree and each actor's receipts, and a worker stopped (pg_ctl, immediate: as a crash)
 * and started again by `scripts/citus.sh` — which finds the nodes' data directories by the same
 * MW_CITUS_DIR and MW_CITUS_PORT that started the cluster. Worker N listens on the coordinator's
 * port + N (the layout `scripts/citus.sh start` makes).
 */

import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import type { History } from './history.js';
import type { Violation } from './checker.js';

/** This module lies two folders below the repository, as tools/faults or dist-tools/faults. */
const CITUS_SH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'citus.sh');
const run = promisify(execFile);

/** A span during which one worker was stopped. */
export interface WorkerDowntime {
  readonly port: number;
  readonly from: number;
  readonly to: number;
}

/** Where the run's rows lie: the worker port of each Group's tree shard and of each actor's receipts shard. */
export interface Placements {
  readonly groups: ReadonlyMap<string, number>;
  readonly actors: ReadonlyMap<string, number>;
}

/** Every Group's (the suite's database holds only the run's) and each of `actorIds`'. */
export async function readPlacements(url: string, actorIds: readonly string[]): Promise<Placements> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const placed = (sql: string, values: unknown[]) => client.query<{ key: string; port: number }>(sql, values).then((r) => new Map(r.rows.map((row) => [row.key, Number(row.port)])));
    const groups = await placed(
      `select g.group_id as key, n.nodeport as port from groups g
         join pg_dist_placement p on p.shardid = get_shard_id_for_distribution_column('groups', g.tree_id)
         join pg_dist_node n on n.groupid = p.groupid`, []);
    const actors = await placed(
      `select a as key, n.nodeport as port from unnest($1::text[]) a
         join pg_dist_placement p on p.shardid = get_shard_id_for_distribution_column('receipts', a)
         join pg_dist_node n on n.groupid = p.groupid`, [actorIds]);
    return { groups, actors };
  } finally {
    await client.end();
  }
}

/** The worker that holds the most of `groupIds`' trees: stopping it hits the run hardest. */
export function busiestWorker(placements: Placements, groupIds: readonly string[]): number {
  const trees = new Map<number, number>();
  for (const id of groupIds) {
    const port = placements.groups.get(id);
    if (port !== undefined) trees.set(port, (trees.get(port) ?? 0) + 1);
  }
  const [busiest] = [...trees].sort((a, b) => b[1] - a[1]);
  if (busiest === undefined) throw new Error('no Group of the run lies on a worker');
  return busiest[0];
}

/** Stops the worker on `port` as a crash would (`scripts/citus.sh stop-worker`, pg_ctl -m immediate). */
export async function stopWorker(coordinatorUrl: string, port: number): Promise<void> {
  await run(CITUS_SH, ['stop-worker', String(workerNumber(coordinatorUrl, port)), 'immediate']);
}

export async function startWorker(coordinatorUrl: string, port: number): Promise<void> {
  await run(CITUS_SH, ['start-worker', String(workerNumber(coordinatorUrl, port))]);
}

function workerNumber(coordinatorUrl: string, port: number): number {
  const n = port - Number(new URL(coordinatorUrl).port || 5432);
  if (n < 1) throw new Error(`port ${port} is not a worker of the cluster at ${coordinatorUrl}`);
  return n;
}

/**
 * Nothing invoked and acknowledged while a worker was down can have needed that worker: its
 * Group's tree and its actor's receipts lie elsewhere. Also counts what was acknowledged then
 * (the other worker's trees kept working).
 */
export function checkWorkerDowntimes(history: History, downtimes: readonly WorkerDowntime[], placements: Placements, slackMs = 50): { violations: Violation[]; servedWhileDown: number } {
  const violations: Violation[] = [];
  let servedWhileDown = 0;
  const invoked = new Map(history.operations.map((op) => [op.id, op]));
  for (const c of history.completions) {
    const op = invoked.get(c.op);
    if (c.answer.type !== 'event' || op === undefined) continue;
    for (const down of downtimes) {
      if (!(op.invokedAt > down.from + slackMs && c.at < down.to)) continue;
      servedWhileDown++;
      const needed = [placements.groups.get(op.groupId), placements.actors.get(op.actorId)];
      if (needed.includes(down.port)) violations.push({ rule: 'acknowledged-while-its-worker-was-down', detail: `${op.actionId} (${op.kind} in ${op.groupId}) was acknowledged while worker ${down.port}, which holds its rows, was down` });
    }
  }
  return { violations, servedWhileDown };
}
