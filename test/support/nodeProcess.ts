/**
 * Real `missionweave` processes for crash tests: the built CLI, pointed at a test database
 * through DATABASE_URL, with helpers to run a command and to start, and SIGKILL, `serve`.
 */

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const CLI = join(process.cwd(), 'dist', 'cli', 'main.js');

export function cli(databaseUrl: string, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: databaseUrl }, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * `cli`'s command through the CLI's dispatch (`runCli`) in this process, on the same database: a
 * test's setup (init, agent add, human add…) without a node start and module load per command.
 * The CLI is loaded on the first call, not with this module.
 */
export async function cliInProcess(databaseUrl: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { runCli } = await import('../../src/cli/runCli.js');
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text), env: { DATABASE_URL: databaseUrl } });
  return { code, stdout, stderr };
}

export function lastJson(text: string): Record<string, unknown> {
  return JSON.parse(text.trim().split('\n').at(-1) as string) as Record<string, unknown>;
}

export interface ServeProcess {
  readonly child: ChildProcess;
  /** The ready line's `url`: the WebSocket endpoint a client connects to. */
  readonly url: string;
  /** The ready line's `https`: the origin of the HTTPS endpoints. */
  readonly https: string;
  /** The whole ready line. */
  readonly ready: Readonly<Record<string, unknown>>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `missionweave serve` (on `port`, any free one by default, with `extra` arguments) and resolves once it prints its ready line. */
export function serve(databaseUrl: string, dir: string, port = 0, extra: readonly string[] = []): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--dir', dir, '--port', String(port), ...extra], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Read, so a node that logs much never blocks on a full pipe; the tail explains a failed start.
  let logged = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    logged = (logged + chunk.toString('utf8')).slice(-4_096);
  });
  return new Promise((resolve, reject) => {
    // A cold start is ~2 s, but a loaded 2-core machine has taken over 30 s, and `--processes 2`
    // (its processes start one after the other) over 90 s at load average 23 (Dec 5).
    const timer = setTimeout(() => reject(new Error(`serve did not become ready: ${logged}`)), 180_000);
    child.once('exit', (code) => reject(new Error(`serve exited with ${String(code)}: ${logged}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const ready = JSON.parse(line) as { url?: string; https?: string } & Record<string, unknown>;
      if (ready.url === undefined) return;
      clearTimeout(timer);
      resolve({
        child,
        url: ready.url,
        https: ready.https ?? '',
        ready,
        kill: async (signal = 'SIGKILL') => {
          child.kill(signal);
          await exited;
        },
      });
    });
  });
}
