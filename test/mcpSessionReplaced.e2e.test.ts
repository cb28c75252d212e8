/**
 * `missionweave mcp` with a WorkItem tool's Command in flight when its Session is replaced (issue 31
 * item 6; §11.3, §11.5, §15.1, §19), the MCP counterpart of runtimeHostSessionReplaced.e2e, across
 * real processes: a node started with `serve` (its reactor on), a Coordinator Agent over wss
 * offering WorkItems, and the MCP server as its own process, driven by the official SDK's `Client`
 * over stdio, connected to the node through a TCP relay (holdingProxy.ts) that can hold one
 * direction of the traffic and then drop the connections. The model's `work_submit` is sent, the
 * connection drops before the answer, and the MCP server reconnects under a new Session, which
 * fences the old one's lease:
 *
 * - lost on the way in (the relay held what the MCP server sent): the same bytes, sent again, are
 *   refused AUTH_STALE_SESSION and the outbox rebases them onto the new Session — a new Execution
 *   Lease (`work.start`) and a new Action ID — and the tool answers `submitted` with the rebased
 *   Command's Event: submitted once, under the new Action ID; the first never caused anything;
 * - applied (the relay held the node's answer): the same bytes, sent again, are answered with the
 *   original receipt; nothing is rebased, no second lease is taken, submitted once.
 *
 * Either way the Artifact is published once, the projection's outbox holds one acked row, and the
 * WorkItem is no longer held (`work_held`). Before heldWork.ts's `ending`, the new Session's loss of
 * the old lease blocked the run here while its `work.submit` was in flight, and the submitted
 * WorkItem stayed held, blocked ("lease lost: Session 1 was replaced by 2"), in the projection.
 * The Artifact is published before (a first submission refused for a criterion the Work Contract
 * lacks, as in mcpRestart.e2e), so the held traffic is the `work.submit` alone.
 */

import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openProjection, projectionPathIn } from '../src/client/runtime/projection.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { HoldingProxy } from './support/holdingProxy.js';
import { call, stdioClient } from './support/mcpNode.js';
import { processGone, servedWorkerWorld, until as untilWithin } from './support/servedWorkerWorld.js';

const { w, offered, workEvents } = servedWorkerWorld({ prefix: 'mw-mcp-replaced-' });
let proxy: HoldingProxy | undefined;
let mcp: Awaited<ReturnType<typeof stdioClient>> | undefined;
w.closing.push(() => mcp?.client.close().catch(() => undefined), () => proxy?.close());

/** Processes on a loaded machine: two minutes. */
function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  return untilWithin(check, what, 120_000);
}

async function ok(name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const server = mcp as NonNullable<typeof mcp>;
  const answer = await call(server.client, name, args).catch((error: unknown) => {
    throw new Error(`${name}: ${String(error)}; the MCP server said: ${server.stderr()}`);
  });
  expect(answer.isError, `${name}: ${JSON.stringify(answer.body)}`).toBe(false);
  return answer.body;
}

/** The MCP server, once, connected through the relay. */
async function served(): Promise<NonNullable<typeof mcp>> {
  if (mcp !== undefined) return mcp;
  const { port } = new URL(w.node.node.url);
  proxy ??= await HoldingProxy.open({ host: '127.0.0.1', port: Number(port) });
  mcp = await stdioClient(w.node.dir, 'builder', ['--url', proxy.url(w.node.node.url)]);
  return mcp;
}

const artifacts = [{ text: 'ALTER TABLE invoices ADD COLUMN ledger_id uuid;\n', deliverableId: 'migration-script' }];
const evidence = [{ type: 'deterministic_test', criterionIds: ['migration-roundtrip'], method: 'Applied and rolled back on a masked copy.', result: 'passed' }];

/** A WorkItem accepted and started through MCP, its Artifact published (its first submission refused); its ID and lease. */
async function startedWithArtifact(text: string): Promise<{ workItemId: string; leaseId: string; contentHash: string }> {
  const server = await served();
  const workItemId = await offered();
  await until(async () => ((await ok('work_offers', { groupId: w.groupId }))['offers'] as JsonObject[]).find((o) => o['workItemId'] === workItemId), 'the offer listed');
  await ok('work_accept', { groupId: w.groupId, workItemId });
  const leaseId = (await ok('work_start', { workItemId, executionLeaseSeconds: 3600 }))['executionLeaseId'] as string;
  const wrong = await call(server.client, 'work_submit', { workItemId, artifacts: [{ ...artifacts[0], text }], evidence: [{ ...evidence[0], criterionIds: ['no-such-criterion'] }] });
  expect(wrong).toMatchObject({ isError: true, body: { code: 'INVALID_COMMAND' } });
  const published = (await workEvents(workItemId)).filter((e) => e['kind'] === 'artifact.published');
  expect(published).toHaveLength(1);
  return { workItemId, leaseId, contentHash: (published[0]?.['payload'] as { artifact: { contentHash: string } }).artifact.contentHash };
}

function leasesOf(events: readonly JsonObject[]): { leaseId: string; sessionEpoch: number }[] {
  return events.filter((e) => e['kind'] === 'work.started').map((e) => (e['payload'] as { executionLease: { leaseId: string; sessionEpoch: number } }).executionLease);
}

function causeOf(event: JsonObject | undefined): string | undefined {
  return (event?.['cause'] as { id?: string } | undefined)?.id;
}

/** `work_held` neither lists `workItemId` nor tells of it blocked or withdrawn. */
async function expectNotHeld(workItemId: string): Promise<void> {
  const held = await ok('work_held');
  expect((held['groups'] as { work: JsonObject[] }[]).flatMap((g) => g.work).filter((entry) => entry['workItemId'] === workItemId)).toEqual([]);
  expect((held['notices'] as JsonObject[]).filter((n) => n['workItemId'] === workItemId)).toEqual([]);
}

/** The projection's outbox rows, read once the MCP server has let go of it. */
async function outboxAfterStop(): Promise<ReturnType<typeof openProjection>> {
  const pid = mcp?.transport.pid;
  await mcp?.client.close();
  mcp = undefined;
  if (typeof pid === 'number') await until(() => processGone(pid), 'the MCP server stopped');
  return openProjection({ path: projectionPathIn(join(w.node.dir, 'runtime', 'builder')), agentId: w.builder.id });
}

it('rebases a work_submit the new Session fenced before it was applied: a new lease and Action ID, submitted once', async () => {
  const { workItemId, leaseId, contentHash } = await startedWithArtifact(artifacts[0]?.text as string);
  const relay = proxy as HoldingProxy;
  relay.hold('up');
  const answering = call((mcp as NonNullable<typeof mcp>).client, 'work_submit', { workItemId, artifacts, evidence });
  // The work.submit (signed Evidence and all: well over a kilobyte) is held, never reaching the node.
  await until(() => (relay.heldBytes() > 1024 ? true : undefined), 'the work.submit held on its way in');
  relay.drop();
  const answer = await answering;
  expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
  expect(answer.body).toMatchObject({ workItemId, state: 'submitted', artifacts: [{ contentHash, published: false }] });

  const events = await workEvents(workItemId);
  const submitted = events.filter((e) => e['kind'] === 'work.submitted');
  expect(submitted).toHaveLength(1);
  expect(answer.body['sequence']).toBe(submitted[0]?.['sequence']);
  expect((submitted[0]?.['payload'] as { artifactHashes: string[] }).artifactHashes).toEqual([contentHash]);
  expect(events.filter((e) => e['kind'] === 'artifact.published')).toHaveLength(1);
  // A new Execution Lease under the new Session, which the rebased Command cites.
  const leases = leasesOf(events);
  expect(leases).toHaveLength(2);
  expect(leases[0]?.leaseId).toBe(leaseId);
  expect(leases[1]?.sessionEpoch).toBeGreaterThan(leases[0]?.sessionEpoch as number);
  // The WorkItem was never blocked nor reported lost on the way, and is held here no more.
  expect(events.filter((e) => e['kind'] === 'work.blocked')).toEqual([]);
  await expectNotHeld(workItemId);
  const rebasedId = causeOf(submitted[0]) as string;

  const projection = await outboxAfterStop();
  try {
    const row = projection.outbox.get(rebasedId);
    expect(row).toMatchObject({ kind: 'work.submit', state: 'acked', eventId: submitted[0]?.['eventId'] });
    const originalId = row?.rebasedFrom as string;
    expect(originalId).toMatch(/^urn:uuid:/);
    expect(originalId).not.toBe(rebasedId);
    expect(projection.outbox.get(originalId)).toBeUndefined();
    // §19: the same correlation, a new Action ID; the first one caused nothing.
    const bytes = JSON.parse(row?.bytes.toString('utf8') ?? '{}') as JsonObject;
    expect(bytes['sessionEpoch']).toBe(leases[1]?.sessionEpoch);
    expect((bytes['payload'] as JsonObject)['executionLeaseId']).toBe(leases[1]?.leaseId);
    expect(submitted[0]?.['correlationId']).toBe(bytes['correlationId']);
    expect(events.filter((e) => causeOf(e) === originalId)).toEqual([]);
    expect(projection.outbox.toSend()).toEqual([]);
  } finally {
    projection.close();
  }
}, 400_000);

it('answers a work_submit applied before the Session was replaced with its receipt: not rebased, no second lease', async () => {
  const text = 'ALTER TABLE invoices ADD COLUMN ledger_id uuid NOT NULL;\n';
  const { workItemId, contentHash } = await startedWithArtifact(text);
  const relay = proxy as HoldingProxy;
  relay.hold('down');
  const answering = call((mcp as NonNullable<typeof mcp>).client, 'work_submit', { workItemId, artifacts: [{ ...artifacts[0], text }], evidence });
  // Applied by the node, its answer held.
  const applied = await until(async () => (await workEvents(workItemId)).find((e) => e['kind'] === 'work.submitted'), 'the work.submit applied');
  relay.drop();
  const answer = await answering;
  expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
  expect(answer.body).toMatchObject({ workItemId, state: 'submitted', sequence: applied['sequence'], artifacts: [{ contentHash, published: false }] });

  const events = await workEvents(workItemId);
  expect(events.filter((e) => e['kind'] === 'work.submitted').map((e) => e['eventId'])).toEqual([applied['eventId']]);
  expect(leasesOf(events)).toHaveLength(1);
  expect(events.filter((e) => e['kind'] === 'artifact.published')).toHaveLength(1);
  expect(events.filter((e) => e['kind'] === 'work.blocked')).toEqual([]);
  await expectNotHeld(workItemId);

  const projection = await outboxAfterStop();
  try {
    const row = projection.outbox.get(causeOf(applied) as string);
    expect(row).toMatchObject({ kind: 'work.submit', state: 'acked', eventId: applied['eventId'] });
    expect(row?.rebasedFrom).toBeUndefined();
    expect(projection.outbox.toSend()).toEqual([]);
  } finally {
    projection.close();
  }
}, 400_000);
