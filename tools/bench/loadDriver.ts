/**
 * Spawning load processes and a `serve` node for the benchmark, and talking to them over
 * their stdin/stdout lines.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SERVE_NODE_FLAGS } from '#src/cli/heapTuning.js';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The built CLI: this module lies two folders below the repository, as tools/bench or dist-tools/bench. */
const CLI = join(HERE, '..', '..', 'dist', 'cli', 'main.js');

/** Every child still running; none outlives the benchmark, even when it fails. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGTERM'); // a serve node stops its embedded PostgreSQL
});

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export interface LoadProcess {
  readonly child: ChildProcess;
  /** Resolves with the `{"ready":…}` line. */
  readonly ready: Promise<unknown>;
  /** Resolves with the `{"result":…}` line. */
  readonly result: Promise<Record<string, unknown>>;
  go(): void;
  kill(): void;
}

/** Longest job passed inline: Linux caps one argument at 128 KiB (MAX_ARG_STRLEN). */
const INLINE_JOB_CHARS = 100_000;

export function startLoad(job: Record<string, unknown>): LoadProcess {
  let argument = JSON.stringify(job);
  if (argument.length > INLINE_JOB_CHARS) {
    const file = join(mkdtempSync(join(tmpdir(), 'mw-load-')), 'job.json');
    writeFileSync(file, argument);
    argument = `@${file}`;
  }
  const child = track(spawn(process.execPath, [join(HERE, 'loadClient.js'), argument], { stdio: ['pipe', 'pipe', 'inherit'] }));
  let onReady: (value: unknown) => void = () => undefined;
  let onResult: (value: Record<string, unknown>) => void = () => undefined;
  let onFailure: (error: Error) => void = () => undefined;
  const ready = new Promise<unknown>((resolve, reject) => {
    onReady = resolve;
    onFailure = reject;
  });
  const result = new Promise<Record<string, unknown>>((resolve, reject) => {
    onResult = resolve;
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`load process exited with ${String(code)}`))));
  });
  child.once('exit', (code) => onFailure(new Error(`load process exited with ${String(code)} before ready`)));
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    const message = JSON.parse(line) as { ready?: unknown; result?: Record<string, unknown> };
    if (message.ready !== undefined) onReady(message.ready);
    if (message.result !== undefined) onResult(message.result);
  });
  // A process killed on purpose (idle sessions) rejects `result` with no one waiting.
  result.catch(() => undefined);
  return { child, ready, result, go: () => child.stdin?.write('go\n'), kill: () => child.kill('SIGKILL') };
}

export interface ServeNode {
  readonly child: ChildProcess;
  readonly url: string;
  readonly readyMs: number;
  stop(): Promise<void>;
}

function readyLine(line: string): { url?: string } | undefined {
  try {
    return JSON.parse(line) as { url?: string };
  } catch {
    return undefined;
  }
}

/** Starts `missionweave serve` and resolves when it prints its ready line. */
export function startServe(dir: string, env: NodeJS.ProcessEnv, extraArgs: readonly string[] = []): Promise<ServeNode> {
  const started = performance.now();
  // The flags `npm start` runs serve with, then MW_BENCH_SERVE_NODE_ARGS (e.g. --cpu-prof; a repeated V8 flag: the last wins).
  const nodeArgs = [...SERVE_NODE_FLAGS, ...(process.env['MW_BENCH_SERVE_NODE_ARGS'] ?? '').split(' ').filter((a) => a !== '')];
  // e.g. `--processes 2`; the server's CPU figures sum its whole process tree (cpuCost.ts treeTicks).
  const serveArgs = [...(process.env['MW_BENCH_SERVE_ARGS'] ?? '').split(' ').filter((a) => a !== ''), ...extraArgs];
  const child = track(spawn(process.execPath, [...nodeArgs, CLI, 'serve', '--dir', dir, '--port', '0', ...serveArgs], { env, stdio: ['ignore', 'pipe', 'inherit'] }));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited with ${String(code)}`)));
    // Lines other than the ready line (say `--trace-gc` in MW_BENCH_SERVE_NODE_ARGS) go to the
    // file MW_BENCH_SERVE_STDOUT names, or nowhere.
    const other = process.env['MW_BENCH_SERVE_STDOUT'];
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const ready = readyLine(line);
      if (ready?.url === undefined) {
        if (other !== undefined) appendFileSync(other, `${line}\n`);
        return;
      }
      resolve({
        child,
        url: ready.url,
        readyMs: performance.now() - started,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}

/**
 * Resident memory of `rootPid` and every process under it (a `serve --processes N` node's
 * primary and its N processes), in bytes, and how many processes that is. Pages shared between
 * processes (Node's own code) count once per process, as each process's RSS shows them.
 */
export async function treeResidentBytes(rootPid: number): Promise<{ bytes: number; processes: number }> {
  const { readProcStats } = await import('./cpuCost.js');
  const stats = await readProcStats();
  const tree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of stats) {
      if (!tree.has(s.ppid) || tree.has(s.pid)) continue;
      tree.add(s.pid);
      grew = true;
    }
  }
  let bytes = 0;
  for (const pid of tree) bytes += await residentBytes(pid).catch(() => 0);
  return { bytes, processes: tree.size };
}

/** The server process's resident memory, in bytes. */
export async function residentBytes(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}

/** CPU seconds used so far by every process on the machine, by role (Linux /proc). */
export async function cpuByRole(): Promise<Map<string, number>> {
  const { readdir, readFile } = await import('node:fs/promises');
  const ticks = 100; // USER_HZ
  const roles = new Map<string, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const [stat, cmdline] = await Promise.all([readFile(`/proc/${entry}/stat`, 'utf8'), readFile(`/proc/${entry}/cmdline`, 'utf8')]);
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / ticks;
      const role = cmdline.includes('postgres') ? 'postgres' : cmdline.includes(' serve') || cmdline.includes('\0serve') ? 'server' : cmdline.includes('loadClient') ? 'load' : cmdline.includes('bench.js') ? 'bench' : 'other';
      roles.set(role, (roles.get(role) ?? 0) + seconds);
    } catch {
      // the process ended meanwhile
    }
  }
  return roles;
}

/** The CPU each role used between two `cpuByRole` readings, as one line. */
export function cpuLine(before: Map<string, number>, after: Map<string, number>): string {
  return [...after].filter(([role]) => role !== 'other').map(([role, s]) => `${role} ${(s - (before.get(role) ?? 0)).toFixed(1)} s`).join(', ');
}
