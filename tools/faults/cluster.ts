/**
 * The system under test for the fault suite: one embedded PostgreSQL this process can SIGKILL
 * and restart (on the same port) — or a database of its own on a Citus cluster, whose workers
 * citusWorkers.ts stops and starts — and `missionweave serve` nodes on it that can be SIGKILLed —
 * at a random moment, or armed to die right after their next Group commit — and restarted.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openEmbeddedPostgres, type EmbeddedDatabase } from '#src/store/embeddedPostgres.js';
import { onNode } from '#src/store/adminConnection.js';
import { openCitusBenchDatabase, type CitusBenchDatabase } from '../bench/benchCitus.js';

/** The built CLI: this module lies two folders below the repository, as tools/faults or dist-tools/faults. */
const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli', 'main.js');

export interface Node {
  readonly name: string;
  child: ChildProcess | undefined;
  url: string | undefined;
  /** Set while the suite itself is stopping or killing the node. */
  expectingExit: boolean;
}

export class Cluster {
  readonly nodes: Node[];
  /** Node exits the suite did not cause (a crash): each one is a violation. */
  readonly unexpectedExits: string[] = [];
  private database: EmbeddedDatabase | undefined;
  private citus: CitusBenchDatabase | undefined;
  databaseUrl = '';
  /**
   * How long a node may take to print its ready line. On Citus longer: a node started on the
   * loopback cluster while the run's load goes on took 23-60 s on 2 shared cores (2026-12-04,
   * load average 17-20), against 5 s on the same cluster unloaded.
   */
  private readonly readyTimeoutMs: number;

  /** `citusAdminUrl`: a Citus coordinator's admin URL (MW_CITUS_URL) instead of an embedded PostgreSQL. */
  constructor(
    private readonly databaseDir: string,
    private readonly homeDir: string,
    nodeCount: number,
    private readonly log: (line: string) => void,
    readonly citusAdminUrl?: string,
    /** How long a node may take to start (a loaded machine: the PoC inside the full suite takes more than a minute). */
    readyTimeoutMs?: number,
  ) {
    this.readyTimeoutMs = readyTimeoutMs ?? (citusAdminUrl === undefined ? 60_000 : 180_000);
    this.nodes = Array.from({ length: nodeCount }, (_, i) => ({ name: `node-${i + 1}`, child: undefined, url: undefined, expectingExit: false }));
  }

  async startDatabase(): Promise<string> {
    if (this.citusAdminUrl !== undefined) {
      this.citus ??= await openCitusBenchDatabase(this.citusAdminUrl, 'mw_faults');
      this.databaseUrl = this.citus.url;
      // Four shards a table, as the test harness makes them (the run is small; 32 would make migrate slow).
      await onNode(this.databaseUrl, [`alter database ${new URL(this.databaseUrl).pathname.slice(1)} set citus.shard_count to 4`]);
      return this.databaseUrl;
    }
    this.database = await openEmbeddedPostgres(this.databaseDir, { temporary: true });
    this.databaseUrl = this.database.url;
    return this.databaseUrl;
  }

  /** SIGKILLs the postmaster; its backends notice and exit. */
  killDatabase(): void {
    const pid = Number(readFileSync(join(this.database?.dataDirectory ?? join(this.databaseDir, 'pgdata'), 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGKILL');
    this.database = undefined;
  }

  async restartDatabase(): Promise<void> {
    // Backends of the killed postmaster may linger a moment and hold the shared memory.
    const before = this.databaseUrl;
    for (let attempt = 1; ; attempt++) {
      try {
        // The nodes keep the URL they were started with: on another port they would never reconnect.
        const url = await this.startDatabase();
        if (url !== before && before !== '') throw new Error(`the database came back on another port (${url}, was ${before})`);
        return;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  async startNode(node: Node): Promise<void> {
    const child = spawn(process.execPath, [CLI, 'serve', '--dir', this.homeDir, '--port', '0'], {
      env: { ...process.env, DATABASE_URL: this.databaseUrl, MW_FAILPOINTS: '1', MW_CRYPTO_WORKERS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    node.child = child;
    node.expectingExit = false;
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      // Structured logs (warnings while the database is away) only on request; anything else
      // on stderr (a stack trace) always.
      if (!line.startsWith('{') || process.env['MW_FAULTS_VERBOSE'] === '1') this.log(`${node.name}: ${line.slice(0, 300)}`);
    });
    node.url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${node.name} did not become ready in ${this.readyTimeoutMs / 1_000} s`)), this.readyTimeoutMs);
      child.once('exit', (code, signal) => reject(new Error(`${node.name} exited (${String(code ?? signal)}) before ready`)));
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
        const ready = JSON.parse(line) as { url?: string };
        if (ready.url === undefined) return;
        clearTimeout(timer);
        resolve(ready.url);
      });
    });
    child.once('exit', (code, signal) => {
      if (!node.expectingExit) this.unexpectedExits.push(`${node.name} exited on its own (${String(code ?? signal)})`);
      if (node.child === child) {
        node.child = undefined;
        node.url = undefined;
      }
    });
  }

  /** SIGKILL now. */
  async killNode(node: Node): Promise<void> {
    const child = node.child;
    if (child === undefined) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    node.url = undefined;
    node.expectingExit = true;
    child.kill('SIGKILL');
    await exited;
  }

  /** Arms the node to SIGKILL itself right after its next Group commit, before answering. */
  async killNodeAfterNextCommit(node: Node, timeoutMs = 5_000): Promise<'after-commit' | 'timeout'> {
    const child = node.child;
    if (child === undefined) return 'timeout';
    const exited = new Promise<'after-commit'>((resolve) => child.once('exit', () => resolve('after-commit')));
    node.expectingExit = true;
    child.kill('SIGUSR2');
    const outcome = await Promise.race([exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs))]);
    if (outcome === 'timeout') await this.killNode(node);
    node.url = undefined;
    return outcome;
  }

  liveUrls(): string[] {
    return this.nodes.flatMap((n) => (n.url === undefined ? [] : [n.url]));
  }

  async stop(): Promise<void> {
    for (const node of this.nodes) {
      const child = node.child;
      if (child === undefined) continue;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      node.expectingExit = true;
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
    await this.database?.stop().catch(() => undefined);
    await this.citus?.drop().catch((error: unknown) => this.log(`dropping the suite's database on Citus failed: ${String(error)}`));
  }
}
