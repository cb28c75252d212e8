/**
 * `missionweave mcp` keeps the work a model accepted through it across a restart (issue 31
 * item 6), across real processes: a node started with `serve`, a Coordinator Agent over wss
 * authorizing three WorkItems and offering them to the Worker, and the MCP server as its own process
 * driven by the official SDK's `Client` over stdio. The model accepts them, starts one,
 * checkpoints it, starts it again, and the MCP process is killed with SIGKILL mid-run. Started
 * again, `work_held` lists them under their Group (the started one resumable at its checkpoint,
 * another queued, each under its Ownership Epoch; a third, cancelled by the Coordinator while the
 * server was down, withdrawn with a notice saying why), the model starts and submits the first, and
 * the Group's Events show exactly one `work.submitted` by that Agent under the same Ownership
 * Epoch. A WorkItem started without a checkpoint when the server is killed is reported to its
 * Coordinator (`work.blocked`, `runtime-session-lost`), listed blocked with a notice, refused a
 * start, and ready again once the Coordinator unblocks it. The Commands that ended the runs are
 * in the projection's outbox, acked with the Events that recorded them; a Command a killed process
 * left unanswered there (`sent`, accepted by the Authority) goes out again on start with the same
 * bytes and is applied once (the original Event, no second); one it never sent, signed under the
 * old Session, is refused AUTH_STALE_SESSION and never applied. An inline Artifact a run published
 * before a restart (its submission refused) is adopted when the resumed run gives it again:
 * published once, submitted once. Then the bad inputs: a second process for the same Agent while one holds its projection,
 * another slot count than the projection's, and a corrupt projection file, each one line and an
 * exit code, the file left as it was.
 */

import { createPrivateKey, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { signCommand } from '../src/app/issueDocuments.js';
import { MissionWeaveAgent } from '../src/client/index.js';
import { openProjection, projectionPathIn } from '../src/client/runtime/projection.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { TestDatabase } from './support/database.js';
import { call, stdioClient, type CliPrincipal } from './support/mcpNode.js';
import { eventsOf } from './support/missions.js';
import { cli, type ServeProcess } from './support/nodeProcess.js';
import { EXAMPLE_WORK_CONTRACT } from './support/payloadExamples.js';
import { processGone, servedWorkerWorld, until } from './support/servedWorkerWorld.js';

const { w, offered, workEvents } = servedWorkerWorld({ prefix: 'mw-mcp-restart-', bystanders: ['other'] });
let dir: string;
let db: TestDatabase;
let node: ServeProcess;
let groupId: string;
let builderId: string;
let builderKey: CliPrincipal;
let coordinator: MissionWeaveAgent;
const servers: McpProcess[] = [];
/** Accepted in the first test and left queued; started without a checkpoint in the next one. */
let waiting: string;

beforeAll(() => {
  ({ dir, db, node } = w.node);
  ({ groupId, coordinator, builder: builderKey } = w);
  builderId = builderKey.id;
  w.closing.push(async () => {
    for (const server of servers) await server.client.close().catch(() => undefined);
  });
});

type McpProcess = Awaited<ReturnType<typeof stdioClient>>;

/** `missionweave mcp --as builder` as a process, with an MCP client over its stdio. */
async function startMcp(): Promise<McpProcess> {
  const server = await stdioClient(dir, 'builder');
  servers.push(server);
  return server;
}

async function ok(server: McpProcess, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const answer = await call(server.client, name, args);
  expect(answer.isError, `${name}: ${JSON.stringify(answer.body)}`).toBe(false);
  return answer.body;
}

it('work accepted, started and checkpointed through MCP survives a SIGKILL of the MCP server, and is submitted once', async () => {
  const first = await startMcp();
  const [resumed, cancelled] = [await offered(), await offered()];
  waiting = await offered();
  for (const workItemId of [resumed, waiting, cancelled]) {
    await until(async () => ((await ok(first, 'work_offers', { groupId }))['offers'] as JsonObject[]).find((o) => o['workItemId'] === workItemId), 'the offer listed');
  }
  const accepted = await ok(first, 'work_accept', { groupId, workItemId: resumed });
  const epoch = accepted['ownershipEpoch'];
  expect(epoch).toBe(1);
  await ok(first, 'work_accept', { groupId, workItemId: waiting });
  await ok(first, 'work_accept', { groupId, workItemId: cancelled });
  await ok(first, 'work_start', { workItemId: resumed });
  // One slot: the second WorkItem waits its turn, refused with a reason the model can act on.
  expect(await call(first.client, 'work_start', { workItemId: waiting })).toMatchObject({ isError: true, body: { reason: 'no_free_slot' } });
  await ok(first, 'work_checkpoint', { workItemId: resumed, phase: 'schema read', completedMilestones: ['mapped the columns'], nextStep: 'write the migration' });
  const running = await ok(first, 'work_start', { workItemId: resumed });
  expect(running).toMatchObject({ state: 'active', ownershipEpoch: epoch });

  const pid = first.transport.pid as number;
  process.kill(pid, 'SIGKILL');
  await until(() => processGone(pid), 'the MCP server gone');
  // While the server is down, the Coordinator cancels one of the held WorkItems.
  await coordinator.command('work.cancel', { workItemId: cancelled, reason: 'no longer needed' }, { groupId, membershipEpoch: 1, coordinatorEpoch: 1 });

  const second = await startMcp();
  // The restart re-checks held work with the Authority (waiting for the killed Session's lease to close).
  const held = await until(async () => {
    const listed = await ok(second, 'work_held');
    return listed['recovering'] === true ? undefined : listed;
  }, 'the restart settled', 60_000);
  expect(second.stderr()).toContain('"held":{"resumable":1,"queued":2,"lost":0,"blocked":0}');
  expect(held['groups']).toEqual([{ groupId, work: expect.any(Array) }]);
  const work = (held['groups'] as { work: JsonObject[] }[])[0]?.work ?? [];
  const byId = new Map(work.map((w) => [w['workItemId'], w]));
  expect(byId.get(resumed)).toMatchObject({ held: 'paused', state: 'queued', ownershipEpoch: epoch, goal: EXAMPLE_WORK_CONTRACT.goal, lastCheckpoint: { data: { phase: 'schema read', completedMilestones: ['mapped the columns'], nextStep: 'write the migration' } } });
  expect(byId.get(waiting)).toMatchObject({ held: 'queued', state: 'queued', ownershipEpoch: 1 });
  expect(byId.has(cancelled)).toBe(false);
  // The model is told what was withdrawn from it, and why.
  expect(held['notices']).toEqual([{ groupId, workItemId: cancelled, what: 'withdrawn', why: 'it is cancelled', at: expect.any(String) }]);

  const restarted = await ok(second, 'work_start', { workItemId: resumed });
  expect(restarted['executionLeaseId']).not.toBe(running['executionLeaseId']);
  const evidence = [{ type: 'deterministic_test', criterionIds: ['migration-roundtrip'], method: 'Applied and rolled back on a masked copy.', result: 'passed' }];
  const submitted = await ok(second, 'work_submit', { workItemId: resumed, artifacts: [{ text: 'ALTER TABLE invoices ADD COLUMN ledger_id uuid;\n', deliverableId: 'migration-script' }], evidence });
  expect(submitted).toMatchObject({ state: 'submitted' });

  const events = await workEvents(resumed);
  const submissions = events.filter((e) => e['kind'] === 'work.submitted');
  expect(submissions).toHaveLength(1);
  expect(submissions[0]?.['actor']).toEqual({ type: 'agent', id: builderId });
  expect((submissions[0]?.['payload'] as JsonObject)['ownershipEpoch']).toBe(epoch);
  expect(events.filter((e) => e['kind'] === 'work.offer.accepted')).toHaveLength(1);
  expect(events.filter((e) => e['kind'] === 'work.started')).toHaveLength(3);
  // What is held now: the waiting WorkItem only; the submitted one is listed as ended by work_status.
  const after = await ok(second, 'work_held');
  expect((after['groups'] as { work: JsonObject[] }[])[0]?.work.map((w) => w['workItemId'])).toEqual([waiting]);

  // One writer per projection: a second server for the same Agent is refused in one line.
  const locked = cli(db.url, 'mcp', '--as', 'builder', '--dir', dir);
  expect(locked.code, locked.stderr).toBe(69);
  expect(locked.stderr.trim().split('\n')).toHaveLength(1);
  expect(locked.stderr).toContain('is held by another process');

  // The client closes: the server stops and lets go of the projection, which keeps its slot count.
  const pid2 = second.transport.pid as number;
  await second.client.close();
  await until(() => processGone(pid2), 'the second MCP server stopped');
  const slots = cli(db.url, 'mcp', '--as', 'builder', '--dir', dir, '--slots', '2');
  expect(slots.code, slots.stderr).toBe(2);
  expect(slots.stderr.trim().split('\n')).toHaveLength(1);
  expect(slots.stderr).toContain('this runtime was created with 1 slots, not 2');

  // The Commands that ended the runs were kept in the projection's outbox, then sent with those
  // bytes: each answered (acked) with the Event that recorded it, caused by its Action ID.
  const projection = openProjection({ path: projectionPathIn(join(dir, 'runtime', 'builder')), agentId: builderId });
  try {
    const rows = projection.outbox.toSend();
    expect(rows).toEqual([]);
    const submit = submissions[0] as JsonObject;
    const actionId = (submit['cause'] as { id: string }).id;
    const kept = projection.outbox.get(actionId);
    expect(kept).toMatchObject({ kind: 'work.submit', state: 'acked', eventId: submit['eventId'], groupId });
    const bytes = JSON.parse(kept?.bytes.toString('utf8') ?? '{}') as JsonObject;
    expect(bytes).toMatchObject({ actionId, kind: 'work.submit', actor: { type: 'agent', id: builderId }, payload: { workItemId: resumed, ownershipEpoch: epoch } });
    const checkpointed = events.filter((e) => e['kind'] === 'work.checkpointed');
    expect(checkpointed).toHaveLength(1);
    expect(projection.outbox.get((checkpointed[0]?.['cause'] as { id: string }).id)).toMatchObject({ kind: 'work.checkpoint', state: 'acked', eventId: checkpointed[0]?.['eventId'] });
  } finally {
    projection.close();
  }
}, 300_000);

it('work started through MCP without a checkpoint is reported to its Coordinator after a SIGKILL, blocked until unblocked', async () => {
  const first = await startMcp();
  await until(async () => ((await ok(first, 'work_held'))['recovering'] === true ? undefined : true), 'the start settled');
  await ok(first, 'work_start', { workItemId: waiting });
  const pid = first.transport.pid as number;
  process.kill(pid, 'SIGKILL');
  await until(() => processGone(pid), 'the MCP server gone');

  const second = await startMcp();
  expect(second.stderr()).toContain('"held":{"resumable":0,"queued":0,"lost":1,"blocked":0}');
  const held = await until(async () => {
    const listed = await ok(second, 'work_held');
    return listed['recovering'] === true ? undefined : listed;
  }, 'the restart settled', 60_000);
  expect((held['groups'] as { work: JsonObject[] }[])[0]?.work).toMatchObject([{ workItemId: waiting, held: 'blocked', blockedReason: 'runtime-session-lost', ownershipEpoch: 1 }]);
  expect(held['notices']).toEqual([{ groupId, workItemId: waiting, what: 'blocked', why: expect.stringMatching(/^runtime-session-lost: /), at: expect.any(String) }]);
  expect(await call(second.client, 'work_start', { workItemId: waiting })).toMatchObject({ isError: true, body: { reason: 'blocked' } });
  const blocked = (await workEvents(waiting)).filter((e) => e['kind'] === 'work.blocked');
  expect(blocked).toHaveLength(1);
  expect(blocked[0]?.['actor']).toEqual({ type: 'agent', id: builderId });

  // The Coordinator unblocks it: ready again here, and the model runs it from the start.
  await coordinator.command('work.unblock', { workItemId: waiting }, { groupId, membershipEpoch: 1, coordinatorEpoch: 1 });
  await until(async () => ((await ok(second, 'work_held'))['groups'] as { work: JsonObject[] }[])[0]?.work.find((w) => w['held'] === 'queued'), 'unblocked here');
  await ok(second, 'work_start', { workItemId: waiting });
  expect(await ok(second, 'work_fail', { workItemId: waiting, reason: 'the staging database is unreachable' })).toMatchObject({ state: 'failed' });
  expect((await ok(second, 'work_held'))['groups']).toEqual([]);
}, 300_000);

it('a Command left unanswered in the outbox by a killed process is sent again with the same bytes on start, and applied once', async () => {
  for (const server of servers.splice(0)) {
    const pid = server.transport.pid;
    await server.client.close().catch(() => undefined);
    if (pid !== undefined && pid !== null) await until(() => processGone(pid), 'the MCP server stopped');
  }
  // A process of the builder signed a Command, kept it in the outbox and sent it; the Authority
  // accepted it, and the process died before it recorded the answer (the row stays `sent`).
  const builderFile = builderKey;
  const privateKey = createPrivateKey(readFileSync(builderFile.privateKeyFile));
  const builder = new MissionWeaveAgent({ url: node.url, ca: readFileSync(join(dir, 'tls', 'cert.pem')), agentId: builderId, keyId: builderFile.keyId, privateKey });
  await builder.connect();
  const conversationId = `urn:missionweave:conversation:${groupId.split(':').pop() as string}`;
  const signed = signCommand({ actor: { type: 'agent', id: builderId }, kind: 'message.post', groupId, issuedAt: new Date().toISOString(), sessionEpoch: builder.sessionEpoch as number, membershipEpoch: 1, payload: { messageId: `urn:uuid:${randomUUID()}`, conversationId, content: 'sent before a crash' } }, { keyId: builderFile.keyId, privateKey });
  const text = JSON.stringify(signed);
  const actionId = signed['actionId'] as string;
  const original = await builder.sendSigned(text);
  // A second one was signed in that Session and kept, but never reached the Authority.
  const unsent = signCommand({ actor: { type: 'agent', id: builderId }, kind: 'message.post', groupId, issuedAt: new Date().toISOString(), sessionEpoch: builder.sessionEpoch as number, membershipEpoch: 1, payload: { messageId: `urn:uuid:${randomUUID()}`, conversationId, content: 'never sent' } }, { keyId: builderFile.keyId, privateKey });
  const unsentId = unsent['actionId'] as string;
  await builder.close();
  const path = projectionPathIn(join(dir, 'runtime', 'builder'));
  const before = openProjection({ path, agentId: builderId });
  before.outbox.add(text);
  before.outbox.markSent(actionId);
  before.outbox.add(JSON.stringify(unsent));
  before.close();

  // Started again (a new Session): the outbox goes out first, with the bytes it was kept as.
  const server = await startMcp();
  await until(() => (server.stderr().includes(`outbox ${actionId}: acked`) ? true : undefined), 'the kept Command answered');
  await until(() => (server.stderr().includes(`outbox ${unsentId}: refused AUTH_STALE_SESSION`) ? true : undefined), 'the unsent Command refused');
  const pid = server.transport.pid as number;
  await server.client.close();
  await until(() => processGone(pid), 'the MCP server stopped');
  const after = openProjection({ path, agentId: builderId });
  try {
    const kept = after.outbox.get(actionId);
    expect(kept).toMatchObject({ state: 'acked', kind: 'message.post', eventId: original.eventId });
    expect(kept?.bytes.toString('utf8')).toBe(text);
    // The one the Authority never saw carries a fenced Session Epoch: refused, never applied.
    expect(after.outbox.get(unsentId)).toMatchObject({ state: 'refused', refusal: 'AUTH_STALE_SESSION' });
  } finally {
    after.close();
  }
  // Applied once: one Event caused by that Action ID, the one the first sending got.
  const caused = (await eventsOf(db.pool, groupId)).filter((e) => (e['cause'] as { id: string }).id === actionId);
  expect(caused.map((e) => e['eventId'])).toEqual([original.eventId]);
  expect((await eventsOf(db.pool, groupId)).filter((e) => (e['cause'] as { id: string }).id === unsentId)).toEqual([]);
}, 180_000);

it('an inline Artifact this WorkItem published before a restart is adopted when the model submits it again, and submitted once', async () => {
  const first = await startMcp();
  await until(async () => ((await ok(first, 'work_held'))['recovering'] === true ? undefined : true), 'the start settled');
  const workItemId = await offered();
  await until(async () => ((await ok(first, 'work_offers', { groupId }))['offers'] as JsonObject[]).find((o) => o['workItemId'] === workItemId), 'the offer listed');
  await ok(first, 'work_accept', { groupId, workItemId });
  await ok(first, 'work_start', { workItemId });
  const artifacts = [{ text: 'ALTER TABLE invoices ADD COLUMN ledger_id uuid NOT NULL;\n', deliverableId: 'migration-script' }];
  const evidence = [{ type: 'deterministic_test', criterionIds: ['migration-roundtrip'], method: 'Applied and rolled back on a masked copy.', result: 'passed' }];
  // The model's first submission cites a criterion the Work Contract does not have: its Artifact
  // is published, the submission refused (as if the server had died between the two).
  const wrong = await call(first.client, 'work_submit', { workItemId, artifacts, evidence: [{ ...evidence[0], criterionIds: ['no-such-criterion'] }] });
  expect(wrong).toMatchObject({ isError: true, body: { code: 'INVALID_COMMAND', message: expect.stringContaining('criterion') } });
  const published = (await workEvents(workItemId)).filter((e) => e['kind'] === 'artifact.published');
  expect(published).toHaveLength(1);
  const contentHash = (published[0]?.['payload'] as { artifact: { contentHash: string } }).artifact.contentHash;
  await ok(first, 'work_checkpoint', { workItemId, phase: 'migration written', nextStep: 'submit it' });
  const pid = first.transport.pid as number;
  process.kill(pid, 'SIGKILL');
  await until(() => processGone(pid), 'the MCP server gone');

  // Restarted, the model resumes and gives the same text: adopted, not refused as already published.
  const second = await startMcp();
  await until(async () => ((await ok(second, 'work_held'))['recovering'] === true ? undefined : true), 'the restart settled');
  await ok(second, 'work_start', { workItemId });
  const submitted = await ok(second, 'work_submit', { workItemId, artifacts, evidence });
  expect(submitted).toMatchObject({ state: 'submitted', artifacts: [{ contentHash, published: false, adopted: true }] });
  expect(second.stderr()).toContain(`adopted ${contentHash} for ${workItemId}`);
  const events = await workEvents(workItemId);
  expect(events.filter((e) => e['kind'] === 'artifact.published')).toHaveLength(1);
  const submissions = events.filter((e) => e['kind'] === 'work.submitted');
  expect(submissions).toHaveLength(1);
  expect((submissions[0]?.['payload'] as { artifactHashes: string[] }).artifactHashes).toEqual([contentHash]);
  await second.client.close();
}, 180_000);

it('refuses a corrupt projection file in one line, exit 65, and leaves the file as it was', () => {
  const file = join(dir, 'runtime', 'other', 'projection.sqlite');
  mkdirSync(join(dir, 'runtime', 'other'), { recursive: true });
  const garbage = Buffer.from('this is not a SQLite database, but it holds what a backup could restore\n'.repeat(64));
  writeFileSync(file, garbage);
  const corrupt = cli(db.url, 'mcp', '--as', 'other', '--dir', dir);
  expect(corrupt.code, corrupt.stderr).toBe(65);
  expect(corrupt.stderr.trim().split('\n')).toHaveLength(1);
  expect(corrupt.stderr).toContain(`missionweave mcp: ${file}: not a SQLite database`);
  expect(corrupt.stderr).toContain('nothing overwritten');
  expect(readFileSync(file).equals(garbage)).toBe(true);
});
