/**
 * Parley from any MCP client (issue 14, parts 3 and 4): a real node (`missionweave serve`), two
 * MCP clients — the official SDK's `Client` over stdio, each spawning `missionweave mcp --as …`
 * — and one human signing Commands over HTTPS. A thread held to a confirmed close, with a
 * self-reply refused as a tool result (`isError`, reason `self_reply`) and a model's proposal
 * confirmed by the human; a verified claim refuted with a proof; the Mission tools; and a
 * Streamable HTTP client calling `get_manifest` and one post.
 */

import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_HTTP_MAX_BODY_BYTES, MCP_HTTP_MAX_SESSIONS } from '../src/client/mcp/mcpLimits.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { call, httpServer, MCP_NODE_START_MS, startMcpNode, stdioClient, type McpNode } from './support/mcpNode.js';

let world: McpNode;
const clients: Record<'ada' | 'bob', Awaited<ReturnType<typeof stdioClient>>> = {} as never;

beforeAll(async () => {
  world = await startMcpNode(['ada', 'bob']);
  [clients.ada, clients.bob] = await Promise.all([stdioClient(world.dir, 'ada', ['--extension', 'claude']), stdioClient(world.dir, 'bob')]);
}, MCP_NODE_START_MS);

afterAll(async () => {
  await Promise.all(Object.values(clients).map((c) => c.client.close()));
  await world?.close();
});

/** One raw POST to the MCP endpoint (the body read to its end); its status. */
function post(target: string, body: string, headers: Record<string, string> = {}): Promise<number | undefined> {
  const url = new URL(target);
  return new Promise((resolve, reject) => {
    const headersOut = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers };
    request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: headersOut }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode));
    }).once('error', reject).end(body);
  });
}

const humanSays = (kind: string, body: string, extra: JsonObject = {}) => world.humanSays('ext.missionweave.parley.post', { parley: '1', kind, body, from: { extension: 'console' }, ...extra }, 1);
const ada = (name: string, args: Record<string, unknown> = {}) => call(clients.ada.client, name, { groupId: world.groupId, ...args });
const bob = (name: string, args: Record<string, unknown> = {}) => call(clients.bob.client, name, { groupId: world.groupId, ...args });

describe('missionweave mcp over stdio', () => {
  it('tells a model everything it needs in get_manifest, and lists its Missions', async () => {
    const tools = (await clients.ada.client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['get_manifest', 'parley_ask', 'parley_confirm', 'parley_refute', 'parley_inbox', 'list_missions', 'read_events', 'group_view', 'post_message', 'work_offers', 'work_accept', 'work_start', 'work_submit', 'work_fail', 'work_status']));
    const manifest = await call(clients.ada.client, 'get_manifest');
    expect(manifest.isError).toBe(false);
    expect(manifest.body).toMatchObject({ agentId: world.agents['ada']?.id, extension: 'claude', parley: { parley: '1', commands: { post: 'ext.missionweave.parley.post' } } });
    expect((manifest.body['tools'] as { name: string }[]).map((t) => t.name)).toEqual(tools);
    // What a model's context pays for the tools, as the server sends them.
    expect(Buffer.byteLength(JSON.stringify(await clients.ada.client.listTools()))).toBeLessThanOrEqual(16 * 1024);
    const missions = await call(clients.ada.client, 'list_missions');
    expect(missions.body['groups']).toEqual([expect.objectContaining({ groupId: world.groupId, role: 'worker', membershipEpoch: expect.any(Number) })]);
  });

  it('holds a thread to a confirmed close: a self-reply refused, a proposal confirmed by the human', async () => {
    const asked = await bob('parley_ask', { body: 'Which index fits the orders table?' });
    expect(asked.isError, JSON.stringify(asked.body)).toBe(false);
    expect(asked.body).toMatchObject({ kind: 'ext.missionweave.parley.posted', payload: { message: { number: 1, thread: 1 } } });
    expect((await ada('parley_inbox')).body['threads']).toEqual([expect.objectContaining({ key: 'th_1', state: 'open' })]);
    // A mistyped member is refused as over HTTPS, and opens no thread.
    const typo = await bob('parley_ask', { thred: 'th_1', body: 'And the partial index?' });
    expect(typo).toMatchObject({ isError: true, body: { code: 'SCHEMA_VALIDATION_FAILED', reason: 'invalid_body', message: 'unknown member thred' } });

    expect((await ada('parley_answer', { parent: 'msg_1', body: 'A btree on (customer, created_at).' })).isError).toBe(false);
    const selfReply = await ada('parley_answer', { parent: 'msg_2', body: 'And I agree with myself.' });
    expect(selfReply).toMatchObject({ isError: true, body: { code: 'INVALID_COMMAND', reason: 'self_reply' } });
    // The answer awaits bob's line, whatever label bob reads under next.
    expect((await bob('parley_inbox', { extension: 'restarted' })).body['threads']).toEqual([expect.objectContaining({ key: 'th_1', awaiting: { to: 'party', identity: world.agents['bob']?.id, extension: 'main' } })]);

    // The creator's decision is a model's proposal: unconfirmed until the human confirms it.
    const proposed = await bob('parley_decide', { thread: 'th_1', parent: 'msg_2', body: 'The btree it is.' });
    expect(proposed.isError, JSON.stringify(proposed.body)).toBe(false);
    expect((await bob('parley_thread', { thread: 1 })).body['thread']).toMatchObject({ state: 'decided', stateOrigin: 'llm', stateConfirmedAt: null });
    expect((await humanSays('confirm', 'Agreed.', { thread: 'th_1' })).status).toBe(201);
    expect((await humanSays('close', 'Closed.', { thread: 1 })).status).toBe(201);

    const late = await ada('parley_answer', { parent: 'msg_1', body: 'One more thing.' });
    expect(late).toMatchObject({ isError: true, body: { code: 'INVALID_STATE_TRANSITION', reason: 'thread_closed' } });
    const thread = await ada('parley_thread', { thread: 'th_1' });
    expect(thread.body['thread']).toMatchObject({ state: 'closed', stateOrigin: 'user' });
    const log = await bob('parley_log', { thread: 'th_1' });
    expect((log.body['log'] as JsonObject[]).map((c) => [c['to'], c['origin'], c['confirmedAt'] !== null])).toEqual([
      ['answered', 'llm', false],
      ['decided', 'llm', false],
      ['decided', 'user', true],
      ['closed', 'user', true],
    ]);
    // A read's refusal is a result too, with the node's reason.
    expect(await ada('parley_thread', { thread: 'th_9' })).toMatchObject({ isError: true, body: { code: 'INVALID_COMMAND', reason: 'unknown_thread' } });
  });

  it('refutes a verified claim with a proof', async () => {
    const status = (answer: { body: { payload?: Record<string, unknown> } }) => (answer.body.payload?.['claims'] as { status: string }[] | undefined)?.[0]?.status;
    const asserted = await ada('parley_assert', { body: 'The btree halves the p99 latency of the orders page.', proofs: [{ kind: 'log', ref: 'bench/orders-2026-12-01.txt' }] });
    expect(status(asserted)).toBe('unverified');
    // A claim comes back by the name the tools take: cl_<n>.
    expect((asserted.body.payload?.['claims'] as { id: string }[] | undefined)?.[0]?.id).toBe('cl_1');
    expect(status(await bob('parley_attest', { claim: 'cl_1', body: 'Same on my replica.' }))).toBe('supported');
    const sealed = await world.humanSays('ext.missionweave.parley.claim', { parley: '1', act: 'verify', claim: 'cl_1', body: 'Checked the bench.', from: { extension: 'console' } }, 1);
    expect(sealed.status, JSON.stringify(sealed.body)).toBe(201);
    const unproven = await bob('parley_refute', { claim: 'cl_1', body: 'I do not believe it.' });
    expect(unproven).toMatchObject({ isError: true, body: { code: 'SCHEMA_VALIDATION_FAILED', reason: 'invalid_body' } });
    const refuted = await bob('parley_refute', { claim: 'cl_1', body: 'The bench ran with a warm cache.', proofs: [{ kind: 'reproducer', ref: 'scripts/cold-cache.sh', note: 'p99 unchanged when cold' }] });
    expect(refuted.isError, JSON.stringify(refuted.body)).toBe(false);
    expect(status(refuted)).toBe('refuted');
  });

  it('reads Events and the view, and posts a Message in the main Conversation', async () => {
    // The human makes ada a reviewer: a new Membership Epoch, which the MCP server learns from
    // /v1/me after the Authority refuses the old one (MEMBERSHIP_STALE), and signs again under.
    const before = (await call(clients.ada.client, 'list_missions')).body['groups'] as { membershipEpoch: number }[];
    expect((await world.humanSays('membership.change', { principal: { type: 'agent', id: world.agents['ada']?.id ?? '' }, roles: ['reviewer'] }, 1)).status).toBe(201);
    const posted = await ada('post_message', { content: 'Index agreed in Parley th_1.' });
    expect(posted, JSON.stringify(posted.body)).toMatchObject({ isError: false, body: { kind: 'message.posted' } });
    const after = (await call(clients.ada.client, 'list_missions')).body['groups'] as { membershipEpoch: number; role: string }[];
    expect(after[0]).toMatchObject({ role: 'reviewer', membershipEpoch: (before[0]?.membershipEpoch ?? 0) + 1 });
    const view = await bob('group_view');
    expect(posted.body['conversationId']).toBe((view.body['group'] as JsonObject)['mainConversationId']);
    const events = await bob('read_events', { after: 0, limit: 500 });
    const kinds = (events.body['events'] as { kind: string }[]).map((e) => e.kind);
    // A worker joined after mission.create: its Membership reads from its own grant on (§8).
    expect(kinds[0]).toBe('membership.changed');
    expect(kinds.at(-1)).toBe('message.posted');
    expect(kinds.filter((k) => k === 'ext.missionweave.parley.claimed')).toHaveLength(4);
    expect((await bob('read_events', { after: 0, limit: 2 })).body['events']).toHaveLength(2);
    expect(await call(clients.bob.client, 'group_view', { groupId: 'urn:missionweave:group:nowhere' })).toMatchObject({ isError: true, body: { code: 'GROUP_NOT_FOUND' } });
  });
});

describe('missionweave mcp --http', () => {
  it('serves get_manifest and a post over Streamable HTTP on 127.0.0.1 only, within its bounds', async () => {
    const server = await httpServer(world.dir, 'planner');
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'test-http', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect((await call(client, 'get_manifest')).body).toMatchObject({ agentId: world.agents['planner']?.id, extension: 'main' });
    const asked = await call(client, 'parley_ask', { groupId: world.groupId, body: 'Should the old index be dropped?' });
    expect(asked.body).toMatchObject({ payload: { message: { thread: 2 } } });
    // A page on another host name (DNS rebinding) is refused before any session is made.
    expect(await post(server.url, '{}', { host: `evil.example:${new URL(server.url).port}` })).toBe(403);
    expect(await post(server.url, 'x'.repeat(MCP_HTTP_MAX_BODY_BYTES + 1))).toBe(413);
    // The SDK client holds one session; the bound admits the rest, then refuses.
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    for (let i = 1; i < MCP_HTTP_MAX_SESSIONS; i++) expect(await post(server.url, initialize)).toBe(200);
    expect(await post(server.url, initialize)).toBe(503);
    await client.close();
    expect(await server.stop()).toContain('stopping: SIGTERM');
  });

  it('ends the stdio server when its client closes the pipe', async () => {
    await clients.bob.client.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(clients.bob.stderr()).toContain('stopping: stdin ended');
  });
});
