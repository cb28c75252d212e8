/**
 * `missionweave worker` keeps the Commands that end a run in its durable outbox (issue 31 item 3)
 * and applies each once across a SIGKILL, across real processes: a node started with `serve`, a
 * Coordinator Agent over wss offering WorkItems to the Worker, and the worker as its own process
 * running a handler that publishes a result and submits it. A test-only failpoint
 * (`MW_TEST_OUTBOX_DIE`, src/client/runtime/outboxFailpoint.ts) kills the worker at an exact point:
 *
 * - `answered:work.submit`: the Authority applied the kept `work.submit` and the worker died before
 *   it recorded the answer (the row stays `sent`). Started again, it sends the same bytes first,
 *   gets the original receipt (the same Event, no second), and withdraws the submitted WorkItem
 *   instead of running it again;
 * - `kept:work.submit`: the worker died right after writing the signed `work.submit` to the
 *   outbox, before sending it. Started again under a new Session, the kept bytes are refused
 *   AUTH_STALE_SESSION and rebased (§19: a new Action ID and signature; §11.5: the same
 *   correlation ID, payload and Evidence; the current `issuedAt`, Session and Membership Epochs;
 *   a new Execution Lease), the outbox row replaced by it, sent, and applied once: one
 *   `work.submitted`, caused by the new Action ID, and the handler ran once. Sent again (an
 *   answer lost), the rebased bytes get their receipt and nothing more; the kept bytes stay
 *   refused AUTH_STALE_SESSION.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MissionWeaveAgent } from '../src/client/index.js';
import { openProjection, projectionPathIn } from '../src/client/runtime/projection.js';
import type { OutboxCommand } from '../src/client/runtime/projectionOutbox.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { CLI } from './support/mcpNode.js';
import type { ServeProcess } from './support/nodeProcess.js';
import { servedWorkerWorld, until as untilWithin } from './support/servedWorkerWorld.js';

const scratch = mkdtempSync(join(tmpdir(), 'mw-worker-outbox-'));
const marks = join(scratch, 'marks');
const handlerFile = join(scratch, 'handler.mjs');

/** Publishes a result and submits it; each run leaves a mark naming its WorkItem. */
const HANDLER = `
import { writeFileSync } from 'node:fs';
export default async function (job) {
  writeFileSync(\`\${process.env.MW_TEST_MARKS}/run-\${job.workItemId.split(':').pop()}-\${process.pid}\`, '');
  const { contentHash } = await job.publishArtifact(\`result of \${job.workItemId}\`, { mediaType: 'text/plain', name: 'result.txt' });
  await job.submit({ artifactHashes: [contentHash], summary: 'done' });
}
`;

let node: ServeProcess;
let dir: string;
let builderId: string;
let builder: { id: string; keyId: string; privateKeyFile: string };
const children: ChildProcess[] = [];

const { w, offered: offer, workEvents } = servedWorkerWorld({ prefix: 'mw-worker-outbox-node-' });
const until = <T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 90_000): Promise<T> => untilWithin(check, what, timeoutMs);


interface WorkerProcess {
  readonly child: ChildProcess;
  readonly log: () => string;
  readonly exited: Promise<number | null>;
}

/** `missionweave worker` as a process, `die` arming its outbox failpoint; resolves once its ready line is out. */
function startWorker(die?: string): Promise<WorkerProcess> {
  const env = { ...process.env, MW_TEST_MARKS: marks, ...(die === undefined ? {} : { MW_TEST_OUTBOX_DIE: die }) };
  const child = spawn(process.execPath, [CLI, 'worker', '--as', 'builder', '--dir', dir, '--handler', handlerFile, '--slots', '1'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let logged = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
    logged += `${line}\n`;
  });
  return new Promise((resolve, reject) => {
    void exited.then((code) => reject(new Error(`the worker exited with ${String(code)}: ${logged}`)));
    void until(() => (logged.includes('"slots"') ? true : undefined), 'the ready line', 60_000).then(() => resolve({ child, log: () => logged, exited }), reject);
  });
}

beforeAll(() => {
  writeFileSync(handlerFile, HANDLER);
  mkdirSync(marks, { recursive: true });
  ({ node, dir } = w.node);
  builder = w.builder;
  builderId = builder.id;
  w.closing.push(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The unanswered kept Commands of a WorkItem, read while no worker holds the projection. */
function kept(workItemId: string): OutboxCommand[] {
  const projection = openProjection({ path: projectionPathIn(join(dir, 'runtime', 'builder')), agentId: builderId });
  try {
    return projection.outbox.toSend().filter((row) => row.bytes.toString('utf8').includes(workItemId));
  } finally {
    projection.close();
  }
}

function runsOf(workItemId: string): number {
  return readdirSync(marks).filter((name) => name.startsWith(`run-${workItemId.split(':').pop() as string}-`)).length;
}

async function stop(worker: WorkerProcess): Promise<void> {
  worker.child.kill('SIGTERM');
  expect(await worker.exited).toBe(0);
}

it('a work.submit the Authority applied before the worker was killed is sent again with the same bytes on start and applied once', async () => {
  const first = await startWorker('answered:work.submit');
  const workItemId = await offer();
  expect(await first.exited).toBeNull();
  const [row] = kept(workItemId);
  expect(row).toMatchObject({ kind: 'work.submit', state: 'sent' });
  const bytes = (row as OutboxCommand).bytes.toString('utf8');
  const submitted = (await workEvents(workItemId)).filter((e) => e['kind'] === 'work.submitted');
  expect(submitted.map((e) => (e['cause'] as { id: string }).id)).toEqual([(row as OutboxCommand).actionId]);

  const second = await startWorker();
  await until(() => (second.log().includes(`outbox ${(row as OutboxCommand).actionId}: acked`) ? true : undefined), 'the kept work.submit answered');
  await until(() => (second.log().includes(`withdrawn ${workItemId}`) ? true : undefined), 'the submitted WorkItem withdrawn');
  await stop(second);
  const projection = openProjection({ path: projectionPathIn(join(dir, 'runtime', 'builder')), agentId: builderId });
  try {
    const after = projection.outbox.get((row as OutboxCommand).actionId);
    expect(after).toMatchObject({ state: 'acked', eventId: submitted[0]?.['eventId'] });
    expect(after?.bytes.toString('utf8')).toBe(bytes);
  } finally {
    projection.close();
  }
  const events = await workEvents(workItemId);
  expect(events.filter((e) => e['kind'] === 'work.submitted').map((e) => e['eventId'])).toEqual([submitted[0]?.['eventId']]);
  expect(events.filter((e) => e['kind'] === 'work.started')).toHaveLength(1);
  expect(runsOf(workItemId)).toBe(1);
}, 300_000);

it('a work.submit kept but never sent before the worker was killed is rebased onto the new Session under a new Action ID (§19) and applied once', async () => {
  const first = await startWorker('kept:work.submit');
  const workItemId = await offer();
  expect(await first.exited).toBeNull();
  const [row] = kept(workItemId);
  expect(row).toMatchObject({ kind: 'work.submit', state: 'pending' });
  const originalBytes = (row as OutboxCommand).bytes.toString('utf8');
  const original = JSON.parse(originalBytes) as JsonObject;
  const originalId = original['actionId'] as string;
  expect((await workEvents(workItemId)).filter((e) => e['kind'] === 'work.submitted')).toEqual([]);

  const second = await startWorker();
  const line = new RegExp(`outbox (\\S+): acked \\(rebased from ${originalId.replace(/[.:]/g, '\\$&')}\\)`);
  const rebasedId = await until(() => line.exec(second.log())?.[1], 'the kept work.submit rebased and accepted');
  expect(rebasedId).not.toBe(originalId);
  await until(() => (second.log().includes(`withdrawn ${workItemId}`) ? true : undefined), 'the submitted WorkItem withdrawn');
  await stop(second);
  const events = await workEvents(workItemId);
  const submitted = events.filter((e) => e['kind'] === 'work.submitted');
  // One transition, caused by the new Action ID; the kept one caused nothing.
  expect(submitted.map((e) => (e['cause'] as { id: string }).id)).toEqual([rebasedId]);
  // The first lease, and the one the rebase took; the handler ran once.
  expect(events.filter((e) => e['kind'] === 'work.started')).toHaveLength(2);
  expect(runsOf(workItemId)).toBe(1);
  const projection = openProjection({ path: projectionPathIn(join(dir, 'runtime', 'builder')), agentId: builderId });
  let rebasedBytes: string;
  try {
    // The row moved to the new Action ID: the kept one is no longer in the outbox.
    expect(projection.outbox.get(originalId)).toBeUndefined();
    const after = projection.outbox.get(rebasedId);
    expect(after).toMatchObject({ state: 'acked', eventId: submitted[0]?.['eventId'], rebasedFrom: originalId, position: (row as OutboxCommand).position });
    rebasedBytes = after?.bytes.toString('utf8') ?? '{}';
    const rebased = JSON.parse(rebasedBytes) as JsonObject;
    // A new Action ID and signature; the same correlation, Evidence and Artifacts; a later Session, issuedAt and lease.
    expect(rebased['actionId']).toBe(rebasedId);
    expect(rebased['signature']).not.toEqual(original['signature']);
    expect(rebased['correlationId']).toBe(original['correlationId']);
    expect(rebased['sessionEpoch'] as number).toBeGreaterThan(original['sessionEpoch'] as number);
    expect(Date.parse(rebased['issuedAt'] as string)).toBeGreaterThan(Date.parse(original['issuedAt'] as string));
    const payload = rebased['payload'] as JsonObject;
    const kept = original['payload'] as JsonObject;
    expect(payload['executionLeaseId']).not.toBe(kept['executionLeaseId']);
    expect({ ...payload, executionLeaseId: null }).toEqual({ ...kept, executionLeaseId: null });
  } finally {
    projection.close();
  }
  // An answer lost: the rebased bytes sent again (as the builder, over its own session) get their
  // receipt, the same Event; the kept bytes stay fenced.
  const ca = readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8');
  const again = new MissionWeaveAgent({ url: node.url, ca, agentId: builderId, keyId: builder.keyId, privateKey: createPrivateKey(readFileSync(builder.privateKeyFile)) });
  await again.connect();
  try {
    expect((await again.sendSigned(rebasedBytes)).eventId).toBe(submitted[0]?.['eventId']);
    await expect(again.sendSigned(originalBytes)).rejects.toMatchObject({ code: 'AUTH_STALE_SESSION' });
  } finally {
    await again.close();
  }
  const finally_ = await workEvents(workItemId);
  expect(finally_.filter((e) => e['kind'] === 'work.submitted').map((e) => e['eventId'])).toEqual([submitted[0]?.['eventId']]);
  expect(finally_).toHaveLength(events.length);
}, 300_000);
