/**
 * `missionweave mcp` while the Authority cannot be reached (issue 31 items 3 and 4, §11.5), across
 * real processes: a node started with `serve`, a Coordinator Agent offering two WorkItems, and the
 * MCP server as its own process driven by the official SDK's `Client` over stdio. The model
 * accepts and starts both; then the node is stopped. `work_checkpoint` of one and `work_fail` of
 * the other answer `queued` with their Action IDs (CONNECTION_CLOSED before) — signed and kept in
 * the outbox. The node is started again on the same port; the MCP server reconnects under a new
 * Session, its outbox is sent, the kept bytes are fenced (AUTH_STALE_SESSION) and rebased onto the
 * new Session under new Action IDs (§19), each replacing its queued one in the outbox, and each is
 * applied once: one `work.checkpointed` and one `work.failed`, caused by the new Action IDs, as the
 * Group's Events show; the queued ones caused nothing, and `work_held` names both. The checkpointed
 * WorkItem can be started again, and its kept checkpoint carries the critical bounded offline
 * execution binding to its historical lease (§11.5), unchanged by the rebase.
 */

import { createPrivateKey, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signCommand } from '../src/app/issueDocuments.js';
import { MissionWeaveAgent } from '../src/client/index.js';
import { openProjection, projectionPathIn } from '../src/client/runtime/projection.js';
import { OFFLINE_EXECUTION_EXTENSION } from '../src/protocol/offlineExecution.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { call, freePort, stdioClient } from './support/mcpNode.js';
import { eventsOf } from './support/missions.js';
import { cli, lastJson, serve, type ServeProcess } from './support/nodeProcess.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { postCommands } from './support/refusals.js';

const scratch = mkdtempSync(join(tmpdir(), 'mw-mcp-offline-'));
const dir = join(scratch, 'node');

let db: TestDatabase;
let node: ServeProcess;
let port: number;
let groupId: string;
let builderId: string;
let coordinator: MissionWeaveAgent;
let mcp: { client: Client; stderr: () => string } | undefined;

async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 120_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  const run = (...args: string[]): Record<string, unknown> => {
    const result = cli(db.url, ...args);
    expect(result.code, result.stderr).toBe(0);
    return lastJson(result.stdout);
  };
  port = await freePort();
  run('init', '--dir', dir, '--port', String(port));
  const planner = run('agent', 'add', 'planner', '--dir', dir, '--capability', 'project.planning@1.0.0') as { id: string; keyId: string; privateKeyFile: string };
  builderId = (run('agent', 'add', 'builder', '--dir', dir, '--capability', 'acme.sql-migration@1.5.0') as { id: string }).id;
  const human = run('human', 'add', 'alice', '--dir', dir) as { id: string; keyId: string; privateKeyFile: string };
  node = await serve(db.url, dir, port);
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
  await mcp?.client.close().catch(() => undefined);
  await coordinator?.close();
  await node?.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

async function offer(): Promise<string> {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const asCoordinator = { groupId, membershipEpoch: 1, coordinatorEpoch: 1 };
  const contract = { ...EXAMPLE_WORK_CONTRACT, inputArtifacts: [], dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(Date.now() + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 20 } };
  await coordinator.command('work.authorize', { workItemId, contract }, asCoordinator);
  const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
  await coordinator.command('work.offer', { workItemId, candidateAgentIds: [builderId], selectionBasis }, asCoordinator);
  return workItemId;
}

async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const answer = await call(client, name, args);
  expect(answer.isError, `${name}: ${JSON.stringify(answer.body)}`).toBe(false);
  return answer.body;
}

async function workEvents(workItemId: string): Promise<JsonObject[]> {
  return (await eventsOf(db.pool, groupId)).filter((e) => (e['payload'] as { workItemId?: string }).workItemId === workItemId);
}

it('queues work_checkpoint and work_fail while the Authority cannot be reached, and applies each once, rebased, on reconnect', async () => {
  mcp = await stdioClient(dir, 'builder', ['--slots', '2']);
  const { client } = mcp;
  const paused = await offer();
  const failing = await offer();
  const leases = new Map<string, string>();
  for (const workItemId of [paused, failing]) {
    await until(async () => ((await ok(client, 'work_offers'))['offers'] as { workItemId: string }[]).some((o) => o.workItemId === workItemId) || undefined, 'the offer');
    await ok(client, 'work_accept', { groupId, workItemId });
    leases.set(workItemId, (await ok(client, 'work_start', { workItemId }))['executionLeaseId'] as string);
  }

  await node.kill('SIGTERM');
  await until(() => (/session (reconnecting|closed)/.test(mcp?.stderr() ?? '') ? true : undefined), 'the MCP server losing its Session');
  const checkpointed = await ok(client, 'work_checkpoint', { workItemId: paused, phase: 'schema drafted offline' });
  expect(checkpointed).toMatchObject({ workItemId: paused, queued: true, kind: 'work.checkpoint' });
  const failed = await ok(client, 'work_fail', { workItemId: failing, reason: 'the staging database is gone' });
  expect(failed).toMatchObject({ workItemId: failing, queued: true, kind: 'work.fail' });
  const checkpointId = checkpointed['actionId'] as string;
  const failId = failed['actionId'] as string;
  expect(checkpointId).toMatch(/^urn:uuid:/);

  node = await serve(db.url, dir, port);
  const rebasedIds = new Map<string, string>();
  for (const actionId of [checkpointId, failId]) {
    const line = new RegExp(`outbox (\\S+): acked \\(rebased from ${actionId.replace(/[.:]/g, '\\$&')}\\)`);
    rebasedIds.set(actionId, await until(() => line.exec(mcp?.stderr() ?? '')?.[1], `${actionId} rebased and accepted`));
  }
  const [newCheckpointId, newFailId] = [rebasedIds.get(checkpointId) as string, rebasedIds.get(failId) as string];
  expect(newCheckpointId).not.toBe(checkpointId);
  expect(newFailId).not.toBe(failId);
  const pausedEvents = await workEvents(paused);
  expect(pausedEvents.filter((e) => e['kind'] === 'work.checkpointed').map((e) => (e['cause'] as { id: string }).id)).toEqual([newCheckpointId]);
  const failedEvents = await workEvents(failing);
  expect(failedEvents.filter((e) => e['kind'] === 'work.failed').map((e) => (e['cause'] as { id: string }).id)).toEqual([newFailId]);
  expect([...pausedEvents, ...failedEvents].filter((e) => (e['cause'] as { id?: string } | undefined)?.id === checkpointId || (e['cause'] as { id?: string } | undefined)?.id === failId)).toEqual([]);
  const notices = (await ok(client, 'work_held'))['notices'] as { actionId?: string; rebasedFrom?: string; what: string; why: string }[];
  const told = notices.filter((n) => n.rebasedFrom === failId || n.rebasedFrom === checkpointId);
  expect(told.map((n) => [n.what, n.actionId, n.rebasedFrom])).toEqual(expect.arrayContaining([['delivered', newCheckpointId, checkpointId], ['delivered', newFailId, failId]]));
  expect(told).toHaveLength(2);
  expect(told.find((n) => n.rebasedFrom === failId)?.why).toContain(`as ${newFailId} (rebased from ${failId})`);

  // The checkpointed WorkItem is owned and waiting: it starts again under a new lease.
  const again = await until(async () => {
    const answer = await call(client, 'work_start', { workItemId: paused });
    return answer.isError ? undefined : answer.body;
  }, 'the checkpointed WorkItem started again');
  expect(again).toMatchObject({ workItemId: paused, state: 'active' });

  // The checkpoint kept offline carries the critical §11.5 binding to its historical lease, kept
  // through the rebase; the failure carries none (the Authority interprets it on checkpoints only).
  const pid = (mcp.client.transport as { pid?: number | null } | undefined)?.pid;
  await mcp.client.close();
  if (typeof pid === 'number') await until(() => { try { process.kill(pid, 0); return undefined; } catch { return true; } }, 'the MCP server stopped');
  mcp = undefined;
  const projection = openProjection({ path: projectionPathIn(join(dir, 'runtime', 'builder')), agentId: builderId });
  try {
    expect(projection.outbox.get(checkpointId)).toBeUndefined();
    expect(projection.outbox.get(failId)).toBeUndefined();
    expect(projection.outbox.get(newCheckpointId)).toMatchObject({ state: 'acked', rebasedFrom: checkpointId });
    const checkpoint = JSON.parse(projection.outbox.get(newCheckpointId)?.bytes.toString('utf8') ?? '{}') as JsonObject;
    const binding = (checkpoint['extensions'] as Record<string, { critical: boolean; data: JsonObject }>)[OFFLINE_EXECUTION_EXTENSION];
    expect(binding?.critical).toBe(true);
    expect(binding?.data).toMatchObject({ agentId: builderId, groupId, workItemId: paused, executionLeaseId: leases.get(paused) });
    expect(binding?.data['sessionEpoch'] as number).toBeLessThan(checkpoint['sessionEpoch'] as number);
    expect((checkpoint['payload'] as JsonObject)['executionLeaseId']).not.toBe(leases.get(paused));
    const failure = JSON.parse(projection.outbox.get(newFailId)?.bytes.toString('utf8') ?? '{}') as JsonObject;
    expect(failure['actionId']).toBe(newFailId);
    expect(failure['extensions']).toBeUndefined();
  } finally {
    projection.close();
  }
}, 400_000);
