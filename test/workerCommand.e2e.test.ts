/**
 * `missionweave worker` (issue 31 item 6) across real processes: a node started with `serve`
 * (its Authority reactor running, as in production), a Coordinator Agent over wss authorizing a
 * WorkItem and offering it to the Worker, and the worker as its own process running a handler
 * module that takes a safe checkpoint and then works on. The worker is killed with SIGKILL mid-
 * run and started again: it re-checks the WorkItem with the Authority, resumes the handler from
 * the checkpoint under a new Execution Lease, and the result is submitted once — asserted from
 * the Group's Events. Then SIGTERM stops it cleanly (exit 0). A projection another process holds,
 * or a corrupt one, is refused in one line with exit 69 or 65, the file left as it was.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signCommand } from '../src/app/issueDocuments.js';
import { MissionWeaveAgent } from '../src/client/index.js';
import { projectionPathIn } from '../src/client/runtime/projection.js';
import { openAgentRuntime } from '../src/client/runtime/runtime.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { eventsOf } from './support/missions.js';
import { cli, lastJson, serve, type ServeProcess } from './support/nodeProcess.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { postCommands } from './support/refusals.js';

const CLI = join(process.cwd(), 'dist', 'cli', 'main.js');
const scratch = mkdtempSync(join(tmpdir(), 'mw-worker-'));
const dir = join(scratch, 'node');
const marks = join(scratch, 'marks');
const handlerFile = join(scratch, 'handler.mjs');

/** The handler a user writes: checkpoint, then work on (killed here on the first run); resumed, publish and submit. */
const HANDLER = `
import { writeFileSync } from 'node:fs';
const marks = process.env.MW_TEST_MARKS;
export default async function (job) {
  writeFileSync(\`\${marks}/run-\${process.pid}-\${Date.now()}.json\`, JSON.stringify({ workItemId: job.workItemId, groupId: job.groupId, goal: job.contract.goal, resumeFrom: job.resumeFrom ?? null }));
  if (job.resumeFrom === undefined) {
    if ((await job.checkpoint({ step: 1, note: 'requirements analysed' })) === 'yield') return;
    writeFileSync(\`\${marks}/checkpointed\`, String(process.pid));
    await new Promise((resolve) => setTimeout(resolve, 600_000));
    return;
  }
  const { contentHash } = await job.publishArtifact(\`resumed from step \${job.resumeFrom.step}\`, { mediaType: 'text/plain', name: 'result.txt' });
  await job.submit({ artifactHashes: [contentHash], summary: 'done after a restart' });
}
`;

let db: TestDatabase;
let node: ServeProcess;
let groupId: string;
let builderId: string;
let coordinator: MissionWeaveAgent;
const children: ChildProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface WorkerProcess {
  readonly child: ChildProcess;
  readonly log: () => string;
  readonly exited: Promise<number | null>;
}

/** `missionweave worker` as a process; resolves once its ready line is out. */
function startWorker(): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [CLI, 'worker', '--as', 'builder', '--dir', dir, '--handler', handlerFile, '--slots', '1'], { env: { ...process.env, MW_TEST_MARKS: marks }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let logged = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not become ready: ${logged}`)), 60_000);
    void exited.then((code) => reject(new Error(`the worker exited with ${String(code)}: ${logged}`)));
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      logged += `${line}\n`;
      if (!line.includes('"slots"')) return;
      clearTimeout(timer);
      resolve({ child, log: () => logged, exited });
    });
  });
}

beforeAll(async () => {
  writeFileSync(handlerFile, HANDLER);
  mkdirSync(marks, { recursive: true });
  db = await createTestDatabase();
  const run = (...args: string[]): Record<string, unknown> => {
    const result = cli(db.url, ...args);
    expect(result.code, result.stderr).toBe(0);
    return lastJson(result.stdout);
  };
  run('init', '--dir', dir, '--port', String(await freePort()));
  const planner = run('agent', 'add', 'planner', '--dir', dir, '--capability', 'project.planning@1.0.0') as { id: string; keyId: string; privateKeyFile: string };
  builderId = (run('agent', 'add', 'builder', '--dir', dir, '--capability', 'acme.sql-migration@1.5.0') as { id: string }).id;
  const human = run('human', 'add', 'alice', '--dir', dir) as { id: string; keyId: string; privateKeyFile: string };
  const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { server: { port: number } };
  node = await serve(db.url, dir, config.server.port);
  const ca = readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8');
  const key = { keyId: human.keyId, privateKey: createPrivateKey(readFileSync(human.privateKeyFile)) };
  const suffix = randomUUID();
  groupId = `urn:missionweave:group:${suffix}`;
  const humanSays = async (kind: string, payload: JsonObject, membershipEpoch?: number): Promise<void> => {
    const command = signCommand({ actor: { type: 'human', id: human.id }, kind, groupId, issuedAt: new Date().toISOString(), payload, ...(membershipEpoch === undefined ? {} : { membershipEpoch }) }, key);
    const [answer] = await postCommands(node.https, ca, [JSON.stringify(command)], 1);
    expect(answer?.status, answer?.body).toBe(201);
  };
  await humanSays('mission.create', {
    missionId: `urn:missionweave:mission:${suffix}`, groupId, mainConversationId: `urn:missionweave:conversation:${suffix}`,
    coordinatorId: planner.id, title: 'Port the billing schema', objective: 'A reversible ledger migration.',
    definitionOfDone: [{ criterionId: 'migrated', description: 'Migrated.', evidenceRequired: ['human_review'] }],
    budget: { currency: 'EUR', financialLimit: 100 }, deadline: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  });
  await humanSays('membership.change', { principal: { type: 'agent', id: builderId }, roles: ['worker'] }, 1);
  coordinator = new MissionWeaveAgent({ url: node.url, ca, agentId: planner.id, keyId: planner.keyId, privateKey: createPrivateKey(readFileSync(planner.privateKeyFile)) });
  await coordinator.connect();
}, 180_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await coordinator?.close();
  await node?.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

async function workEvents(workItemId: string): Promise<JsonObject[]> {
  return (await eventsOf(db.pool, groupId)).filter((e) => (e['payload'] as { workItemId?: string }).workItemId === workItemId);
}

function runs(): { workItemId: string; resumeFrom: { step: number } | null }[] {
  return readdirSync(marks)
    .filter((name) => name.startsWith('run-'))
    .sort((a, b) => Number(a.split('-')[2]?.replace('.json', '')) - Number(b.split('-')[2]?.replace('.json', '')))
    .map((name) => JSON.parse(readFileSync(join(marks, name), 'utf8')) as { workItemId: string; resumeFrom: { step: number } | null });
}

it('resumes a WorkItem from its safe checkpoint after the worker is killed with SIGKILL, and submits it once', async () => {
  const first = await startWorker();

  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const asCoordinator = { groupId, membershipEpoch: 1, coordinatorEpoch: 1 };
  const contract = { ...EXAMPLE_WORK_CONTRACT, inputArtifacts: [], dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(Date.now() + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 50 } };
  await coordinator.command('work.authorize', { workItemId, contract }, asCoordinator);
  const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
  await coordinator.command('work.offer', { workItemId, candidateAgentIds: [builderId], selectionBasis }, asCoordinator);

  await until(() => (existsSync(join(marks, 'checkpointed')) ? true : undefined), 'the safe checkpoint', 60_000);
  first.child.kill('SIGKILL');
  expect(await first.exited).toBeNull();

  const second = await startWorker();
  expect(second.log()).toContain('"resumable":1');
  const submitted = await until(async () => (await workEvents(workItemId)).find((e) => e['kind'] === 'work.submitted'), 'work.submitted', 90_000);
  expect((submitted['payload'] as { artifactHashes: string[] }).artifactHashes).toEqual([sha256ContentHash('resumed from step 1')]);
  const events = await workEvents(workItemId);
  expect(events.filter((e) => e['kind'] === 'work.submitted')).toHaveLength(1);
  expect(events.filter((e) => e['kind'] === 'work.started')).toHaveLength(2);
  expect(runs().map((r) => r.resumeFrom)).toEqual([null, { step: 1, note: 'requirements analysed' }]);

  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
  expect(second.log()).toContain('stopping: SIGTERM');
}, 300_000);

it('refuses a wrong command line in one line: no handler (2), a handler module that is not there (66), --slots 0 (2)', () => {
  const noHandler = cli(db.url, 'worker', '--as', 'builder', '--dir', dir);
  expect(noHandler).toMatchObject({ code: 2 });
  expect(noHandler.stderr).toContain('usage: missionweave worker --as AGENT --dir DIR --handler MODULE');
  const missing = cli(db.url, 'worker', '--as', 'builder', '--dir', dir, '--handler', join(scratch, 'missing.mjs'));
  expect(missing).toMatchObject({ code: 66 });
  expect(missing.stderr).toContain(`no handler module at ${join(scratch, 'missing.mjs')}`);
  const slots = cli(db.url, 'worker', '--as', 'builder', '--dir', dir, '--handler', handlerFile, '--slots', '0');
  expect(slots).toMatchObject({ code: 2 });
  expect(slots.stderr).toContain('--slots is a whole number from 1 to 256');
  expect([noHandler.stderr, missing.stderr, slots.stderr].every((text) => text.trim().split('\n').length === 1)).toBe(true);
});

it('refuses a projection another process holds (69) and a corrupt one (65) in one line, leaving the file as it was', () => {
  // The test process holds the builder's projection, as a running `mcp` or `worker` would.
  const path = projectionPathIn(join(dir, 'runtime', 'builder'));
  const holder = openAgentRuntime({ path, agentId: builderId, slots: 1 });
  try {
    const locked = cli(db.url, 'worker', '--as', 'builder', '--dir', dir, '--handler', handlerFile);
    expect(locked.code, locked.stderr).toBe(69);
    expect(locked.stderr.trim().split('\n')).toHaveLength(1);
    expect(locked.stderr).toContain(`missionweave worker: ${path} is held by another process`);
  } finally {
    holder.close();
  }
  const file = join(dir, 'runtime', 'planner', 'projection.sqlite');
  mkdirSync(join(dir, 'runtime', 'planner'), { recursive: true });
  const garbage = Buffer.from('not a SQLite database, but what a backup could restore\n'.repeat(64));
  writeFileSync(file, garbage);
  const corrupt = cli(db.url, 'worker', '--as', 'planner', '--dir', dir, '--handler', handlerFile);
  expect(corrupt.code, corrupt.stderr).toBe(65);
  expect(corrupt.stderr.trim().split('\n')).toHaveLength(1);
  expect(corrupt.stderr).toContain(`missionweave worker: ${file}: not a SQLite database`);
  expect(corrupt.stderr).toContain('nothing overwritten');
  expect(readFileSync(file).equals(garbage)).toBe(true);
});
