/**
 * `npm run bench:cli [-- --runs N] [--cli FILE]`: the wall time of each CLI command that goes through a running
 * node (issue 33 item 5; src/cli/operatorForward.ts), next to a floor measured in the same run:
 * `node -e 0` (Node starting and exiting) and `missionweave --version` (the CLI's own start).
 *
 * It makes a scratch home (init, a human, an Agent: the slow local path, once), serves it on any
 * free port, creates a Mission through the node, then runs every case N times, round-robin so that
 * a change of the machine's load falls on all of them alike, each as a fresh process the way an
 * operator's shell starts it. The commands are given a DATABASE_URL that reaches nothing, so a
 * command that did not go through the node fails, and the bench with it. Prints one line per case
 * (median, min, max in ms) and the load average before and after; then stops the node and removes
 * the home with its data (`missionweave destroy`). `--cli` measures another build's binary (an
 * A/B against an earlier commit's `dist/cli/main.js`), which serves the home too.
 */

import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

const CLI = resolve(argument('cli') ?? join('dist', 'cli', 'main.js'));
const NOWHERE = 'postgres://nobody:none@127.0.0.1:1/nothing';
/** Runs per case unless `--runs N` says otherwise: enough for a median on a noisy machine. */
const DEFAULT_RUNS = 15;

function option(name: string, fallback: number): number {
  const given = argument(name);
  const value = given === undefined ? fallback : Number(given);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a positive integer`);
  return value;
}

/** One process: its wall time in ms; throws (with its output) unless it exits 0. */
function timed(args: readonly string[], env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { env, encoding: 'utf8', timeout: 60_000 });
  const elapsed = performance.now() - start;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited with ${String(result.status)}: ${result.stderr}`);
  return elapsed;
}

/** A local CLI command (the slow path: it starts or joins the home's PostgreSQL); its stdout. */
function local(...args: string[]): string {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0) throw new Error(`missionweave ${args.join(' ')} exited with ${String(result.status)}: ${result.stderr}`);
  return result.stdout;
}

interface Node {
  readonly stop: () => Promise<void>;
}

function serve(dir: string): Promise<Node> {
  const child = spawn(process.execPath, [CLI, 'serve', '--dir', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((done, fail) => {
    child.once('exit', (code) => fail(new Error(`serve exited with ${String(code)}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.includes('"status":"ready"')) return;
      done({ stop: async () => void (child.kill('SIGTERM'), await exited) });
    });
  });
}

function stats(samples: readonly number[]): { median: number; min: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted.at(-1) as number };
}

const runs = option('runs', DEFAULT_RUNS);
const scratch = mkdtempSync(join(tmpdir(), 'mw-cli-bench-'));
const dir = join(scratch, 'home');
let node: Node | undefined;
try {
  local('init', '--dir', dir);
  local('human', 'add', 'alice', '--dir', dir);
  local('agent', 'add', 'planner', '--dir', dir);
  node = await serve(dir);
  const mission = join(scratch, 'mission.json');
  writeFileSync(mission, JSON.stringify({ coordinatorId: 'urn:missionweave:agent:planner', title: 'Bench', objective: 'Measure the CLI.', definitionOfDone: [{ criterionId: 'done', description: 'Measured.', evidenceRequired: ['human_review'] }], budget: { currency: 'EUR', financialLimit: 100 }, deadline: new Date(Date.now() + 86_400_000).toISOString() }));
  const forwardEnv = { ...process.env, DATABASE_URL: NOWHERE };
  const created = spawnSync(process.execPath, [CLI, 'command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', `@${mission}`], { env: forwardEnv, encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`mission.create through the node failed: ${created.stderr}`);
  const event = JSON.parse(created.stdout.trim().split('\n').at(-1) as string) as { groupId: string; payload: { mission: { missionId: string }; conversation: { conversationId: string } } };
  const { groupId } = event;
  const { missionId } = event.payload.mission;
  const { conversationId } = event.payload.conversation;
  const message = (): string => JSON.stringify({ messageId: `urn:uuid:${randomUUID()}`, conversationId, content: 'A benchmark message.' });

  const cases: Record<string, () => readonly string[]> = {
    'node -e 0 (floor)': () => ['-e', '0'],
    'missionweave --version (floor)': () => [CLI, '--version'],
    'command message.post': () => [CLI, 'command', 'message.post', '--as', 'alice', '--dir', dir, '--group', groupId, '--payload', message()],
    'replay': () => [CLI, 'replay', groupId, '--dir', dir],
    'replay --verify': () => [CLI, 'replay', groupId, '--dir', dir, '--verify'],
    'audit': () => [CLI, 'audit', '--dir', dir],
    'registry export --out': () => [CLI, 'registry', 'export', '--dir', dir, '--out', join(scratch, 'registry.json')],
    'tree': () => [CLI, 'tree', missionId, '--dir', dir],
  };
  const samples = new Map<string, number[]>(Object.keys(cases).map((name) => [name, []]));
  const loadBefore = loadavg()[0] as number;
  for (let run = 0; run < runs; run++) {
    for (const [name, args] of Object.entries(cases)) samples.get(name)?.push(timed(args(), forwardEnv));
  }
  const loadAfter = loadavg()[0] as number;
  process.stdout.write(`${CLI}: wall time per command, ${runs} runs each, through a node serving the home (ms); load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after\n`);
  process.stdout.write(`${'case'.padEnd(32)} ${'median'.padStart(7)} ${'min'.padStart(7)} ${'max'.padStart(7)}\n`);
  for (const [name, values] of samples) {
    const { median, min, max } = stats(values);
    process.stdout.write(`${name.padEnd(32)} ${median.toFixed(0).padStart(7)} ${min.toFixed(0).padStart(7)} ${max.toFixed(0).padStart(7)}\n`);
  }
} finally {
  await node?.stop();
  spawnSync(process.execPath, [CLI, 'destroy', '--dir', dir], { stdio: 'ignore' });
  rmSync(scratch, { recursive: true, force: true });
}
