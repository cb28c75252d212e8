/**
 * A run whose handler fails after the Authority already took its WorkItem back (src/client/runtime/
 * hostRun.ts): `work.block` is refused there, so the run must not stay blocked in the runtime
 * (nobody would ever unblock it — the Coordinator sees no blocked WorkItem); it ends `lease-lost`
 * and the host re-checks it with the Authority. Here the Coordinator cancels the WorkItem while
 * the job runs and the handler then throws: the re-check finds it cancelled and withdraws it.
 * (In the PoC a cut connection did this: the handler failed on the lost Session, the Authority
 * had put the WorkItem back to `queued`, and the Worker held it blocked for good.)
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MissionWeaveAgent } from '../src/client/index.js';
import { RuntimeHost } from '../src/client/runtime/hostRuntime.js';
import { openAgentRuntime } from '../src/client/runtime/runtime.js';
import type { Actor } from './support/harness.js';
import { eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { WORKER_CAPABILITIES } from './support/publishedWork.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';
import type { JsonObject } from '../src/protocol/strictJson.js';

let server: TestServer;
let mission: MissionRefs;
let coordinator: Actor;
let workerActor: Actor;
const dir = mkdtempSync(join(tmpdir(), 'mw-hostrun-e2e-'));
const closing: (() => unknown)[] = [];

async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
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

const asCoordinator = (): { groupId: string; membershipEpoch: number; coordinatorEpoch: number } => ({ groupId: mission.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });

it('a run whose work.block the Authority refuses is re-checked, not held blocked: the cancelled WorkItem is withdrawn', async () => {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const runtime = openAgentRuntime({ path: join(dir, 'projection.sqlite'), agentId: workerActor.principal.id, slots: 1 });
  const agent = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: workerActor.principal.id, keyId: workerActor.key.keyId, privateKey: workerActor.key.privateKey, cursorStore: runtime.cursorStore });
  const lines: string[] = [];
  let runs = 0;
  const host = new RuntimeHost({
    agent, runtime, executionLeaseSeconds: 60, log: (line) => void lines.push(line),
    handler: async (job) => {
      runs++;
      expect(await job.checkpoint({ step: 1 })).toBe('continue');
      // The Coordinator takes the WorkItem back; the handler's tool fails right after, before the
      // Worker heard of it.
      await server.harness.expectOk(server.harness.send(coordinator, 'work.cancel', { workItemId, reason: 'Superseded.' }, asCoordinator()));
      throw new Error('the tool lost its connection');
    },
  });
  closing.push(() => runtime.close(), () => host.stop(100));
  await host.start();

  const contract = { ...EXAMPLE_WORK_CONTRACT, goal: `${EXAMPLE_WORK_CONTRACT.goal} (${workItemId})`, inputArtifacts: [], dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(Date.now() + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 50 } };
  await server.harness.expectOk(server.harness.send(coordinator, 'work.authorize', { workItemId, contract }, asCoordinator()));
  const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
  await server.harness.expectOk(server.harness.send(coordinator, 'work.offer', { workItemId, candidateAgentIds: [workerActor.principal.id], selectionBasis }, asCoordinator()));

  await until(() => (runs === 1 && runtime.state.work[workItemId] === undefined ? true : undefined), 'the cancelled WorkItem withdrawn from the runtime');
  expect(lines.some((line) => line.startsWith(`withdrawn ${workItemId}: it is cancelled`))).toBe(true);
  expect(lines.some((line) => line.startsWith(`lease-lost ${workItemId}: the job handler threw: the tool lost its connection; work.block was not accepted`))).toBe(true);
  const kinds = (await eventsOf(server.db.pool, mission.groupId)).filter((e) => (e['payload'] as { workItemId?: string }).workItemId === workItemId).map((e) => e['kind']);
  expect(kinds).toContain('work.cancelled');
  expect(kinds).not.toContain('work.blocked');
}, 90_000);
