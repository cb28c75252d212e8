/**
 * `missionweave serve --processes N` (or `MW_SERVE_PROCESSES=N`): one node of N processes behind
 * one listener, for a machine where one main thread is the bound (issue 16 part 4). The primary
 * (node:cluster) accepts each connection and hands it to a process round-robin; every process is
 * a full Group Authority on the same PostgreSQL, as several nodes already are (Groups are
 * serialized by their row locks, NOTIFY wakes the others, HELLO fences older Session Epochs on
 * every node). What must be one per node is the primary's (clusterTables.ts, clusterLink.ts):
 * Agent session tokens for HTTPS, human sessions, the whole node's metrics.
 *
 * The primary starts the embedded PostgreSQL (the processes join it), starts one process first
 * (it applies migrations and registers the folder's context generator and profiles once), then
 * the others; prints the ready line once, when all are ready; restarts a process that dies (a
 * handful of times a minute at most, then it stops the node: something is wrong that a restart
 * will not cure); and on SIGTERM or SIGINT stops every process and waits for them to drain.
 */

import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pino from 'pino';
import { DEFAULT_VERIFICATION_LIMITS, shareOfVerificationLimits, type VerificationLimits } from '../app/verificationLimits.js';
import { cryptoWorkersPerProcess } from '../app/workers/workerLimits.js';
import { openDatabase } from '../server.js';
import { DEFAULT_LIMITS } from '../transport/limits.js';
import type { ToPrimary } from '../transport/clusterLink.js';
import { UsageError } from './args.js';
import { ClusterTables } from './clusterTables.js';
import type { Home } from '../home/home.js';
import { forgetRunningNode, recordRunningNode } from '../home/runningNode.js';

/** The most processes one node runs: a core each on the largest machines we size for. */
const MAX_PROCESSES = 64;
/** Restarts of crashed processes allowed in `RESTART_WINDOW_MS` before the node stops itself. */
const MAX_RESTARTS_PER_WINDOW = 5;
const RESTART_WINDOW_MS = 60_000;
/** A process that has not exited this long after SIGTERM is killed (it drains its sockets first). */
const DRAIN_TIMEOUT_MS = 30_000;
/**
 * Database connections the node's processes may hold together, each pool plus its LISTEN
 * connection: PostgreSQL's default `max_connections` (100) less a few for an operator's
 * commands and a second node's start; the embedded one allows 200 (embeddedPostgres.ts).
 */
const NODE_CONNECTIONS = 96;

/** Database connections a process pools: 16, as one process does, or its share of `NODE_CONNECTIONS`. */
export function poolSizeOf(processes: number): number {
  return Math.min(16, Math.max(1, Math.floor(NODE_CONNECTIONS / processes) - 1));
}

/** `--processes`, else `MW_SERVE_PROCESSES`, else 1. */
export function processCount(option: string | undefined): number {
  const text = option ?? process.env['MW_SERVE_PROCESSES'];
  if (text === undefined || text === '') return 1;
  if (!/^\d{1,2}$/.test(text) || Number(text) < 1 || Number(text) > MAX_PROCESSES) throw new UsageError(`--processes must be 1–${MAX_PROCESSES}`);
  return Number(text);
}

/** What a process of the node learns from the primary at its start (its environment). */
export interface ClusterWorkerSetup {
  readonly processes: number;
  readonly humanSecret: Buffer;
  readonly poolSize: number;
  /** This process's share of the node's per-address verification limits. */
  readonly settings: { readonly verificationLimits: VerificationLimits };
}

let workerSetup: ClusterWorkerSetup | undefined;

/** This process's setup when it is one of a node's processes; undefined otherwise. */
export function clusterWorkerSetup(): ClusterWorkerSetup | undefined {
  workerSetup ??= readWorkerSetup();
  return workerSetup;
}

function readWorkerSetup(): ClusterWorkerSetup | undefined {
  if (!cluster.isWorker || process.env['MW_CLUSTER_WORKER'] !== '1') return undefined;
  const processes = Number(process.env['MW_CLUSTER_PROCESSES']);
  const humanSecret = Buffer.from(process.env['MW_CLUSTER_SECRET'] ?? '', 'hex');
  if (!Number.isSafeInteger(processes) || humanSecret.length !== 32) throw new Error('a cluster process started without its setup');
  // Not left where a child of this process (git, a shell) would inherit it.
  delete process.env['MW_CLUSTER_SECRET'];
  return { processes, humanSecret, poolSize: poolSizeOf(processes), settings: { verificationLimits: shareOfVerificationLimits(DEFAULT_VERIFICATION_LIMITS, processes) } };
}

function isToPrimary(message: unknown): message is ToPrimary {
  return typeof message === 'object' && message !== null && typeof (message as { mw?: unknown }).mw === 'string';
}

/** Runs the primary of an N-process node until SIGTERM or SIGINT; resolves with the exit code. */
export async function servePrimary(home: Home, processes: number): Promise<number> {
  const logger = pino({ level: process.env['MW_LOG_LEVEL'] ?? 'warn' }, pino.destination(2));
  // Started here, joined by every process, stopped here last (a joined one's stop does nothing).
  const database = await openDatabase(home, logger);
  const ready = new Set<number>();
  const workers = (): Worker[] => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  const tables = new ClusterTables(DEFAULT_LIMITS, {
    workers,
    serving: () => workers().filter((w) => ready.has(w.id)),
    nowMillis: () => Date.now(),
  });
  cluster.schedulingPolicy = cluster.SCHED_RR;
  cluster.setupPrimary({ silent: false });
  const env = {
    MW_CLUSTER_WORKER: '1',
    MW_CLUSTER_PROCESSES: String(processes),
    MW_CLUSTER_SECRET: randomBytes(32).toString('hex'),
    MW_CRYPTO_WORKERS: String(cryptoWorkersPerProcess(availableParallelism(), processes, process.env['MW_CRYPTO_WORKERS'])),
  };
  let readyLine: Extract<ToPrimary, { mw: 'ready' }> | undefined;
  let stopping = false;
  let restarts: number[] = [];
  let settle: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (settle = resolve));
  const waiters: (() => void)[] = [];

  cluster.on('message', (worker, message: unknown) => {
    if (!isToPrimary(message)) return;
    tables.receive(worker, message);
    if (message.mw !== 'ready') return;
    ready.add(worker.id);
    readyLine ??= message;
    waiters.splice(0).forEach((wake) => wake());
  });
  const stop = (code: number): void => {
    if (stopping) return;
    stopping = true;
    void (async () => {
      await Promise.all(workers().map((worker) => new Promise<void>((resolve) => {
        if (worker.isDead()) return resolve();
        const kill = setTimeout(() => worker.process.kill('SIGKILL'), DRAIN_TIMEOUT_MS);
        worker.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        worker.process.kill('SIGTERM');
      })));
      forgetRunningNode(home);
      await database.stop();
      settle(code);
    })();
  };
  cluster.on('exit', (worker, code, signal) => {
    tables.workerGone(worker);
    ready.delete(worker.id);
    if (stopping) return;
    logger.error({ process: worker.process.pid, code, signal }, 'a serving process exited');
    const now = Date.now();
    restarts = [...restarts.filter((at) => at > now - RESTART_WINDOW_MS), now];
    if (readyLine === undefined || restarts.length > MAX_RESTARTS_PER_WINDOW) {
      process.stderr.write(`${readyLine === undefined ? 'a process failed to start' : 'processes keep failing'}; stopping the node\n`);
      stop(1);
    } else cluster.fork(env);
  });
  process.once('SIGINT', () => stop(0));
  process.once('SIGTERM', () => stop(0));
  // Every process serves TLS itself: each reloads its certificate (each also watches the files).
  process.on('SIGHUP', () => workers().forEach((worker) => worker.process.kill('SIGHUP')));

  const allReady = (count: number): Promise<void> => new Promise((resolve) => {
    const check = (): void => (ready.size >= count || stopping ? resolve() : void waiters.push(check));
    check();
  });
  // The first process alone applies migrations and registers the folder's generator and profiles.
  cluster.fork(env);
  await allReady(1);
  for (let i = 1; i < processes && !stopping; i++) cluster.fork(env);
  await allReady(processes);
  if (!stopping && readyLine !== undefined) {
    const config = home.config();
    recordRunningNode(home, { url: readyLine.url, https: readyLine.https });
    process.stdout.write(`${JSON.stringify({ status: 'ready', url: readyLine.url, https: readyLine.https, organizationId: config.organizationId, pid: process.pid, processes, heapGrowingPercent: readyLine.heapGrowingPercent, ...readyLine.where })}\n`);
  }
  return finished;
}
