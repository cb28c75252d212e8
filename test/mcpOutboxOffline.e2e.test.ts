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

import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, it } from 'vitest';
import { openProjection, projectionPathIn } from '../src/client/runtime/projection.js';
import { OFFLINE_EXECUTION_EXTENSION } from '../src/protocol/offlineExecution.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { call, stdioClient } from './support/mcpNode.js';
import { processGone, servedWorkerWorld, until as untilWithin } from './support/servedWorkerWorld.js';

const { w, offered: offer, workEvents } = servedWorkerWorld({ prefix: 'mw-mcp-offline-' });
let mcp: { client: Client; stderr: () => string } | undefined;
w.closing.push(() => mcp?.client.close().catch(() => undefined));

/** Processes on a loaded machine, one of them a node starting again: two minutes. */
function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  return untilWithin(check, what, 120_000);
}

async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const answer = await call(client, name, args);
  expect(answer.isError, `${name}: ${JSON.stringify(answer.body)}`).toBe(false);
  return answer.body;
}

it('queues work_checkpoint and work_fail while the Authority cannot be reached, and applies each once, rebased, on reconnect', async () => {
  const { dir } = w.node;
  const { groupId } = w;
  const builderId = w.builder.id;
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

  await w.node.stop();
  await until(() => (/session (reconnecting|closed)/.test(mcp?.stderr() ?? '') ? true : undefined), 'the MCP server losing its Session');
  const checkpointed = await ok(client, 'work_checkpoint', { workItemId: paused, phase: 'schema drafted offline' });
  expect(checkpointed).toMatchObject({ workItemId: paused, queued: true, kind: 'work.checkpoint' });
  const failed = await ok(client, 'work_fail', { workItemId: failing, reason: 'the staging database is gone' });
  expect(failed).toMatchObject({ workItemId: failing, queued: true, kind: 'work.fail' });
  const checkpointId = checkpointed['actionId'] as string;
  const failId = failed['actionId'] as string;
  expect(checkpointId).toMatch(/^urn:uuid:/);

  await w.node.start();
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
  if (typeof pid === 'number') await until(() => processGone(pid), 'the MCP server stopped');
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
