/**
 * The Agent runtime against a real node (wss, TLS, PostgreSQL): a Worker whose CursorStore is
 * the runtime's projection accepts two WorkItems the Coordinator offered, admits them into the
 * runtime, and starts the one the scheduler picks under a real Execution Lease. Then the Agent
 * and the runtime go away without a checkpoint. The reopened runtime holds the same two
 * WorkItems: the started one blocked with `runtime-session-lost`, the other still queued, each
 * under the Ownership Epoch the Authority granted; and a new Agent on the same projection resumes
 * the Group after its saved Cursor, not from the start.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MissionWeaveAgent, MissionWeaveWorker, type GroupEvent, type OwnedWork, type WorkOffer } from '../src/client/index.js';
import { RUNTIME_SESSION_LOST } from '../src/client/runtime/projectionWork.js';
import { openAgentRuntime, type AgentRuntime } from '../src/client/runtime/runtime.js';
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
const dir = mkdtempSync(join(tmpdir(), 'mw-runtime-e2e-'));
const path = join(dir, 'projection.sqlite');
const closing: (() => unknown)[] = [];

async function until<T>(check: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
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

function agentOn(runtime: AgentRuntime): MissionWeaveAgent {
  const agent = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: workerActor.principal.id, keyId: workerActor.key.keyId, privateKey: workerActor.key.privateKey, cursorStore: runtime.cursorStore });
  closing.push(() => agent.close());
  return agent;
}

/** A WorkItem authorized and offered to the Worker by the Coordinator. */
async function offered(): Promise<WorkOffer> {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const asCoordinator = { groupId: mission.groupId, membershipEpoch: 1, coordinatorEpoch: 1 };
  const contract = { ...EXAMPLE_WORK_CONTRACT, inputArtifacts: [], dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(Date.now() + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 50 } };
  await server.harness.expectOk(server.harness.send(coordinator, 'work.authorize', { workItemId, contract }, asCoordinator));
  const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
  await server.harness.expectOk(server.harness.send(coordinator, 'work.offer', { workItemId, candidateAgentIds: [workerActor.principal.id], selectionBasis }, asCoordinator));
  return { groupId: mission.groupId, workItemId } as WorkOffer;
}

function admit(runtime: AgentRuntime, owned: OwnedWork): void {
  const { contract } = owned.workItem;
  const admitted = runtime.admit({
    workItemId: owned.workItemId,
    groupId: owned.groupId,
    urgency: contract.requestedUrgency,
    deadlineMs: contract.deadline === undefined ? null : Date.parse(contract.deadline),
    effort: 'm',
    preemptible: true,
    ownershipEpoch: owned.ownershipEpoch,
  });
  expect(admitted.ok).toBe(true);
}

it('holds work accepted from the Authority across a restart and resumes the Group from its Cursor', async () => {
  const runtime = openAgentRuntime({ path, agentId: workerActor.principal.id, slots: 1 });
  const agent = agentOn(runtime);
  const worker = new MissionWeaveWorker(agent, { executionLeaseSeconds: 120 });
  await agent.connect();
  await agent.subscribe(mission.groupId);
  await until(() => worker.epochs.facts(mission.groupId)?.membershipEpoch, "the Worker's Membership Epoch");

  const owned = [await worker.accept(await offered()), await worker.accept(await offered())];
  for (const work of owned) admit(runtime, work);
  const [run] = runtime.schedule().flatMap((e) => (e.type === 'run.started' ? [e.workItemId] : []));
  const picked = owned.find((w) => w.workItemId === run) as OwnedWork;
  const waiting = owned.find((w) => w.workItemId !== run) as OwnedWork;
  expect(picked).toBeDefined();
  const execution = await worker.start(picked);
  expect(runtime.start(picked.workItemId, execution.leaseId)).toMatchObject({ status: 'running', executionLeaseId: execution.leaseId, ownershipEpoch: picked.ownershipEpoch });
  // The Agent has handled the Group's history up to here; the projection holds that Cursor.
  const head = (await eventsOf(server.db.pool, mission.groupId)).length;
  await until(() => (agent.cursor(mission.groupId) === head ? true : undefined), 'the Cursor at the head');
  await until(() => (runtime.projection.cursors.get(mission.groupId) === head ? true : undefined), 'the saved Cursor');
  worker.close();
  await agent.close();
  runtime.close();

  const again = openAgentRuntime({ path, agentId: workerActor.principal.id, slots: 1 });
  closing.push(() => again.close());
  expect(again.recovery.cursors.get(mission.groupId)).toBe(head);
  expect(again.recovery.work.lost).toEqual([expect.objectContaining({ workItemId: picked.workItemId, ownershipEpoch: picked.ownershipEpoch, blockedReason: RUNTIME_SESSION_LOST })]);
  expect(again.recovery.work.queued).toEqual([expect.objectContaining({ workItemId: waiting.workItemId, ownershipEpoch: waiting.ownershipEpoch, status: 'queued' })]);
  expect(again.state.work[picked.workItemId]).toMatchObject({ status: 'blocked', groupId: mission.groupId });
  expect(again.state.work[waiting.workItemId]).toMatchObject({ status: 'ready', groupId: mission.groupId, urgency: waiting.workItem.contract.requestedUrgency });

  // A new Agent on the same projection continues after the saved Cursor.
  const later = agentOn(again);
  const seen: GroupEvent[] = [];
  later.onEvent((event) => void seen.push(event));
  await offered();
  await later.connect();
  await later.subscribe(mission.groupId);
  await until(() => (seen.some((e) => e.kind === 'work.offer.created') ? true : undefined), 'the new offer');
  expect(seen[0]?.sequence).toBe(head + 1);
}, 60_000);
