/**
 * `GET /metrics` on a real node (wss/HTTPS listener, crypto worker, real PostgreSQL): after an
 * Agent's Command is accepted and another refused, the scrape shows them by kind and §19 code,
 * the group-commit and latency histograms with their counts, the session, subscription,
 * delivery, crypto-queue and PostgreSQL pool levels; a flood of unregistered kinds adds no
 * series but `other`; and a node with metrics off answers 404.
 */

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupAuthority } from '../src/app/groupAuthority.js';
import { ERROR_CODES } from '../src/protocol/errorCodes.js';
import type { Actor } from './support/harness.js';
import type { MissionRefs } from './support/missions.js';
import { signIn, SseReader } from './support/humanReader.js';
import { samplesOf, scrape, valueOf, type Scrape } from './support/prometheus.js';
import { RawClient } from './support/rawClient.js';
import { postCommands } from './support/refusals.js';
import { startNode, type TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let agent: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ server, owner, agent, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { agent: { handle: 'writer' } },
    mission: { owner: 'owner', coordinator: 'agent' },
  }));
});

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const total = (result: Scrape, name: string): number => samplesOf(result, name).reduce((sum, s) => sum + s.value, 0);

describe('GET /metrics', () => {
  it('shows an accepted and a refused Command, the histograms, and the node’s levels', async () => {
    const client = await RawClient.open(server.url, server.ca);
    const epoch = await client.hello(agent);
    const head = (await server.db.pool.query<{ n: number }>('select last_sequence::int as n from groups where group_id = $1', [mission.groupId])).rows[0]?.n;
    client.subscribe(mission.groupId, 0);
    // The subscription turns live as its replay reaches the Group's head. Posted before that,
    // message.posted may be brought by the replay rather than live delivery (the answer to the
    // COMMAND, which the wait below sees, comes either way), and "delivered > replayed" fails.
    await client.next((f) => f.frameType === 'EVENT' && (f['event'] as { sequence?: number }).sequence === head);
    const post = (membershipEpoch: number) => ({
      frameType: 'COMMAND',
      command: server.harness.sign({ ...agent, sessionEpoch: epoch }, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: 'measured' }, { groupId: mission.groupId, membershipEpoch }),
    });
    client.send(post(1));
    await client.next((f) => f.frameType === 'EVENT' && (f['event'] as { kind?: string }).kind === 'message.posted');
    client.send(post(9));
    await client.error('MEMBERSHIP_STALE');

    const result = await scrape(server.httpsUrl, server.ca);
    expect(result.status).toBe(200);
    expect(result.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(valueOf(result, 'missionweave_commands_accepted_total', { kind: 'message.post' })).toBe(1);
    expect(valueOf(result, 'missionweave_commands_accepted_total', { kind: 'mission.create' })).toBe(1);
    expect(valueOf(result, 'missionweave_commands_refused_total', { kind: 'message.post', code: 'MEMBERSHIP_STALE' })).toBe(1);
    // Every new Command accepted is one Command→Event observation.
    expect(valueOf(result, 'missionweave_command_event_seconds_count')).toBe(total(result, 'missionweave_commands_accepted_total'));
    expect(valueOf(result, 'missionweave_command_event_seconds_sum')).toBeGreaterThan(0);
    // Group Commands (mission.create, two message.post decided) and Organization ones (Agent Card, session openings).
    expect(valueOf(result, 'missionweave_commit_batch_size_count', { queue: 'group' })).toBeGreaterThanOrEqual(2);
    expect(valueOf(result, 'missionweave_commit_batch_size_sum', { queue: 'group' })).toBeGreaterThanOrEqual(3);
    expect(valueOf(result, 'missionweave_commit_batch_size_count', { queue: 'organization' })).toBeGreaterThanOrEqual(2);
    expect(valueOf(result, 'missionweave_transaction_seconds_count', { queue: 'group' })).toBe(valueOf(result, 'missionweave_commit_batch_size_count', { queue: 'group' }));
    expect(valueOf(result, 'missionweave_sessions_open')).toBe(1);
    expect(valueOf(result, 'missionweave_connections_open')).toBe(1);
    expect(valueOf(result, 'missionweave_subscriptions')).toBe(1);
    // mission.created replayed (and more), then message.posted live.
    expect(valueOf(result, 'missionweave_events_replayed_total')).toBeGreaterThanOrEqual(1);
    expect(valueOf(result, 'missionweave_events_delivered_total')).toBeGreaterThan(valueOf(result, 'missionweave_events_replayed_total'));
    expect(valueOf(result, 'missionweave_backpressure_pauses_total')).toBe(0);
    expect(valueOf(result, 'missionweave_crypto_queue_depth')).toBe(0);
    expect(valueOf(result, 'missionweave_commit_queue_depth')).toBe(0);
    expect(valueOf(result, 'missionweave_pg_pool_max_clients')).toBe(16);
    expect(valueOf(result, 'missionweave_pg_pool_clients')).toBeGreaterThanOrEqual(1);
    expect(valueOf(result, 'missionweave_pg_pool_idle_clients')).toBeLessThanOrEqual(valueOf(result, 'missionweave_pg_pool_clients'));
    expect(valueOf(result, 'missionweave_pg_pool_waiting')).toBe(0);
    expect(samplesOf(result, 'process_cpu_seconds_total')).toHaveLength(1);

    // The Grafana dashboard queries only series this node exports.
    const dashboard = readFileSync(join(import.meta.dirname, '..', 'docs', 'grafana', 'missionweave-dashboard.json'), 'utf8');
    const queried = new Set([...dashboard.matchAll(/\b((?:missionweave|process|nodejs)_[a-z0-9_]+)\{/g)].map((m) => m[1] as string));
    expect(queried.size).toBeGreaterThanOrEqual(20);
    const exported = new Set(result.samples.map((s) => s.name));
    for (const name of queried) expect(exported, name).toContain(name);

    client.close();
    await until(async () => valueOf(await scrape(server.httpsUrl, server.ca), 'missionweave_sessions_open') === 0, 'the session gauge back at 0');
    expect(valueOf(await scrape(server.httpsUrl, server.ca), 'missionweave_subscriptions')).toBe(0);
  });

  it('counts human read sessions and open Event streams', async () => {
    const before = await scrape(server.httpsUrl, server.ca);
    expect(valueOf(before, 'missionweave_human_sessions_open')).toBe(0);
    expect(valueOf(before, 'missionweave_event_streams_open')).toBe(0);
    const { token } = await signIn(server, owner);
    const stream = await SseReader.open(server, `/v1/groups/${encodeURIComponent(mission.groupId)}/stream`, token);
    expect(stream.status).toBe(200);
    const during = await scrape(server.httpsUrl, server.ca);
    expect(valueOf(during, 'missionweave_human_sessions_open')).toBe(1);
    expect(valueOf(during, 'missionweave_event_streams_open')).toBe(1);
    stream.close();
    await until(async () => valueOf(await scrape(server.httpsUrl, server.ca), 'missionweave_event_streams_open') === 0, 'the stream gauge back at 0');
  });

  it('keeps the refusal labels bounded under a flood of unregistered kinds', async () => {
    const before = await scrape(server.httpsUrl, server.ca);
    const series = (result: Scrape) => samplesOf(result, 'missionweave_commands_refused_total').map((s) => `${s.labels['kind']} ${s.labels['code']}`);
    const bodies = Array.from({ length: 300 }, (_, i) => JSON.stringify(server.harness.sign(owner, `x.flood.kind${i}-${randomUUID()}`, { n: i }, { groupId: mission.groupId, membershipEpoch: 1 })));
    const answers = await postCommands(server.httpsUrl, server.ca, bodies, 4);
    expect(answers.every((answer) => answer.status >= 400)).toBe(true);

    const after = await scrape(server.httpsUrl, server.ca);
    expect(after.text).not.toMatch(/x\.flood/);
    const added = series(after).filter((s) => !series(before).includes(s));
    expect(added.length).toBeGreaterThan(0);
    for (const s of added) expect(s.split(' ')[0]).toBe('other');
    const others = samplesOf(after, 'missionweave_commands_refused_total', { kind: 'other' });
    expect(others.length).toBeLessThanOrEqual(Object.keys(ERROR_CODES).length);
    for (const s of others) expect(Object.keys(ERROR_CODES)).toContain(s.labels['code']);
    expect(others.reduce((sum, s) => sum + s.value, 0)).toBe(300);
  });
});

describe('metrics off (MW_METRICS=off)', () => {
  it('answers 404 on /metrics and still serves', async () => {
    const { pool } = server.db;
    const authority = await GroupAuthority.start({ pool, settings: { ...server.harness.settings, metrics: false }, clock: server.harness.clock, logger: server.harness.authority.logger, kinds: server.harness.authority.kinds });
    afterAll(() => authority.close());
    const node = await startNode(authority, pool, server.db.url);
    const result = await scrape(node.httpsUrl, server.ca);
    expect(result.status).toBe(404);
    expect(result.text).toBe('{"error":"not found"}');
    expect(authority.metrics.enabled).toBe(false);
    const outcome = await server.harness.expectOk(authority.submit(server.harness.sign(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: 'unmeasured' }, { groupId: mission.groupId, membershipEpoch: 1 })));
    expect(outcome.duplicate).toBe(false);
  });
});
