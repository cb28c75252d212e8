/**
 * Where a node's data lives, and removing a home with it (issue 33, item 9): the ready line of
 * `serve` names the embedded PostgreSQL data folder (`data`; as root, outside the home, under
 * /var/lib/missionweave) or the configured database without its password (`database`);
 * `missionweave destroy --dir D` removes the home and that data folder, stopping a PostgreSQL a
 * killed node left running on it, and refuses a folder that is not a home (66), a home a node
 * serves now (69) and a command line without `--dir` (2). Real binaries, real PostgreSQL.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { removeEmbeddedData } from '../src/store/embeddedPostgres.js';
import { createTestDatabase } from './support/database.js';
import { cli, serve } from './support/nodeProcess.js';
import { runBinary } from './support/operatorCli.js';

const BINARY = join(process.cwd(), 'dist', 'cli', 'main.js');
const scratch = mkdtempSync(join(tmpdir(), 'mw-destroy-'));
const home = join(scratch, 'home');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  // Whatever a failed test left: the data folder (outside the scratch folder as root), then the rest.
  if (existsSync(join(home, 'db'))) removeEmbeddedData(join(home, 'db'));
  rmSync(scratch, { recursive: true, force: true });
});

/** `serve` on the home's embedded PostgreSQL (no DATABASE_URL), any port; its ready line. */
function serveEmbedded(dir: string): Promise<{ child: ChildProcess; ready: Record<string, unknown> }> {
  const env = { ...process.env };
  delete env['DATABASE_URL'];
  const child = spawn(process.execPath, [BINARY, 'serve', '--dir', dir, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited with ${String(code)}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const ready = JSON.parse(line) as Record<string, unknown>;
      if (ready['status'] === 'ready') resolve({ child, ready });
    });
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Whether `pid` runs (a zombie left for its parent to reap does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${String(pid)}/stat`, 'utf8'));
}

describe('the ready line says where the data lives', () => {
  it('names the configured database without its password', async () => {
    const db = await createTestDatabase();
    const url = new URL(db.url);
    // The tests' Citus cluster trusts loopback and its URL holds no password: one is added, which
    // the server ignores, so that there is one to hide.
    if (url.password === '') url.password = 'unused-password';
    const databaseUrl = url.toString();
    const dir = join(scratch, 'configured');
    expect(cli(databaseUrl, 'init', '--dir', dir).code).toBe(0);
    const node = await serve(databaseUrl, dir);
    try {
      expect(url.password).not.toBe('');
      expect(node.ready['database']).toBe(`${url.protocol}//${url.username}@${url.host}${url.pathname}`);
      expect(JSON.stringify(node.ready)).not.toContain(url.password);
      expect(node.ready['data']).toBeUndefined();
    } finally {
      await node.kill('SIGTERM');
    }
    // destroy removes the home only: the configured database is not the home's, and it says so.
    const destroyed = cli(databaseUrl, 'destroy', '--dir', dir);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(destroyed.stdout).toBe(`removed ${dir}\n`);
    expect(destroyed.stderr).toMatch(/^the configured database postgres(ql)?:\/\/.+ was not removed: it is not the home's own\n$/);
    expect(existsSync(dir)).toBe(false);
  }, 120_000);
});

describe('missionweave destroy', () => {
  it('refuses a command line without --dir (2), and --help prints its usage (0)', () => {
    const bare = runBinary('destroy');
    expect(bare).toMatchObject({ code: 2, stderr: 'usage: missionweave destroy --dir DIR\n' });
    const help = runBinary('destroy', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: missionweave destroy --dir DIR\s+remove a home and its embedded PostgreSQL data/);
  });

  it('refuses a folder that is not a home (66) and leaves it as it was', () => {
    const folder = join(scratch, 'not-a-home');
    mkdirSync(folder);
    writeFileSync(join(folder, 'precious.txt'), 'keep me');
    const answer = runBinary('destroy', '--dir', folder);
    expect(answer.code).toBe(66);
    expect(answer.stderr).toMatch(/is not a missionweave home \(no config\.json\)/);
    expect(answer.stderr).not.toMatch(/^\s+at /m);
    expect(readFileSync(join(folder, 'precious.txt'), 'utf8')).toBe('keep me');
  });

  it('refuses while a node serves the home (69); after the node is killed, removes the home and its data, stopping the PostgreSQL it left', async () => {
    const init = runBinary('init', '--dir', home);
    expect(init.code, init.stderr).toBe(0);
    const { child, ready } = await serveEmbedded(home);
    const data = ready['data'] as string;
    expect(ready['database']).toBeUndefined();
    expect(existsSync(join(data, 'PG_VERSION'))).toBe(true);
    // As root the cluster runs as a service account from a folder of its own, outside the home.
    if (process.getuid?.() === 0) expect(data).toMatch(/^\/var\/lib\/missionweave\/data-[0-9a-f]{32}$/);
    else expect(data).toBe(join(home, 'db', 'pgdata'));

    const refused = runBinary('destroy', '--dir', home);
    expect(refused.code).toBe(69);
    expect(refused.stderr).toBe(`a node (pid ${String(child.pid)}, ${String(ready['https'])}) is running for ${home}; stop it first, then run destroy again\n`);
    expect(existsSync(join(home, 'config.json'))).toBe(true);

    // Killed, the node leaves its PostgreSQL running on the data (the next command would join it).
    await killed(child);
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(alive(postmaster)).toBe(true);

    const destroyed = runBinary('destroy', '--dir', home);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(destroyed.stdout).toBe(`removed ${home} and its embedded PostgreSQL data ${data}\n`);
    expect(alive(postmaster)).toBe(false);
    expect(existsSync(data)).toBe(false);
    expect(existsSync(home)).toBe(false);
  }, 180_000);
});
