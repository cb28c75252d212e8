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
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, expect, it } from 'vitest';
import { projectionPathIn } from '../src/client/runtime/projection.js';
import { openAgentRuntime } from '../src/client/runtime/runtime.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import type { TestDatabase } from './support/database.js';
import { CLI } from './support/mcpNode.js';
import { cli } from './support/nodeProcess.js';
import { servedWorkerWorld, until } from './support/servedWorkerWorld.js';

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

const { w, offered, workEvents } = servedWorkerWorld({ prefix: 'mw-worker-' });
let scratch: string;
let dir: string;
let marks: string;
let handlerFile: string;
let db: TestDatabase;
let builderId: string;
const children: ChildProcess[] = [];

beforeAll(() => {
  ({ scratch } = w);
  ({ dir, db } = w.node);
  builderId = w.builder.id;
  marks = join(scratch, 'marks');
  handlerFile = join(scratch, 'handler.mjs');
  writeFileSync(handlerFile, HANDLER);
  mkdirSync(marks, { recursive: true });
  w.closing.push(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
});

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

function runs(): { workItemId: string; resumeFrom: { step: number } | null }[] {
  return readdirSync(marks)
    .filter((name) => name.startsWith('run-'))
    .sort((a, b) => Number(a.split('-')[2]?.replace('.json', '')) - Number(b.split('-')[2]?.replace('.json', '')))
    .map((name) => JSON.parse(readFileSync(join(marks, name), 'utf8')) as { workItemId: string; resumeFrom: { step: number } | null });
}

it('resumes a WorkItem from its safe checkpoint after the worker is killed with SIGKILL, and submits it once', async () => {
  const first = await startWorker();

  const workItemId = await offered();

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
