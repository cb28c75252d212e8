/**
 * `.disput/run.lock` (seed §2, local): one tool run at a time per repository, so two `check`s
 * never share the temporary worktrees or interleave `last-run.md`. The lock is a file created
 * exclusively (`wx`) holding the owner's pid and host. A lock whose pid no longer runs on this
 * host is stale (a run killed before it released) and is taken over: it is first renamed aside,
 * which only one contender can do, then its pid is read again before it is dropped. A lock from
 * another host is never judged stale: its pid means nothing here.
 */

import { hostname } from 'node:os';
import { join } from 'node:path';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';

export const RUN_LOCK = '.disput/run.lock';

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly startedAt: string;
}

export class RunLockedError extends Error {
  override readonly name = 'RunLockedError';
  readonly reason = 'run_locked';
  constructor(readonly owner: LockOwner | null) {
    super(owner === null ? `${RUN_LOCK} is held` : `${RUN_LOCK} is held by pid ${owner.pid} on ${owner.host} since ${owner.startedAt}`);
  }
}

export interface RunLock {
  release(): Promise<void>;
}

async function readOwner(path: string): Promise<LockOwner | null> {
  try {
    const owner = JSON.parse(await readFile(path, 'utf8')) as Partial<LockOwner>;
    if (typeof owner.pid === 'number' && typeof owner.host === 'string' && typeof owner.startedAt === 'string') return owner as LockOwner;
  } catch {
    // Unreadable or half-written: treated as held, never as stale.
  }
  return null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function stale(owner: LockOwner | null): boolean {
  return owner !== null && owner.host === hostname() && !alive(owner.pid);
}

async function tryCreate(path: string, owner: LockOwner): Promise<boolean> {
  try {
    await writeFile(path, `${JSON.stringify(owner)}\n`, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Takes the repository's run lock, or throws `RunLockedError` naming who holds it. */
export async function acquireRunLock(repo: string): Promise<RunLock> {
  const path = join(repo, RUN_LOCK);
  await mkdir(join(repo, '.disput'), { recursive: true });
  const owner: LockOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  if (!(await tryCreate(path, owner))) {
    const holder = await readOwner(path);
    if (!stale(holder)) throw new RunLockedError(holder);
    const aside = `${path}.stale.${process.pid}`;
    try {
      await rename(path, aside);
    } catch {
      throw new RunLockedError(holder); // another contender took it over first
    }
    const moved = await readOwner(aside);
    if (!stale(moved)) {
      // A live lock was created between our read and the rename: put it back, unless a third run already did.
      await link(aside, path).catch(() => undefined);
      await unlink(aside);
      throw new RunLockedError(moved);
    }
    await unlink(aside);
    if (!(await tryCreate(path, owner))) throw new RunLockedError(await readOwner(path));
  }
  return {
    async release(): Promise<void> {
      const current = await readOwner(path);
      if (current?.pid === owner.pid && current.startedAt === owner.startedAt) await unlink(path);
    },
  };
}
