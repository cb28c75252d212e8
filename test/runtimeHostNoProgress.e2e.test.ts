/**
 * The runtime host against a run that cannot progress (src/client/runtime/hostRun.ts,
 * hostArtifacts.ts, hostRestartGuard.ts), with a real Authority. In the PoC the shared Worker was
 * killed after publishing a result and before submitting it; each resumed run published the same
 * bytes again, was refused (a content hash is published in a Group once), threw, was blocked,
 * unblocked by its Coordinator and started again at once: 2,289 starts in six minutes.
 *
 * - The same content published again by a later run of the same WorkItem is adopted: the run
 *   submits it (before the fix, every later run was blocked on the refusal).
 * - A handler that fails the same way every time is not started in a hot loop: each restart backs
 *   off, and after NO_PROGRESS_RUNS runs without progress the WorkItem is blocked and reported to
 *   its Coordinator with `runtime-no-progress`, however often the Coordinator unblocks it before.
 */

import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MissionWeaveAgent } from '../src/client/index.js';
import { NO_PROGRESS_BACKOFF_MS, NO_PROGRESS_RUNS } from '../src/client/runtime/hostLimits.js';
import { RUNTIME_NO_PROGRESS } from '../src/client/runtime/hostRestartGuard.js';
import { RuntimeHost } from '../src/client/runtime/hostRuntime.js';
import type { JobHandler } from '../src/client/runtime/job.js';
import { openAgentRuntime } from '../src/client/runtime/runtime.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { WORKER_CAPABILITIES } from './support/publishedWork.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let mission: MissionRefs;
let coordinator: Actor;
let workerActor: Actor;
const dir = mkdtempSync(join(tmpdir(), 'mw-noprogress-e2e-'));
const closing: (() => unknown)[] = [];
const asCoordinator = (): { groupId: string; membershipEpoch: number; coordinatorEpoch: number } => ({ groupId: mission.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });

async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  ({ server, coordinator, workerActor, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {}, workerActor: { handle: 'worker', capabilities: WORKER_CAPABILITIES } },
    mission: { owner: 'owner', coordinator: 'coordinator', members: { workerActor: ['worker'] } },
  }));
});

afterAll(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  rmSync(dir, { recursive: true, force: true });
});

function host(name: string, handler: JobHandler): { lines: string[] } {
  const runtime = openAgentRuntime({ path: join(dir, `${name}.sqlite`), agentId: workerActor.principal.id, slots: 1 });
  const agent = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: workerActor.principal.id, keyId: workerActor.key.keyId, privateKey: workerActor.key.privateKey, cursorStore: runtime.cursorStore });
  const lines: string[] = [];
  const runtimeHost = new RuntimeHost({ agent, runtime, handler, executionLeaseSeconds: 60, log: (line) => void lines.push(line) });
  closing.push(() => runtime.close(), () => runtimeHost.stop(100));
  void runtimeHost.start();
  return { lines };
}

async function offer(): Promise<string> {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const contract = { ...EXAMPLE_WORK_CONTRACT, goal: `${EXAMPLE_WORK_CONTRACT.goal} (${workItemId})`, inputArtifacts: [], dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(Date.now() + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 50 } };
  await server.harness.expectOk(server.harness.send(coordinator, 'work.authorize', { workItemId, contract }, asCoordinator()));
  const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
  await server.harness.expectOk(server.harness.send(coordinator, 'work.offer', { workItemId, candidateAgentIds: [workerActor.principal.id], selectionBasis }, asCoordinator()));
  return workItemId;
}

async function eventsOfWork(workItemId: string): Promise<JsonObject[]> {
  return (await eventsOf(server.db.pool, mission.groupId)).filter((e) => {
    const payload = e['payload'] as { workItemId?: string; workItem?: { workItemId?: string } };
    return (payload.workItem?.workItemId ?? payload.workItemId) === workItemId;
  });
}

/** The Coordinator unblocks each new `work.blocked` of `workItemId` until `done` says stop. */
async function unblockEach(workItemId: string, done: (events: JsonObject[]) => boolean, timeoutMs: number): Promise<JsonObject[]> {
  let unblocked = 0;
  return until(async () => {
    const events = await eventsOfWork(workItemId);
    if (done(events)) return events;
    const blocked = events.filter((e) => e['kind'] === 'work.blocked').length;
    if (blocked > unblocked) {
      unblocked = blocked;
      await server.harness.expectOk(server.harness.send(coordinator, 'work.unblock', { workItemId }, asCoordinator()));
    }
    return undefined;
  }, `${workItemId} done`, timeoutMs);
}

it('a later run that publishes what an earlier run of its WorkItem published adopts it and submits', async () => {
  let runs = 0;
  const { lines } = host('republish', async (job) => {
    runs++;
    const { contentHash } = await job.publishArtifact(`the result of ${job.workItemId}`, { mediaType: 'text/plain' });
    // The first run ends between publishing and submitting (in the PoC: SIGKILL).
    if (runs === 1) throw new Error('killed before submitting');
    await job.submit({ artifactHashes: [contentHash], summary: 'done' });
  });
  const workItemId = await offer();
  const events = await unblockEach(workItemId, (all) => all.some((e) => e['kind'] === 'work.submitted'), 60_000);
  expect(runs).toBe(2);
  expect(events.filter((e) => e['kind'] === 'artifact.published')).toHaveLength(1);
  const submitted = events.find((e) => e['kind'] === 'work.submitted') as JsonObject;
  const hash = `sha256:${createHash('sha256').update(`the result of ${workItemId}`).digest('hex')}`;
  expect((submitted['payload'] as { artifactHashes: string[] }).artifactHashes).toEqual([hash]);
  expect(events.filter((e) => e['kind'] === 'work.blocked')).toHaveLength(1);
  expect(lines.some((line) => line.startsWith('adopted '))).toBe(true);
}, 90_000);

it(`backs off a handler that never progresses and, after ${NO_PROGRESS_RUNS} runs, reports it ${RUNTIME_NO_PROGRESS} instead of starting it again`, async () => {
  const starts: number[] = [];
  host('noprogress', () => {
    starts.push(Date.now());
    throw new Error('the same failure every time');
  });
  const workItemId = await offer();
  const reported = (all: JsonObject[]): boolean => all.some((e) => e['kind'] === 'work.blocked' && JSON.stringify(e['payload']).includes(RUNTIME_NO_PROGRESS));
  await unblockEach(workItemId, reported, 90_000);
  // Exactly NO_PROGRESS_RUNS runs, each (after the first) at least its backoff after the last.
  expect(starts).toHaveLength(NO_PROGRESS_RUNS);
  const gaps = starts.slice(1).map((at, i) => at - starts[i]!);
  gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(NO_PROGRESS_BACKOFF_MS * 2 ** i - 50));
  // The report holds: no further run started on its own.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  expect(starts).toHaveLength(NO_PROGRESS_RUNS);
}, 120_000);
