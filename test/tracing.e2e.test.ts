/**
 * Traces (issue 33, item 8), received by a real OTLP/HTTP collector in this process
 * (support/otlpCollector.ts): a node whose environment names OTEL_EXPORTER_OTLP_ENDPOINT exports
 * one HTTPS request's span under the W3C `traceparent` the request brought, and under it the
 * Command's spans — receive, verify, plan, decide, append, commit, deliver — in the same trace;
 * the Command's primary Event carries the trace context in the trace-context extension; a Command
 * whose own signed extension names a trace is linked to it and relays it unchanged. With tracing
 * off the Event still carries the `traceparent` the request brought, as it came. The `serve`
 * binary does the same from its environment, and answers `HEAD /metrics` and the build-info metric.
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitCommit } from '../src/app/metrics/buildInfo.js';
import { tracingFromEnvironment, type NodeTracing } from '../src/app/tracing/otlpTracing.js';
import { TRACE_CONTEXT_EXTENSION } from '../src/app/tracing/tracing.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import type { MissionRefs } from './support/missions.js';
import { createTestDatabase } from './support/database.js';
import { cli, serve, type ServeProcess } from './support/nodeProcess.js';
import { OtlpCollector, type ReceivedSpan } from './support/otlpCollector.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let collector: OtlpCollector;
let tracing: NodeTracing;

beforeAll(async () => {
  collector = await OtlpCollector.start();
  tracing = tracingFromEnvironment({ version: '0.1.0', instance: 'test' }, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' }) as NodeTracing;
});
afterAll(async () => {
  await tracing.shutdown();
  await collector.close();
});

/** A fresh W3C trace context: version 00, random ids, sampled. */
function newTraceparent(): { header: string; traceId: string; spanId: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { header: `00-${traceId}-${spanId}-01`, traceId, spanId };
}

function https(server: TestServer, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.httpsUrl), { method, ca: server.ca, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A human's signed `message.post`, with `extensions` when given. */
function post(server: TestServer, actor: Actor, mission: MissionRefs, extensions?: JsonObject): JsonObject {
  const command: Record<string, unknown> = {
    protocolVersion: '0.1',
    actionId: `urn:uuid:${randomUUID()}`,
    actor: actor.principal,
    kind: 'message.post',
    correlationId: `urn:uuid:${randomUUID()}`,
    issuedAt: server.harness.now(),
    payload: { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: 'traced' },
    groupId: mission.groupId,
    membershipEpoch: 1,
    ...(extensions === undefined ? {} : { extensions }),
  };
  return signDocument('command', command, actor.key) as unknown as JsonObject;
}

async function submit(server: TestServer, command: JsonObject, headers: Record<string, string> = {}): Promise<JsonObject> {
  const answer = await https(server, 'POST', '/v1/commands', { 'content-type': 'application/json', ...headers }, JSON.stringify(command));
  expect(answer.status, answer.text).toBe(201);
  return (JSON.parse(answer.text) as { events: JsonObject[] }).events[0] as JsonObject;
}

const COMMAND_PHASES = ['command.verify', 'command.plan', 'command.decide', 'command.append', 'command.commit', 'command.deliver'];

describe('a node exporting traces over OTLP', () => {
  let server: TestServer;
  let owner: Actor;
  let mission: MissionRefs;

  beforeAll(async () => {
    ({ server, owner, mission } = await serverWorld({
      humans: { owner: 'owner' },
      agents: { coordinator: {} },
      mission: { owner: 'owner', coordinator: 'coordinator' },
      settings: { tracing: tracing.tracing },
    }));
  });

  it('exports the HTTPS request under its traceparent and the Command path under it, and the Event carries the trace', async () => {
    const caller = newTraceparent();
    const command = post(server, owner, mission);
    const event = await submit(server, command, { traceparent: caller.header, tracestate: 'vendor=1' });
    const inTrace = (span: ReceivedSpan): boolean => span.traceId === caller.traceId;
    const spans = await collector.waitFor(inTrace, 2 + COMMAND_PHASES.length);
    const byName = new Map(spans.map((span) => [span.name, span]));

    const http = byName.get('POST /v1/commands') as ReceivedSpan;
    expect(http.parentSpanId).toBe(caller.spanId);
    expect(http.kind).toBe(2); // SERVER
    expect(http.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/v1/commands', 'http.response.status_code': 201 });
    expect(http.resource['service.name']).toBe('missionweave');

    const receive = byName.get('command.receive') as ReceivedSpan;
    expect(receive.parentSpanId).toBe(http.spanId);
    expect(receive.attributes).toMatchObject({ 'missionweave.command.kind': 'message.post', 'missionweave.action_id': command['actionId'], 'missionweave.group_id': mission.groupId, 'missionweave.transport': 'https' });
    for (const name of COMMAND_PHASES) expect(byName.get(name)?.parentSpanId, name).toBe(receive.spanId);
    // The phases follow one another inside the Command's span.
    const times = COMMAND_PHASES.slice(1, 5).map((name) => byName.get(name) as ReceivedSpan);
    for (let i = 1; i < times.length; i++) expect(BigInt(times[i]?.startTimeUnixNano as string)).toBeGreaterThanOrEqual(BigInt(times[i - 1]?.endTimeUnixNano as string));
    expect(BigInt(receive.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(byName.get('command.commit')?.endTimeUnixNano as string));

    // The primary Event carries this Command's span as its trace context, the caller's tracestate with it.
    expect(event['extensions']).toEqual({ [TRACE_CONTEXT_EXTENSION]: { version: '1.0.0', critical: false, data: { traceparent: `00-${caller.traceId}-${receive.spanId}-01`, tracestate: 'vendor=1' } } });
  }, 60_000);

  it('links a Command to the trace its own signed extension names, and relays that extension unchanged', async () => {
    const own = newTraceparent();
    const extensions: JsonObject = { [TRACE_CONTEXT_EXTENSION]: { version: '1.0.0', critical: false, data: { traceparent: own.header } } };
    const command = post(server, owner, mission, extensions);
    const event = await submit(server, command);
    expect(event['extensions']).toEqual(extensions);
    const [receive] = await collector.waitFor((span) => span.name === 'command.receive' && span.attributes['missionweave.action_id'] === command['actionId'], 1);
    expect(receive?.links).toEqual([expect.objectContaining({ traceId: own.traceId, spanId: own.spanId })]);
    // No traceparent on the request: the request's span starts a trace of its own.
    expect(receive?.traceId).not.toBe(own.traceId);
  }, 60_000);

  it('marks a refused Command\'s spans with its §19 code', async () => {
    const caller = newTraceparent();
    const command = post(server, owner, mission);
    (command['payload'] as JsonObject)['content'] = 'tampered after signing';
    const answer = await https(server, 'POST', '/v1/commands', { 'content-type': 'application/json', traceparent: caller.header }, JSON.stringify(command));
    expect(answer.status).toBe(401);
    const [receive] = await collector.waitFor((span) => span.traceId === caller.traceId && span.name === 'command.receive', 1);
    expect(receive?.attributes['missionweave.error.code']).toBe('AUTH_INVALID_SIGNATURE');
    expect(receive?.status.code).toBe(2); // ERROR
  }, 60_000);

  it('sends OTLP JSON', () => {
    expect(new Set(collector.contentTypes)).toEqual(new Set(['application/json']));
  });
});

describe('a node with tracing off', () => {
  let server: TestServer;
  let owner: Actor;
  let mission: MissionRefs;

  beforeAll(async () => {
    ({ server, owner, mission } = await serverWorld({ humans: { owner: 'owner' }, agents: { coordinator: {} }, mission: { owner: 'owner', coordinator: 'coordinator' } }));
  });

  it('makes no spans, and the Event carries the traceparent the request brought, as it came', async () => {
    expect(server.harness.authority.tracing.on).toBe(false);
    const caller = newTraceparent();
    const before = collector.spans.length;
    const event = await submit(server, post(server, owner, mission), { traceparent: caller.header });
    expect(event['extensions']).toEqual({ [TRACE_CONTEXT_EXTENSION]: { version: '1.0.0', critical: false, data: { traceparent: caller.header } } });
    // A request without one leaves the Event as it was; an invalid one is ignored.
    expect((await submit(server, post(server, owner, mission)))['extensions']).toBeUndefined();
    expect((await submit(server, post(server, owner, mission), { traceparent: '00-00000000000000000000000000000000-0000000000000000-01' }))['extensions']).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(collector.spans.slice(before).filter((span) => span.traceId === caller.traceId)).toEqual([]);
  }, 60_000);
});

describe('missionweave serve with OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'mw-tracing-'));
  let node: ServeProcess | undefined;
  afterAll(async () => {
    await node?.kill('SIGTERM');
    rmSync(scratch, { recursive: true, force: true });
  });

  it('exports its HTTPS requests\' spans, answers HEAD /metrics with no body, and names its build', async () => {
    const db = await createTestDatabase();
    const dir = join(scratch, 'org');
    expect(cli(db.url, 'init', '--dir', dir).code).toBe(0);
    Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_SERVICE_NAME: 'missionweave-e2e' });
    try {
      node = await serve(db.url, dir);
    } finally {
      for (const name of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_BSP_SCHEDULE_DELAY', 'OTEL_SERVICE_NAME']) delete process.env[name];
    }
    const target = { httpsUrl: node.https, ca: '' } as unknown as TestServer;
    const get = (method: string, path: string, headers: Record<string, string> = {}) => new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
      const req = request(new URL(path, target.httpsUrl), { method, rejectUnauthorized: false, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.end();
    });
    const caller = newTraceparent();
    expect((await get('GET', '/health', { traceparent: caller.header })).status).toBe(200);
    const [health] = await collector.waitFor((span) => span.traceId === caller.traceId, 1);
    expect(health).toMatchObject({ name: 'GET /health', parentSpanId: caller.spanId, kind: 2 });
    expect(health?.resource).toMatchObject({ 'service.name': 'missionweave-e2e', 'service.version': '0.1.0' });

    const head = await get('HEAD', '/metrics');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(String(head.headers['content-type'])).toMatch(/^text\/plain/);
    const metrics = await get('GET', '/metrics');
    const commit = gitCommit(process.cwd()) ?? 'unknown';
    expect(metrics.text).toContain(`missionweave_build_info{version="0.1.0",node="${process.version}",commit="${commit}"} 1\n`);
  }, 120_000);
});
