/**
 * The MCP tools' contract, without a node (issue 14, part 3): a refusal — the Authority's
 * MissionWeaveError, a tool's ToolRefusal, the SDK's own error, a read's error document — is a
 * tool result with `isError` and `{code, reason, message}`, never a JSON-RPC error; an unexpected
 * failure is INTERNAL_ERROR with its cause logged, not sent; Parley's acts become the envelope
 * the node reads, under the Command kind its manifest names; arguments are read by the server,
 * an unknown member or a wrong type refused with a reason (issue 29); and the whole tool list
 * stays within its size budget.
 */

import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { MissionWeaveAgent } from '../src/client/agent.js';
import { MissionWeaveWorker } from '../src/client/worker.js';
import type { ProtocolEvent } from '../src/client/documents.js';
import { AgentClientError, errorFromDocument, MissionWeaveError } from '../src/client/errors.js';
import { createMcpServer } from '../src/client/mcp/mcpServer.js';
import { HeldWork } from '../src/client/mcp/heldWork.js';
import { mcpTools } from '../src/client/mcp/mcpTools.js';
import { openAgentRuntime } from '../src/client/runtime/runtime.js';
import { missionTools } from '../src/client/mcp/missionTools.js';
import { parleyTools } from '../src/client/mcp/parley/parleyTools.js';
import { NODE_READ_SIDES } from '../src/cli/nodeReadSides.js';
import { readSideTools } from '../src/cli/readSide.js';
import { refusalOf } from '../src/client/mcp/toolResults.js';
import { tool, ToolRefusal, type ToolContext } from '../src/client/mcp/toolSpec.js';
import type { JsonObject } from '../src/protocol/strictJson.js';

const refused = (code: string, details?: JsonObject) => errorFromDocument({ code, message: `refused ${code}`, retryable: false, occurredAt: '2026-12-02T00:00:00Z', ...(details === undefined ? {} : { details }) });

describe('refusalOf', () => {
  it("takes a profile's details.reason", () => {
    expect(refusalOf(refused('INVALID_COMMAND', { reason: 'self_reply' }))).toEqual({ code: 'INVALID_COMMAND', reason: 'self_reply', message: 'refused INVALID_COMMAND' });
  });

  it('lowercases the §19 code when there is no reason', () => {
    expect(refusalOf(refused('MEMBERSHIP_STALE'))).toMatchObject({ code: 'MEMBERSHIP_STALE', reason: 'membership_stale' });
    expect(refusalOf(refused('GROUP_NOT_FOUND', { stage: 'x' }))).toMatchObject({ reason: 'group_not_found' });
  });

  it("keeps a tool's own refusal and the SDK's client errors", () => {
    expect(refusalOf(new ToolRefusal('GROUP_NOT_FOUND', 'group_not_found', 'no Membership'))).toEqual({ code: 'GROUP_NOT_FOUND', reason: 'group_not_found', message: 'no Membership' });
    expect(refusalOf(new AgentClientError('CONNECTION_CLOSED', 'closed'))).toEqual({ code: 'CONNECTION_CLOSED', reason: 'connection_closed', message: 'closed' });
  });

  it('answers INTERNAL_ERROR for anything else, logging the cause and never sending it', () => {
    const logged: string[] = [];
    const body = refusalOf(new TypeError('secret detail'), (m) => logged.push(m));
    expect(body).toMatchObject({ code: 'INTERNAL_ERROR', reason: 'internal_error' });
    expect(body.message).not.toContain('secret detail');
    expect(logged.join('\n')).toContain('secret detail');
  });
});

interface Sent {
  readonly kind: string;
  readonly payload: JsonObject;
  readonly groupId: string;
}

/** A ToolContext over canned answers: what the tools send, and what the node would answer. */
function contextWith(answer: (sent: Sent) => Promise<ProtocolEvent>, reads: Record<string, JsonObject | MissionWeaveError>) {
  const sent: Sent[] = [];
  const { privateKey } = generateKeyPairSync('ed25519');
  const agent = new MissionWeaveAgent({ url: 'wss://127.0.0.1:1', agentId: 'urn:missionweave:agent:ada', keyId: 'urn:uuid:k', privateKey });
  const context: ToolContext = {
    agent,
    agentId: agent.agentId,
    extension: 'main',
    command: (kind, payload, groupId) => {
      sent.push({ kind, payload, groupId });
      return answer({ kind, payload, groupId });
    },
    read: async (path) => {
      const found = reads[path.split('?')[0] as string];
      if (found === undefined) throw refused('GROUP_NOT_FOUND');
      if (found instanceof MissionWeaveError) throw found;
      return found;
    },
  };
  return { context, sent };
}

async function connected(context: ToolContext, tools = [...parleyTools(), ...missionTools()]) {
  const server = createMcpServer(context, tools, { log: () => {} });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(clientSide);
  return client;
}

const manifest = { parley: '1', commands: { post: 'ext.missionweave.parley.post', claim: 'ext.missionweave.parley.claim' } };
const event = (kind: string): ProtocolEvent => ({ kind, eventId: 'urn:uuid:e', sequence: 7, payload: { ok: true } }) as unknown as ProtocolEvent;

describe('createMcpServer', () => {
  it("sends an act as the manifest's Command kind with the envelope the node reads", async () => {
    const { context, sent } = contextWith(async (s) => event(`${s.kind}ed`), { '/v1/parley/manifest': manifest });
    const client = await connected(context);
    const result = await client.callTool({ name: 'parley_shelve', arguments: { groupId: 'g', thread: 'th_3', end: 'obsolete', body: 'Moot now.', provenance: { model: 'm' } } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ kind: 'ext.missionweave.parley.posted', sequence: 7, eventId: 'urn:uuid:e', payload: { ok: true } });
    expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? '')).toEqual(result.structuredContent);
    expect(sent).toEqual([{ kind: 'ext.missionweave.parley.post', groupId: 'g', payload: { parley: '1', kind: 'shelve', body: 'Moot now.', from: { extension: 'main' }, provenance: { model: 'm' }, thread: 'th_3', end: 'obsolete' } }]);
    await client.callTool({ name: 'parley_refute', arguments: { groupId: 'g', claim: 'cl_2', body: 'No.', extension: 'critic', proofs: [{ kind: 'commit', ref: 'abc123' }] } });
    expect(sent[1]).toEqual({ kind: 'ext.missionweave.parley.claim', groupId: 'g', payload: { parley: '1', act: 'refute', body: 'No.', from: { extension: 'critic' }, claim: 'cl_2', proofs: [{ kind: 'commit', ref: 'abc123' }] } });
  });

  it("answers the Authority's refusal as a result with isError and Parley's reason", async () => {
    const { context } = contextWith(() => Promise.reject(refused('INVALID_COMMAND', { reason: 'self_reply' })), { '/v1/parley/manifest': manifest });
    const client = await connected(context);
    const result = await client.callTool({ name: 'parley_answer', arguments: { groupId: 'g', parent: 'msg_2', body: 'Me again.' } });
    expect(result).toMatchObject({ isError: true, structuredContent: { code: 'INVALID_COMMAND', reason: 'self_reply', message: 'refused INVALID_COMMAND' } });
  });

  it("answers a read's error document as a result too", async () => {
    const { context } = contextWith(() => Promise.reject(new Error('unused')), { '/v1/groups/g/parley/threads/th_9': refused('INVALID_COMMAND', { reason: 'unknown_thread' }) });
    const client = await connected(context);
    const result = await client.callTool({ name: 'parley_thread', arguments: { groupId: 'g', thread: 'th_9' } });
    expect(result).toMatchObject({ isError: true, structuredContent: { code: 'INVALID_COMMAND', reason: 'unknown_thread' } });
  });

  it('lists every tool in get_manifest, with its read-only hint', async () => {
    const { context } = contextWith(() => Promise.reject(new Error('unused')), { '/v1/parley/manifest': manifest });
    const client = await connected(context);
    const listed = (await client.listTools()).tools;
    // get_manifest, nine acts, four claim acts, three Parley reads, four Mission tools.
    expect(listed).toHaveLength(21);
    expect(listed.find((t) => t.name === 'parley_inbox')?.annotations?.readOnlyHint).toBe(true);
    // A write says nothing: MCP's default is not read-only.
    expect(listed.find((t) => t.name === 'parley_ask')?.annotations).toBeUndefined();
    const result = await client.callTool({ name: 'get_manifest', arguments: {} });
    expect(result.structuredContent).toMatchObject({ agentId: 'urn:missionweave:agent:ada', extension: 'main', parley: manifest });
    expect((result.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(listed.map((t) => t.name));
  });

  it('refuses an unknown member as the node refuses it over HTTPS: a mistyped thred asks nothing', async () => {
    const { context, sent } = contextWith(async (s) => event(`${s.kind}ed`), { '/v1/parley/manifest': manifest });
    const client = await connected(context);
    const result = await client.callTool({ name: 'parley_ask', arguments: { groupId: 'g', thred: 'th_1', body: 'Which index?' } });
    expect(result).toMatchObject({ isError: true, structuredContent: { code: 'SCHEMA_VALIDATION_FAILED', reason: 'invalid_body', message: 'unknown member thred' } });
    expect(sent).toEqual([]);
  });

  it.each([
    ['an empty body', 'parley_ask', { groupId: 'g', body: '' }, /^body: /],
    ['a body of the wrong type', 'parley_ask', { groupId: 'g', body: 42 }, /^body: /],
    ['a reply without its parent', 'parley_answer', { groupId: 'g', body: 'Yes.' }, /^parent: /],
    ['a claim named by a bare number', 'parley_attest', { groupId: 'g', claim: 1, body: 'Seen.' }, /^claim: /],
  ])('answers %s with Parley\'s reason, sending nothing', async (_what, name, args, message) => {
    const { context, sent } = contextWith(async (s) => event(`${s.kind}ed`), { '/v1/parley/manifest': manifest });
    const client = await connected(context);
    const result = await client.callTool({ name, arguments: args });
    expect(result).toMatchObject({ isError: true, structuredContent: { code: 'SCHEMA_VALIDATION_FAILED', reason: 'invalid_body', message: expect.stringMatching(message) } });
    expect(sent).toEqual([]);
  });

  it('answers the other tools\' malformed arguments and an unknown tool with a reason too', async () => {
    const { context } = contextWith(() => Promise.reject(new Error('unused')), { '/v1/me': { groups: [] } });
    const client = await connected(context);
    const badLimit = await client.callTool({ name: 'read_events', arguments: { groupId: 'g', limit: 'ten' } });
    expect(badLimit).toMatchObject({ isError: true, structuredContent: { code: 'SCHEMA_VALIDATION_FAILED', reason: 'schema_validation_failed', message: expect.stringMatching(/^limit: /) } });
    const unknown = await client.callTool({ name: 'list_missions', arguments: { all: true } });
    expect(unknown).toMatchObject({ isError: true, structuredContent: { reason: 'schema_validation_failed', message: 'unknown member all' } });
    const noTool = await client.callTool({ name: 'parley_vote', arguments: {} });
    expect(noTool).toMatchObject({ isError: true, structuredContent: { code: 'INVALID_ARGUMENT', reason: 'unknown_tool' } });
  });

  it('posts a Message with content, the message.post payload\'s own name, and refuses text', async () => {
    const { context, sent } = contextWith(async () => event('message.posted'), {});
    const client = await connected(context);
    const posted = await client.callTool({ name: 'post_message', arguments: { groupId: 'g', conversationId: 'urn:c', content: 'Index agreed.' } });
    expect(posted.isError).toBeUndefined();
    expect(sent[0]?.payload).toMatchObject({ conversationId: 'urn:c', content: 'Index agreed.' });
    const old = await client.callTool({ name: 'post_message', arguments: { groupId: 'g', conversationId: 'urn:c', text: 'Index agreed.' } });
    expect(old).toMatchObject({ isError: true, structuredContent: { reason: 'schema_validation_failed', message: expect.stringMatching(/^unknown member text; content: /) } });
    expect(sent).toHaveLength(1);
  });

  it('publishes lean schemas that say so when a member is unknown: the whole tools/list within 16 KB', async () => {
    const { context } = contextWith(() => Promise.reject(new Error('unused')), {});
    const runtime = openAgentRuntime({ path: join(mkdtempSync(join(tmpdir(), 'mw-mcp-tools-')), 'projection.sqlite'), agentId: context.agentId, slots: 1 });
    const held = new HeldWork({ agent: context.agent, worker: new MissionWeaveWorker(context.agent), runtime });
    const client = await connected(context, mcpTools(held, await readSideTools(NODE_READ_SIDES)));
    const listed = await client.listTools();
    runtime.close();
    expect(listed.tools).toHaveLength(29);
    for (const t of listed.tools) expect(t.inputSchema, t.name).toMatchObject({ type: 'object', additionalProperties: false });
    // What a model's context pays for the tools, as the wire carries it (README "Parley from any MCP client").
    expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThanOrEqual(16 * 1024);
  });

  it('refuses two tools of one name', () => {
    const { context } = contextWith(() => Promise.reject(new Error('unused')), {});
    const twice = tool({ name: 'x', description: 'x', input: {}, run: async () => ({}) });
    expect(() => createMcpServer(context, [twice, twice])).toThrow(/two MCP tools are named x/);
  });
});
