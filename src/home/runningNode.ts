/**
 * Where the node serving a home listens, so that `mcp`, `disput`, the SDK's examples and the
 * operator find it instead of guessing from the configuration (`serve --port 0` picks any port).
 * `serve` writes `node.json` in the home once ready and removes it on a clean stop; a record whose
 * process is gone (the node was killed) is ignored, and the next `serve` replaces it.
 *
 *   { "pid": 4242, "url": "wss://127.0.0.1:39127/v1/ws", "https": "https://127.0.0.1:39127", "startedAt": "…" }
 */

import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Home } from './home.js';

/** What these functions need of a home: its folder (the CLI's fast path passes no more, operatorForward.ts). */
type HomeFolder = Pick<Home, 'directory' | 'path'>;
import { UnavailableError } from './usageError.js';

export const RUNNING_NODE_FILE = 'node.json';

export interface RunningNode {
  readonly pid: number;
  /** The WebSocket endpoint (`wss://host:port/v1/ws`). */
  readonly url: string;
  /** The origin of the HTTPS endpoints (`https://host:port`). */
  readonly https: string;
  readonly startedAt: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user holds that pid, so it is running.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Records that this process serves `home` at `url` and `https`. */
export function recordRunningNode(home: Home, node: Omit<RunningNode, 'pid' | 'startedAt'>): void {
  const record: RunningNode = { pid: process.pid, url: node.url, https: node.https, startedAt: new Date().toISOString() };
  const file = home.path(RUNNING_NODE_FILE);
  // Written whole then renamed, so that a reader never sees half a record.
  writeFileSync(`${file}.${process.pid}`, `${JSON.stringify(record)}\n`);
  renameSync(`${file}.${process.pid}`, file);
}

/** Removes the record if it is this process's (a later node's record stays). */
export function forgetRunningNode(home: Home): void {
  if (readRecord(home)?.pid === process.pid) rmSync(home.path(RUNNING_NODE_FILE), { force: true });
}

function readRecord(home: HomeFolder): RunningNode | undefined {
  let text: string;
  try {
    text = readFileSync(home.path(RUNNING_NODE_FILE), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const record = JSON.parse(text) as Partial<RunningNode>;
    if (typeof record.pid !== 'number' || typeof record.url !== 'string' || typeof record.https !== 'string') return undefined;
    return { pid: record.pid, url: record.url, https: record.https, startedAt: String(record.startedAt ?? '') };
  } catch {
    return undefined;
  }
}

/** The node serving `home` now, if one does. */
export function runningNode(home: HomeFolder): RunningNode | undefined {
  const record = readRecord(home);
  return record !== undefined && alive(record.pid) ? record : undefined;
}

/** The node serving `home`; a clear refusal when none does. */
export function requireRunningNode(home: HomeFolder): RunningNode {
  const node = runningNode(home);
  if (node === undefined) throw new UnavailableError(`no node is running for ${home.directory}; start one with: missionweave serve --dir ${home.directory} (or give --url)`);
  return node;
}
