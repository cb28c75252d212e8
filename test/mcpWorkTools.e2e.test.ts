/**
 * The WorkItem tools of `missionweave mcp` (issue 14, part 3) driven as a model drives them:
 * through `missionweave mcp`'s own server (`createMcpServer`) and a real MCP `Client` joined by the SDK's in-memory transport, each tool
 * registered as the MCP server registers them (a result as JSON text and structuredContent, a
 * throw as `isError` with `{code, reason, message}`), against a real node over wss and TLS. An
 * SDK Coordinator authorizes a WorkItem and offers it to two Worker Agents: both list it, one
 * accepts and the other is refused WORK_ALREADY_OWNED; the winner starts it, has an oversized
 * inline Artifact refused before anything is sent and Evidence for an unknown criterion refused
 * by the Authority, then submits the text Artifact with Evidence (published once across both
 * calls), and the Coordinator sees the submission. A second WorkItem goes through a checkpoint, a
 * restart under a new lease, and a reported failure.
 */

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadArtifact, MissionWeaveAgent, MissionWeaveCoordinator, MissionWeaveWorker, type WorkItemDocument } from '../src/client/index.js';
import { MAX_INLINE_ARTIFACT_BYTES } from '../src/client/limits.js';
import { HeldWork } from '../src/client/mcp/heldWork.js';
import { createMcpServer } from '../src/client/mcp/mcpServer.js';
import { openAgentRuntime, type AgentRuntime } from '../src/client/runtime/runtime.js';
import type { McpToolSpec, ToolContext } from '../src/client/mcp/toolSpec.js';
import { workTools } from '../src/client/mcp/workTools.js';
import type { WorkAuthorizePayload, WorkOfferPayload } from '../src/client/workDocuments.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { WORKER_CAPABILITIES } from './support/publishedWork.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let mission: MissionRefs;
let coordinator: MissionWeaveCoordinator;
const agents: MissionWeaveAgent[] = [];
const workers: MissionWeaveWorker[] = [];
const runtimes: AgentRuntime[] = [];
const seenByCoordinator = new Map<string, WorkItemDocument>();

interface McpWorker {
  readonly agentId: string;
  readonly agent: MissionWeaveAgent;
  readonly client: Client;
}
let alice: McpWorker;
let bob: McpWorker;

async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `missionweave mcp`'s own server (mcpServer.ts) over `specs`, joined to a client in memory. */
async function connectTools(specs: readonly McpToolSpec[], context: ToolContext): Promise<Client> {
  const mcp = createMcpServer(context, specs);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'model', version: '0.0.0' });
  await mcp.connect(serverSide);
  await client.connect(clientSide);
  afterAll(() => client.close());
  return client;
}

async function mcpWorker(actor: Actor): Promise<McpWorker> {
  const agent = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: actor.principal.id, keyId: actor.key.keyId, privateKey: actor.key.privateKey });
  const worker = new MissionWeaveWorker(agent, { executionLeaseSeconds: 120 });
  agents.push(agent);
  workers.push(worker);
  await agent.connect();
  await agent.subscribe(mission.groupId);
  await until(() => worker.epochs.facts(mission.groupId)?.membershipEpoch, "the Worker's Membership Epoch");
  const context: ToolContext = {
    agent,
    agentId: actor.principal.id,
    extension: 'test',
    command: (kind, payload, groupId, options = {}) => agent.command(kind, payload, { groupId, ...options }),
    read: () => Promise.reject(new Error('the work tools read nothing over HTTPS')),
  };
  const runtime = openAgentRuntime({ path: join(mkdtempSync(join(tmpdir(), 'mw-mcp-held-')), 'projection.sqlite'), agentId: actor.principal.id, slots: 1 });
  runtimes.push(runtime);
  const held = new HeldWork({ agent, worker, runtime });
  agent.onEvent((event) => held.observe(event));
  return { agentId: actor.principal.id, agent, client: await connectTools(workTools(held), context) };
}

interface Called {
  readonly isError: boolean;
  readonly result: JsonObject;
}

async function call(who: McpWorker, name: string, args: JsonObject = {}): Promise<Called> {
  const answer = await who.client.callTool({ name, arguments: args });
  const text = (answer.content as { type: string; text: string }[])[0]?.text ?? '{}';
  const result = JSON.parse(text) as JsonObject;
  expect(answer.structuredContent).toEqual(result);
  return { isError: answer.isError === true, result };
}

async function ok(who: McpWorker, name: string, args: JsonObject = {}): Promise<JsonObject> {
  const { isError, result } = await call(who, name, args);
  expect(isError, JSON.stringify(result)).toBe(false);
  return result;
}

/** A WorkItem the SDK Coordinator authorized and offered to both Workers; its ID. */
async function offeredWork(): Promise<string> {
  const contract = { ...EXAMPLE_WORK_CONTRACT, inputArtifacts: [], dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(Date.now() + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 50 } };
  const { workItem } = await coordinator.authorize(mission.groupId, { contract } as unknown as WorkAuthorizePayload);
  const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as unknown as WorkOfferPayload).selectionBasis;
  await coordinator.offer(mission.groupId, { workItemId: workItem.workItemId, candidateAgentIds: [alice.agentId, bob.agentId], selectionBasis });
  return workItem.workItemId;
}

const offersOf = async (who: McpWorker) => (await ok(who, 'work_offers', { groupId: mission.groupId }))['offers'] as JsonObject[];
const statusOf = async (who: McpWorker, workItemId: string) => ((await ok(who, 'work_status'))['work'] as JsonObject[]).find((w) => w['workItemId'] === workItemId);
const payloadsOf = async (kind: string, workItemId: string) =>
  (await eventsOf(server.db.pool, mission.groupId)).filter((e) => e['kind'] === kind && (e['payload'] as JsonObject)['workItemId'] === workItemId).map((e) => e['payload'] as JsonObject);

beforeAll(async () => {
  server = await startTestServer();
  const owner = await server.harness.human('owner');
  const lead = await server.harness.agent('coordinator');
  const [a, b] = [await server.harness.agent('alice', WORKER_CAPABILITIES), await server.harness.agent('bob', WORKER_CAPABILITIES)];
  mission = await createMission(server.harness, owner, lead);
  const leadAgent = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: lead.principal.id, keyId: lead.key.keyId, privateKey: lead.key.privateKey });
  agents.push(leadAgent);
  coordinator = new MissionWeaveCoordinator(leadAgent);
  coordinator.onWorkItem((workItem) => void seenByCoordinator.set(workItem.workItemId, workItem));
  await leadAgent.connect();
  await leadAgent.subscribe(mission.groupId);
  await until(() => coordinator.epochs.facts(mission.groupId)?.coordinatorEpoch, 'the Coordinator Epoch');
  for (const worker of [a, b]) await coordinator.admit(mission.groupId, worker.principal.id);
  alice = await mcpWorker(a);
  bob = await mcpWorker(b);
});

afterAll(async () => {
  for (const worker of workers) worker.close();
  coordinator?.close();
  for (const agent of agents) await agent.close();
  for (const runtime of runtimes) runtime.close();
});

describe('missionweave mcp: the WorkItem tools', () => {
  it('publishes every tool with its input schema', async () => {
    const { tools } = await alice.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['work_accept', 'work_checkpoint', 'work_fail', 'work_held', 'work_offers', 'work_start', 'work_status', 'work_submit']);
    const submit = tools.find((t) => t.name === 'work_submit');
    expect(submit?.inputSchema.required).toEqual(['workItemId', 'artifacts', 'evidence']);
    expect(tools.find((t) => t.name === 'work_offers')?.annotations?.readOnlyHint).toBe(true);
  });

  it('offers listed, one accept wins and the other is refused, the winner submits an inline Artifact with Evidence', async () => {
    const workItemId = await offeredWork();
    for (const who of [alice, bob]) {
      const offer = await until(async () => (await offersOf(who)).find((o) => o['workItemId'] === workItemId), 'the offer listed');
      expect(offer).toMatchObject({ groupId: mission.groupId, goal: EXAMPLE_WORK_CONTRACT.goal, acceptanceCriteria: [{ criterionId: 'migration-roundtrip' }] });
      expect(Date.parse(String(offer['offerExpiresAt']))).toBeGreaterThan(Date.now());
    }

    const accepted = await ok(alice, 'work_accept', { groupId: mission.groupId, workItemId });
    expect(accepted).toMatchObject({ state: 'queued', ownershipEpoch: 1 });
    const second = await call(bob, 'work_accept', { groupId: mission.groupId, workItemId });
    expect(second).toMatchObject({ isError: true, result: { code: 'WORK_ALREADY_OWNED', reason: 'work_already_owned' } });

    const started = await ok(alice, 'work_start', { workItemId });
    expect(started).toMatchObject({ state: 'active', ownershipEpoch: 1, contract: { goal: EXAMPLE_WORK_CONTRACT.goal } });
    expect(await statusOf(alice, workItemId)).toMatchObject({ state: 'active', execution: { executionLeaseId: started['executionLeaseId'], leaseStatus: 'keeping' } });

    const evidence = [{ type: 'deterministic_test', criterionIds: ['migration-roundtrip'], method: 'Applied and rolled back on a masked copy.', result: 'passed' }];
    const oversized = 'x'.repeat(MAX_INLINE_ARTIFACT_BYTES + 1);
    const refused = await call(alice, 'work_submit', { workItemId, artifacts: [{ text: oversized, deliverableId: 'migration-script' }], evidence });
    expect(refused).toMatchObject({ isError: true, result: { code: 'INVALID_ARGUMENT', reason: 'inline_artifact_too_large' } });
    // Nothing went out: no upload, no publication, and the execution still runs under its lease.
    expect(await count(server.db.pool, 'artifact_contents', 'uploaded_by = $1', [alice.agentId])).toBe(0);
    expect(await payloadsOf('artifact.published', workItemId)).toEqual([]);
    expect(await statusOf(alice, workItemId)).toMatchObject({ state: 'active', execution: { leaseStatus: 'keeping' } });

    const script = 'ALTER TABLE invoices ADD COLUMN ledger_id uuid;\n';
    const artifacts = [{ text: script, deliverableId: 'migration-script' }];
    const unknownCriterion = await call(alice, 'work_submit', { workItemId, artifacts, evidence: [{ ...evidence[0], criterionIds: ['no-such-criterion'] }] });
    expect(unknownCriterion).toMatchObject({ isError: true, result: { code: 'INVALID_COMMAND', reason: 'invalid_command' } });
    // The retry reuses the Artifact the refused call published instead of publishing it again.
    const submitted = await ok(alice, 'work_submit', { workItemId, artifacts, evidence });
    expect(submitted).toMatchObject({ state: 'submitted', artifacts: [{ mediaType: 'application/sql', sizeBytes: Buffer.byteLength(script), published: false }] });
    const contentHash = String((submitted['artifacts'] as JsonObject[])[0]?.['contentHash']);

    const seen = await until(() => (seenByCoordinator.get(workItemId)?.state === 'submitted' ? seenByCoordinator.get(workItemId) : undefined), 'the submission seen by the Coordinator');
    expect(seen.submission).toMatchObject({ artifactHashes: [contentHash], evidenceIds: submitted['evidenceIds'] });
    const [published, ...again] = await payloadsOf('artifact.published', workItemId);
    expect(again).toEqual([]);
    expect(published?.['artifact']).toMatchObject({ contentHash, mediaType: 'application/sql', schemaUri: 'urn:missionweave:schema:sql-migration', producer: { agentId: alice.agentId } });
    const [submission] = await payloadsOf('work.submitted', workItemId);
    expect(submission?.['evidence']).toMatchObject([{ type: 'deterministic_test', criterionIds: ['migration-roundtrip'], artifactHashes: [contentHash], generatedBy: { id: alice.agentId } }]);
    const copy = join(mkdtempSync(join(tmpdir(), 'mw-mcp-work-')), 'script.sql');
    await downloadArtifact(alice.agent.artifactEndpoint(), contentHash, copy);
    expect(readFileSync(copy, 'utf8')).toBe(script);
    expect(await statusOf(alice, workItemId)).toMatchObject({ state: 'submitted', execution: { leaseStatus: 'stopped', publishedArtifactHashes: [contentHash] } });
  });

  it('a checkpoint releases the lease, work_start resumes under a new one, work_fail reports the failure', async () => {
    const workItemId = await offeredWork();
    await until(async () => (await offersOf(bob)).find((o) => o['workItemId'] === workItemId), 'the offer listed');
    await ok(bob, 'work_accept', { groupId: mission.groupId, workItemId });
    expect(await call(bob, 'work_checkpoint', { workItemId, phase: 'reading' })).toMatchObject({ isError: true, result: { reason: 'not_running' } });
    const first = await ok(bob, 'work_start', { workItemId });
    expect(await call(bob, 'work_start', { workItemId })).toMatchObject({ isError: true, result: { reason: 'already_running' } });

    const checkpoint = await ok(bob, 'work_checkpoint', { workItemId, phase: 'schema read', completedMilestones: ['mapped the columns'], nextStep: 'write the migration' });
    expect(checkpoint).toMatchObject({ state: 'queued', ownershipEpoch: 1 });
    expect(Date.parse(String(checkpoint['resumeBy']))).toBeGreaterThan(Date.now());
    const [checkpointed] = await payloadsOf('work.checkpointed', workItemId);
    expect(checkpointed?.['checkpoint']).toMatchObject({ phase: 'schema read', completedMilestones: ['mapped the columns'], nextStep: 'write the migration' });

    const second = await ok(bob, 'work_start', { workItemId });
    expect(second['executionLeaseId']).not.toBe(first['executionLeaseId']);
    const failed = await ok(bob, 'work_fail', { workItemId, reason: 'the staging database is unreachable' });
    expect(failed).toMatchObject({ state: 'failed' });
    const [failure] = await payloadsOf('work.failed', workItemId);
    expect(failure).toMatchObject({ reason: 'the staging database is unreachable', revokedLeases: expect.arrayContaining([expect.objectContaining({ leaseType: 'execution', leaseId: second['executionLeaseId'] })]), evidence: [{ type: 'failure_report', generatedBy: { id: bob.agentId } }] });
    expect(await statusOf(bob, workItemId)).toMatchObject({ state: 'failed', execution: { leaseStatus: 'stopped' } });
  });
});
