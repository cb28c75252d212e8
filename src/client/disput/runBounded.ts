/**
 * Runs one program with an argv array (never through a shell of ours), a wall-clock timeout and a
 * bounded tail of its output. The whole process group is killed on timeout, so a check that forks
 * (`sh -c 'npm test'`) does not leave its children running after the tool has moved on.
 */

import { spawn } from 'node:child_process';
import { CHECK_KILL_GRACE_MS } from './disputToolLimits.js';

export interface BoundedRun {
  /** The exit code; null when killed by a signal (a timeout included). */
  readonly code: number | null;
  readonly timedOut: boolean;
  /** The last `tailBytes` of each stream, and whether earlier bytes were dropped. */
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
}

export interface RunOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly tailBytes: number;
}

/** Keeps the last `limit` bytes written to it. */
class Tail {
  private chunks: Buffer[] = [];
  private size = 0;
  dropped = false;
  constructor(private readonly limit: number) {}
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.limit && this.chunks.length > 0) {
      const first = this.chunks[0] as Buffer;
      const excess = this.size - this.limit;
      this.dropped = true;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

export function runBounded(file: string, args: readonly string[], options: RunOptions): Promise<BoundedRun> {
  return new Promise((resolve, reject) => {
    // detached: the child leads its own process group, which the timeout kills whole.
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out = new Tail(options.tailBytes);
    const err = new Tail(options.tailBytes);
    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), CHECK_KILL_GRACE_MS);
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (killTimer !== undefined) clearTimeout(killTimer);
      // A check's grandchildren may still hold the group after sh exits: end them too.
      if (timedOut) killGroup('SIGKILL');
      resolve({ code: timedOut ? null : code, timedOut, stdout: out.text(), stderr: err.text(), truncated: out.dropped || err.dropped });
    });
  });
}
