/**
 * Running the embedded PostgreSQL when we are root. PostgreSQL refuses to run as root, so it
 * runs as a service account — `MW_PG_USER`, else `postgres` when that user exists, else a
 * `missionweave-pg` system user created here — and that account must reach its binaries and
 * its data. Neither may depend on the operator's folders: a clone under a 0700 home (or a
 * 0700 `mktemp -d`) is unreachable to any other user, and changing the permissions of folders
 * the project does not own is not ours to do. So everything the account needs lives under
 * SERVICE_ROOT, a folder this module owns:
 *
 *   /var/lib/missionweave/              root, 0711: the account may pass, not list
 *     postgres-<version>/               root-owned copy of bin/ lib/ share/ (read and execute)
 *     data-<sha256 of the project path> the cluster, owned by the account, 0700
 *
 * The data directory is named after the project folder's real path, so `npm start` finds the
 * same data on every start; `connection.json` in the project folder records it as well.
 */

import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, lstatSync, mkdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { PostgresInstallation, RunAs } from './postgresProcess.js';

/** Persistent state of a system service belongs under /var/lib (FHS). */
const SERVICE_ROOT = '/var/lib/missionweave';

/** Created when neither MW_PG_USER nor a `postgres` user is there (the `node:20` image). */
const DEFAULT_ACCOUNT = 'missionweave-pg';

export interface ServiceAccount extends RunAs {
  readonly name: string;
}

function ids(name: string): RunAs | undefined {
  try {
    return {
      uid: Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
      gid: Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
    };
  } catch {
    return undefined;
  }
}

/** A system account without a home or a login shell (shadow's useradd, else busybox adduser). */
function createAccount(name: string): void {
  try {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', name], { stdio: 'pipe' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    execFileSync('adduser', ['-S', '-D', '-H', '-s', '/sbin/nologin', name], { stdio: 'pipe' });
  }
}

/** The account the server runs as; created when it does not exist yet. */
export function serviceAccount(requested = process.env['MW_PG_USER']): ServiceAccount {
  const name = requested !== undefined && requested !== '' ? requested : ids('postgres') !== undefined ? 'postgres' : DEFAULT_ACCOUNT;
  if (!/^[a-z_][a-z0-9_-]{0,31}$/.test(name)) throw new Error(`MW_PG_USER ${JSON.stringify(name)} is not a valid user name`);
  let found = ids(name);
  if (found === undefined) {
    createAccount(name);
    found = ids(name);
    if (found === undefined) throw new Error(`could not create the user ${name} to run PostgreSQL as`);
  }
  if (found.uid === 0) throw new Error(`PostgreSQL refuses to run as root, and ${name} is root`);
  return { name, ...found };
}

/** A folder of ours: created with `mode` and `owner`, or found so, never a link. */
function ownedFolder(path: string, mode: number, owner: RunAs): void {
  if (!existsSync(path)) {
    mkdirSync(path, { mode });
    chownSync(path, owner.uid, owner.gid);
    chmodSync(path, mode); // the umask may have taken bits off
  }
  const found = lstatSync(path);
  if (!found.isDirectory() || found.uid !== owner.uid || (found.mode & 0o022) !== 0) {
    throw new Error(`${path} must be a directory owned by uid ${owner.uid} that no one else can write`);
  }
}

/** The root-owned copy of the binaries, made once per version; a half-made copy is never used. */
function privateInstallation(bundled: PostgresInstallation): PostgresInstallation {
  const root = join(SERVICE_ROOT, `postgres-${bundled.version}`);
  if (existsSync(join(root, 'bin', 'postgres'))) return { root, version: bundled.version };
  const staging = join(SERVICE_ROOT, `.staging-${randomBytes(6).toString('hex')}`);
  try {
    mkdirSync(staging, { mode: 0o755 });
    for (const part of ['bin', 'lib', 'share']) {
      // Static libraries and pkg-config files are for building against PostgreSQL, not running it.
      cpSync(join(bundled.root, part), join(staging, part), { recursive: true, verbatimSymlinks: true, filter: (source) => !source.endsWith('.a') && !source.endsWith('pkgconfig') });
    }
    renameSync(staging, root);
  } catch (error) {
    // Another process may have finished the same copy first: then use that one.
    if (!existsSync(join(root, 'bin', 'postgres'))) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return { root, version: bundled.version };
}

/** The data directory for a project folder, derived from its real path. */
export function serviceDataDirectory(projectDirectory: string): string {
  const hash = createHash('sha256').update(realpathSync(projectDirectory)).digest('hex').slice(0, 32);
  return join(SERVICE_ROOT, `data-${hash}`);
}

/** Whether `path` is a data directory `serviceDataDirectory` names (and nothing else under the root). */
export function isServiceDataDirectory(path: string): boolean {
  return dirname(resolve(path)) === SERVICE_ROOT && /^data-[0-9a-f]{32}$/.test(basename(path));
}

export interface ServicePlacement {
  readonly installation: PostgresInstallation;
  /** Where `initdb` may read its password file: root-owned, passable by the account. */
  readonly pwfileDir: string;
}

/** Prepares SERVICE_ROOT, the binaries, and `dataDir` (owned by `account`) for a start. */
export function placeForService(bundled: PostgresInstallation, dataDir: string, account: ServiceAccount): ServicePlacement {
  ownedFolder(SERVICE_ROOT, 0o711, { uid: 0, gid: 0 });
  ownedFolder(dataDir, 0o700, account);
  return { installation: privateInstallation(bundled), pwfileDir: SERVICE_ROOT };
}
