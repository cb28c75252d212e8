/**
 * The runtime host's intake (src/client/runtime/hostIntake.ts, hostAdmission.ts) against a real
 * node (wss, TLS, PostgreSQL): work this Agent came to own other than through the host's own
 * offer handling is picked up (from the Group's view on start, from its Events while running) and
 * run; an offer the runtime would refuse is declined (not accepted); owned work the runtime refuses
 * (a per-Group quota of one) is released at once with `work.fail`, and the Coordinator's new offer
 * of it is accepted once there is room.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AuthorityReactor } from '../src/app/reactor/authorityReactor.js';
import { MissionWeaveAgent } from '../src/client/index.js';
import { RuntimeHost } from '../src/client/runtime/hostRuntime.js';
import type { JobHandler } from '../src/client/runtime/job.js';
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
const dir = mkdtempSync(join(tmpdir(), 'mw-intake-e2e-'));
const closing: (() => unknown)[] = [];
const asCoordinator = (): { groupId: string; membershipEpoch: number; coordinatorEpoch: number } => ({ groupId: mission.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });

async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
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
  const reactor = AuthorityReactor.start({ authority: server.harness.authority, pool: server.db.pool, logger: pino({ level: 'silent' }) });
  closing.push(() => reactor.close());
});

afterAll(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  rmSync(dir, { recursive: true, force: true });
});

function agentOf(runtime?: AgentRuntime): MissionWeaveAgent {
  return new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: workerActor.principal.id, keyId: workerActor.key.keyId, privateKey: workerActor.key.privateKey, ...(runtime === undefined ? {} : { cursorStore: runtime.cursorStore }) });
}

function hostOn(path: string, handler: JobHandler): { host: RuntimeHost; runtime: AgentRuntime; lines: string[] } {
  const runtime = openAgentRuntime({ path, agentId: workerActor.principal.id, slots: 1 });
  const lines: string[] = [];
  const host = new RuntimeHost({ agent: agentOf(runtime), runtime, handler, executionLeaseSeconds: 60, log: (line) => void lines.push(line) });
  return { host, runtime, lines };
}

async function authorize(): Promise<string> {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const contract = { ...EXAMPLE_WORK_CONTRACT, goal: `${EXAMPLE_WORK_CONTRACT.goal} (${workItemId})`, inputArtifacts: [], dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(Date.now() + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 50 } };
  await server.harness.expectOk(server.harness.send(coordinator, 'work.authorize', { workItemId, contract }, asCoordinator()));
  return workItemId;
}

async function offerAgain(workItemId: string): Promise<void> {
  const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
  await server.harness.expectOk(server.harness.send(coordinator, 'work.offer', { workItemId, candidateAgentIds: [workerActor.principal.id], selectionBasis }, asCoordinator()));
}

async function offer(): Promise<string> {
  const workItemId = await authorize();
  await offerAgain(workItemId);
  return workItemId;
}

async function kindsOf(workItemId: string): Promise<string[]> {
  return (await eventsOf(server.db.pool, mission.groupId)).filter((e) => (e['payload'] as { workItemId?: string }).workItemId === workItemId).map((e) => e['kind'] as string);
}

async function eventOf(workItemId: string, kind: string): Promise<JsonObject | undefined> {
  return (await eventsOf(server.db.pool, mission.groupId)).find((e) => (e['payload'] as { workItemId?: string }).workItemId === workItemId && e['kind'] === kind);
}

const submitting: JobHandler = async (job) => {
  const { contentHash } = await job.publishArtifact(`done ${job.workItemId}`, { mediaType: 'text/plain' });
  await job.submit({ artifactHashes: [contentHash] });
};

it('picks up work the Agent accepted through another client while the host was down (from the view on start) and runs it once', async () => {
  const workItemId = await offer();
  // Another client of the same Agent (the CLI, MCP, its own code) accepts; the host is not running.
  const other = agentOf();
  await other.connect();
  await other.command('work.accept_offer', { workItemId }, { groupId: mission.groupId, workItemId, membershipEpoch: 1 });
  await other.close();

  const { host, runtime, lines } = hostOn(join(dir, 'a', 'projection.sqlite'), submitting);
  closing.push(() => runtime.close());
  await host.start();
  await until(() => eventOf(workItemId, 'work.submitted'), 'the picked-up WorkItem submitted');
  expect(lines.filter((line) => line.startsWith(`picked up ${workItemId}`))).toHaveLength(1);
  expect((await kindsOf(workItemId)).filter((kind) => kind === 'work.offer.accepted')).toHaveLength(1);
  expect((await kindsOf(workItemId)).filter((kind) => kind === 'work.submitted')).toHaveLength(1);
  await host.stop(100);
}, 90_000);

it('a per-Group quota of one: an offer over it is declined (not accepted); owned work over it is released with work.fail; both run once there is room', async () => {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const ran: string[] = [];
  let first = '';
  const { host, runtime, lines } = hostOn(join(dir, 'b', 'projection.sqlite'), async (job) => {
    ran.push(job.workItemId);
    if (job.workItemId === first) await gate;
    await submitting(job);
  });
  closing.push(() => runtime.close(), () => host.stop(100));
  expect(runtime.setGroupPolicy(mission.groupId, { weight: 1, priorityClass: 'normal', maxConcurrent: 1, maxQueued: 1, admitting: true }).ok).toBe(true);
  await host.start();

  first = await offer();
  await until(() => (ran.includes(first) ? true : undefined), 'the first WorkItem running');
  const second = await offer(); // ready: the one queued place
  await until(() => (runtime.state.work[second] !== undefined ? true : undefined), 'the second WorkItem admitted');
  const over = await offer();
  const later = await offer();
  await until(() => (lines.includes(`declined ${over}: group-queue-full`) && lines.includes(`declined ${later}: group-queue-full`) ? true : undefined), 'both offers declined');
  expect(await eventOf(over, 'work.offer.accepted')).toBeUndefined();

  // Accepted all the same by another client of the Agent: the runtime refuses it, the host releases it.
  await host.agent.command('work.accept_offer', { workItemId: over }, { groupId: mission.groupId, workItemId: over, membershipEpoch: 1 });
  const failed = await until(() => eventOf(over, 'work.failed'), 'the refused WorkItem released (work.failed)');
  expect((failed['payload'] as { reason: string }).reason).toBe("declined by the Worker's runtime: capacity (group-queue-full); offer it again or elsewhere");
  await until(() => (lines.includes(`released ${over}: group-queue-full`) ? true : undefined), 'the release logged');
  expect(runtime.state.work[over]).toBeUndefined();

  open();
  await until(() => eventOf(second, 'work.submitted'), 'the queued WorkItem submitted');
  // Room again: work accepted elsewhere is picked up from its Event; the Coordinator's new offer is accepted.
  await host.agent.command('work.accept_offer', { workItemId: later }, { groupId: mission.groupId, workItemId: later, membershipEpoch: 1 });
  await until(() => eventOf(later, 'work.submitted'), 'the WorkItem picked up from its Event submitted');
  expect(lines.some((line) => line.startsWith(`picked up ${later}`))).toBe(true);
  await offerAgain(over);
  await until(async () => ((await kindsOf(over)).includes('work.submitted') ? true : undefined), 'the re-offered WorkItem submitted');
  expect(ran.filter((id) => id === over)).toHaveLength(1);
  expect((await kindsOf(first)).filter((kind) => kind === 'work.submitted')).toHaveLength(1);
}, 120_000);
