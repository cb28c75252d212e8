/**
 * `work_submit` through `missionweave mcp` while the Authority cannot be reached, with its
 * Artifacts (issue 31 items 3 and 6; §11.5, §13.1, §19), across real processes: a node started
 * with `serve`, a Coordinator Agent offering a WorkItem, and the MCP server as its own process
 * driven by the official SDK's `Client` over stdio. The model accepts and starts it; the node is
 * stopped; `work_submit` with an inline Artifact answers `queued` — the Artifact's content and its
 * signed manifest kept in the projection (bounded: runtimeProjectionArtifacts.int), the signed
 * `work.submit` in the outbox (it failed before, the content could not be uploaded). The MCP
 * server is killed (SIGKILL), the node started again, the MCP server started again: its outbox
 * sends the kept bytes, the new Session fences them, the rebase takes a new Execution Lease, the
 * kept Artifact is uploaded and published under it, and the rebased `work.submit` cites it —
 * upload, publish, submit, in that order, each once, as the Group's Events show; the content the
 * node serves is the content kept, and nothing stays kept. Then the same without a restart: the
 * node comes back under the same MCP server, which publishes and submits on reconnect, and
 * `work_held`'s notice names the rebased Action ID next to the queued one.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, it } from 'vitest';
import { downloadArtifact } from '../src/client/artifacts.js';
import { openProjection, projectionPathIn } from '../src/client/runtime/projection.js';
import { call, stdioClient } from './support/mcpNode.js';
import { processGone, servedWorkerWorld, until as untilWithin } from './support/servedWorkerWorld.js';

const { w, offered, workEvents } = servedWorkerWorld({ prefix: 'mw-mcp-offline-artifacts-' });
let mcp: { client: Client; transport: { pid?: number | null }; stderr: () => string } | undefined;
w.closing.push(() => mcp?.client.close().catch(() => undefined));

/** Processes on a loaded machine, one of them a node starting again: two minutes. */
function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  return untilWithin(check, what, 120_000);
}

async function ok(name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const answer = await call((mcp as NonNullable<typeof mcp>).client, name, args);
  expect(answer.isError, `${name}: ${JSON.stringify(answer.body)}`).toBe(false);
  return answer.body;
}

const TEXT = 'ALTER TABLE invoices ADD COLUMN ledger_id uuid; -- written offline\n';
const evidence = [{ type: 'deterministic_test', criterionIds: ['migration-roundtrip'], method: 'Applied and rolled back on a masked copy.', result: 'passed' }];

it('keeps a work_submit and its Artifact while the Authority cannot be reached, across a SIGKILL, and uploads, publishes and submits once on reconnect', async () => {
  const { dir } = w.node;
  const { groupId } = w;
  const builderId = w.builder.id;
  mcp = await stdioClient(dir, 'builder');
  const workItemId = await offered();
  await until(async () => ((await ok('work_offers'))['offers'] as { workItemId: string }[]).some((o) => o.workItemId === workItemId) || undefined, 'the offer');
  await ok('work_accept', { groupId, workItemId });
  const firstLease = (await ok('work_start', { workItemId }))['executionLeaseId'] as string;

  await w.node.stop();
  await until(() => (/session (reconnecting|closed)/.test(mcp?.stderr() ?? '') ? true : undefined), 'the MCP server losing its Session');
  const queued = await ok('work_submit', { workItemId, artifacts: [{ text: TEXT, deliverableId: 'migration-script' }], evidence });
  expect(queued).toMatchObject({ workItemId, queued: true, kind: 'work.submit', artifacts: [{ published: false, kept: true, sizeBytes: Buffer.byteLength(TEXT) }] });
  const keptId = queued['actionId'] as string;
  const contentHash = (queued['artifacts'] as { contentHash: string }[])[0]?.contentHash as string;
  expect(contentHash).toMatch(/^sha256:[0-9a-f]{64}$/);

  // Killed while the node is down: the content, its manifest and the signed Command are on disk.
  const pid = mcp.transport.pid as number;
  process.kill(pid, 'SIGKILL');
  await until(() => processGone(pid), 'the MCP server gone');
  mcp = undefined;
  const path = projectionPathIn(join(dir, 'runtime', 'builder'));
  const before = openProjection({ path, agentId: builderId });
  try {
    const kept = before.artifacts.of(workItemId);
    expect(kept.map((a) => [a.contentHash, a.content.toString('utf8')])).toEqual([[contentHash, TEXT]]);
    expect(JSON.parse(kept[0]?.manifest ?? '{}')).toMatchObject({ contentHash, workItemId, groupId, producer: { agentId: builderId } });
    expect(before.outbox.get(keptId)).toMatchObject({ kind: 'work.submit', state: 'pending' });
    expect(JSON.parse(before.outbox.get(keptId)?.bytes.toString('utf8') ?? '{}')).toMatchObject({ payload: { workItemId, executionLeaseId: firstLease, artifactHashes: [contentHash] } });
  } finally {
    before.close();
  }
  expect((await workEvents(workItemId)).filter((e) => e['kind'] === 'artifact.published')).toEqual([]);

  await w.node.start();
  mcp = await stdioClient(dir, 'builder');
  const line = new RegExp(`outbox (\\S+): acked \\(rebased from ${keptId.replace(/[.:]/g, '\\$&')}\\)`);
  const rebasedId = await until(() => line.exec(mcp?.stderr() ?? '')?.[1], 'the kept work.submit rebased and accepted');

  const events = await workEvents(workItemId);
  const leases = events.filter((e) => e['kind'] === 'work.started').map((e) => (e['payload'] as { executionLease: { leaseId: string } }).executionLease.leaseId);
  expect(leases).toHaveLength(2);
  expect(leases[0]).toBe(firstLease);
  const published = events.filter((e) => e['kind'] === 'artifact.published');
  expect(published).toHaveLength(1);
  expect(published[0]?.['payload']).toMatchObject({ artifact: { contentHash }, executionLeaseId: leases[1] });
  const submitted = events.filter((e) => e['kind'] === 'work.submitted');
  expect(submitted).toHaveLength(1);
  expect((submitted[0]?.['cause'] as { id: string }).id).toBe(rebasedId);
  expect((submitted[0]?.['payload'] as { artifactHashes: string[] }).artifactHashes).toEqual([contentHash]);
  // Upload and publish before the submission, each once; the kept Action ID caused nothing.
  expect((published[0]?.['sequence'] as number) < (submitted[0]?.['sequence'] as number)).toBe(true);
  expect(events.filter((e) => (e['cause'] as { id?: string }).id === keptId)).toEqual([]);
  // The node serves the content kept, under its hash.
  const copy = join(w.scratch, 'downloaded.sql');
  await until(() => (w.coordinator.sessionEpoch === undefined ? undefined : true), 'the Coordinator back');
  await downloadArtifact(w.coordinator.artifactEndpoint(), contentHash, copy);
  expect(readFileSync(copy, 'utf8')).toBe(TEXT);

  const pid2 = mcp.transport.pid as number;
  await mcp.client.close();
  await until(() => processGone(pid2), 'the MCP server stopped');
  mcp = undefined;
  const after = openProjection({ path, agentId: builderId });
  try {
    expect(after.artifacts.of(workItemId)).toEqual([]);
    expect(after.artifacts.totalBytes()).toBe(0);
    expect(after.outbox.get(rebasedId)).toMatchObject({ kind: 'work.submit', state: 'acked', rebasedFrom: keptId, eventId: submitted[0]?.['eventId'] });
    expect(after.outbox.toSend()).toEqual([]);
  } finally {
    after.close();
  }
}, 400_000);

it('publishes a kept Artifact and submits once when the Authority is back under the same MCP server', async () => {
  const { groupId } = w;
  mcp = await stdioClient(w.node.dir, 'builder');
  await until(async () => ((await ok('work_held'))['recovering'] === true ? undefined : true), 'the start settled');
  const workItemId = await offered();
  await until(async () => ((await ok('work_offers'))['offers'] as { workItemId: string }[]).some((o) => o.workItemId === workItemId) || undefined, 'the offer');
  await ok('work_accept', { groupId, workItemId });
  await ok('work_start', { workItemId });
  const sessions = (mcp.stderr().match(/session open/g) ?? []).length;

  await w.node.stop();
  await until(() => (/session (reconnecting|closed)/.test(mcp?.stderr() ?? '') ? true : undefined), 'the MCP server losing its Session');
  const text = `${TEXT}-- and again, under one server\n`;
  const queued = await ok('work_submit', { workItemId, artifacts: [{ text, deliverableId: 'migration-script' }], evidence });
  expect(queued).toMatchObject({ queued: true, kind: 'work.submit', artifacts: [{ kept: true }] });
  const keptId = queued['actionId'] as string;
  const contentHash = (queued['artifacts'] as { contentHash: string }[])[0]?.contentHash as string;

  await w.node.start();
  const line = new RegExp(`outbox (\\S+): acked \\(rebased from ${keptId.replace(/[.:]/g, '\\$&')}\\)`);
  const rebasedId = await until(() => line.exec(mcp?.stderr() ?? '')?.[1], 'the kept work.submit rebased and accepted');
  expect((mcp.stderr().match(/session open/g) ?? []).length).toBeGreaterThan(sessions);
  const events = await workEvents(workItemId);
  const published = events.filter((e) => e['kind'] === 'artifact.published');
  expect(published.map((e) => (e['payload'] as { artifact: { contentHash: string } }).artifact.contentHash)).toEqual([contentHash]);
  const submitted = events.filter((e) => e['kind'] === 'work.submitted');
  expect(submitted.map((e) => (e['cause'] as { id: string }).id)).toEqual([rebasedId]);
  expect((submitted[0]?.['payload'] as { artifactHashes: string[] }).artifactHashes).toEqual([contentHash]);
  const notices = (await ok('work_held'))['notices'] as { actionId?: string; rebasedFrom?: string; what: string }[];
  expect(notices.filter((n) => n.rebasedFrom === keptId).map((n) => [n.what, n.actionId])).toEqual([['delivered', rebasedId]]);
}, 400_000);
