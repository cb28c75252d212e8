/**
 * The agent SDK (src/client) against a real Group Authority: wss with TLS 1.3, PostgreSQL, real
 * HELLO. Commands and their retries across lost answers and fenced epochs, replay then live
 * delivery, resuming from a persisted Cursor, session replacement, typed errors, Cursor files.
 */

import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupAuthority, Submission } from '../src/app/groupAuthority.js';
import { AgentClientError, FileCursorStore, MissionWeaveAgent, MissionWeaveError, type AgentError, type GroupEvent, type MissionWeaveAgentOptions } from '../src/client/index.js';
import type { Actor } from './support/harness.js';
import { eventsOf, type MissionRefs } from './support/missions.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let coordinator: Actor;
let worker: Actor;
let mission: MissionRefs;
const running: MissionWeaveAgent[] = [];

beforeAll(async () => {
  ({ server, owner, coordinator, worker, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {}, worker: {} },
    mission: { owner: 'owner', coordinator: 'coordinator', members: { worker: ['worker'] } },
  }));
});

afterAll(async () => {
  await Promise.all(running.map((agent) => agent.close()));
});

function sdkAgent(actor: Actor, options: Partial<MissionWeaveAgentOptions> = {}): MissionWeaveAgent {
  const agent = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: actor.principal.id, keyId: actor.key.keyId, privateKey: actor.key.privateKey, reconnect: { initialDelayMs: 50, maxDelayMs: 500 }, ...options });
  running.push(agent);
  return agent;
}

const message = (content: string) => ({ messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content });

function post(agent: MissionWeaveAgent, content: string, extra: { actionId?: string; correlationId?: string; membershipEpoch?: number } = {}) {
  return agent.command('message.post', message(content), { groupId: mission.groupId, membershipEpoch: 1, ...extra });
}

async function ownerPosts(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await server.harness.expectOk(server.harness.send(owner, 'message.post', message(`owner ${i}`), { groupId: mission.groupId, membershipEpoch: 1 }));
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Drops an Agent's server-side sockets as a network failure would. */
function dropServerSide(agentId: string): void {
  const registry = server.listener.sessions as unknown as { byAgent: Map<string, Set<{ ws: { terminate(): void } }>> };
  for (const connection of registry.byAgent.get(agentId) ?? []) connection.ws.terminate();
}

/** Intercepts the Group Authority's `submit` for Commands with one Action ID. */
/** Intercepts the Commands of one logical request: same Action ID, or same correlation ID. */
function interceptSubmit(id: string, intercept: (original: () => Promise<Submission>, command: Record<string, unknown>) => Promise<Submission>): { calls: Record<string, unknown>[]; restore(): void } {
  const authority = server.harness.authority as GroupAuthority & { submit: GroupAuthority['submit'] };
  const original = authority.submit.bind(authority);
  const calls: Record<string, unknown>[] = [];
  authority.submit = (input) => {
    const command = input as Record<string, unknown>;
    if (command['actionId'] !== id && command['correlationId'] !== id) return original(input);
    calls.push(command);
    return intercept(() => original(input), command);
  };
  return { calls, restore: () => void (authority.submit = original) };
}

async function transitionsOf(actionId: string): Promise<string[]> {
  return (await eventsOf(server.db.pool, mission.groupId)).filter((e) => (e['cause'] as { id: string }).id === actionId).map((e) => String(e['eventId']));
}

describe('Commands', () => {
  it('connects with HELLO and resolves a Command with its primary Event', async () => {
    const agent = sdkAgent(worker);
    await agent.connect();
    expect(agent.state).toBe('open');
    expect(agent.sessionEpoch).toBeGreaterThan(worker.sessionEpoch ?? 0);
    const actionId = `urn:uuid:${randomUUID()}`;
    const event = await post(agent, 'hello from the SDK', { actionId });
    expect(event).toMatchObject({ kind: 'message.posted', groupId: mission.groupId, cause: { type: 'command', id: actionId }, actor: worker.principal });
    expect(await transitionsOf(actionId)).toEqual([event.eventId]);
    await agent.close();
    expect(agent.state).toBe('closed');
  });

  it('resends a Command whose answer was lost byte for byte: the same Event, one transition', async () => {
    const agent = sdkAgent(worker);
    await agent.connect();
    const firstEpoch = agent.sessionEpoch;
    const actionId = `urn:uuid:${randomUUID()}`;
    const outcomes: Submission[] = [];
    const spy = interceptSubmit(actionId, async (original) => {
      const outcome = await original();
      // Accepted and committed, but the connection dies before the answer leaves.
      if (outcomes.length === 0) dropServerSide(worker.principal.id);
      outcomes.push(outcome);
      return outcome;
    });
    try {
      const event = await post(agent, 'answer lost', { actionId });
      expect(outcomes.map((o) => o.ok && [o.duplicate, o.events[0]?.eventId])).toEqual([[false, event.eventId], [true, event.eventId]]);
      expect(spy.calls).toHaveLength(2);
      expect(JSON.stringify(spy.calls[1])).toBe(JSON.stringify(spy.calls[0]));
      expect(await transitionsOf(actionId)).toEqual([event.eventId]);
      expect(agent.sessionEpoch).toBeGreaterThan(firstEpoch ?? 0);
    } finally {
      spy.restore();
    }
  });

  it('turns a Command fenced before acceptance into a new Command under the new Session Epoch (§19)', async () => {
    const agent = sdkAgent(worker);
    await agent.connect();
    const firstEpoch = agent.sessionEpoch as number;
    const actionId = `urn:uuid:${randomUUID()}`;
    const correlationId = `urn:uuid:${randomUUID()}`;
    const spy = interceptSubmit(correlationId, (original) => {
      if (spy.calls.length > 1) return original();
      // Lost on the way in: never submitted, and the connection drops.
      dropServerSide(worker.principal.id);
      return Promise.resolve({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'lost', retryable: true } } as Submission);
    });
    try {
      const event = await post(agent, 'never arrived', { actionId, correlationId });
      expect(spy.calls.map((c) => c['sessionEpoch'])).toEqual([firstEpoch, firstEpoch, agent.sessionEpoch]);
      expect(agent.sessionEpoch).toBeGreaterThan(firstEpoch);
      const renewed = spy.calls[2]?.['actionId'];
      expect(spy.calls.map((c) => c['actionId'])).toEqual([actionId, actionId, renewed]);
      expect(renewed).not.toBe(actionId);
      expect(event.cause.id).toBe(renewed);
      expect(await transitionsOf(actionId)).toEqual([]);
      expect(await transitionsOf(String(renewed))).toEqual([event.eventId]);
    } finally {
      spy.restore();
    }
  });

  it('rejects a refused Command with a typed MissionWeaveError naming the Action ID', async () => {
    const agent = sdkAgent(worker);
    await agent.connect();
    const actionId = `urn:uuid:${randomUUID()}`;
    const stale = await post(agent, 'old membership', { actionId, membershipEpoch: 9 }).catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(MissionWeaveError);
    expect(stale).toMatchObject({ code: 'MEMBERSHIP_STALE', retryable: false, relatedActionId: actionId, groupId: mission.groupId });
    const nowhere = await agent.command('message.post', message('x'), { groupId: 'urn:missionweave:group:nowhere', membershipEpoch: 1 }).catch((error: unknown) => error);
    expect(nowhere).toMatchObject({ name: 'MissionWeaveError', code: 'GROUP_NOT_FOUND' });
    const unnamed = await agent.command('message.post', message('x'), { membershipEpoch: 1 }).catch((error: unknown) => error);
    expect(unnamed).toBeInstanceOf(AgentClientError);
    expect(unnamed).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await transitionsOf(actionId)).toEqual([]);
  });
});

describe('delivery', () => {
  it('replays the history in order from 0, then streams live Events of another actor, and ACKs', async () => {
    const agent = sdkAgent(coordinator);
    const seen: GroupEvent[] = [];
    agent.onEvent((event) => void seen.push(event));
    await agent.connect();
    await agent.subscribe(mission.groupId, { afterSequence: 0 });
    const history = await eventsOf(server.db.pool, mission.groupId);
    await until(() => seen.length >= history.length);
    expect(seen.map((e) => e.eventId)).toEqual(history.map((e) => e['eventId']));
    await ownerPosts(2);
    await until(() => seen.length >= history.length + 2);
    expect(seen.map((e) => e.sequence)).toEqual(Array.from({ length: history.length + 2 }, (_, i) => i + 1));
    expect(seen.slice(-2).map((e) => [e.kind, e.actor.id])).toEqual([['message.posted', owner.principal.id], ['message.posted', owner.principal.id]]);
    const acked = async () => (await server.db.pool.query<{ sequence: number }>('select sequence from agent_cursors where agent_id = $1 and group_id = $2', [coordinator.principal.id, mission.groupId])).rows[0]?.sequence;
    await until(async () => (await acked()) === history.length + 2);
    expect(agent.cursor(mission.groupId)).toBe(history.length + 2);
  });

  it('starts a late Member at its visible history, not at a gap', async () => {
    const agent = sdkAgent(worker);
    const seen: GroupEvent[] = [];
    agent.onEvent((event) => void seen.push(event));
    await agent.connect();
    await agent.subscribe(mission.groupId);
    const history = await eventsOf(server.db.pool, mission.groupId);
    const joined = history.find((e) => e['kind'] === 'membership.changed' && JSON.stringify(e['payload']).includes(worker.principal.id)) as GroupEvent | undefined;
    const visible = history.filter((e) => Number(e['sequence']) >= Number(joined?.sequence));
    await until(() => agent.cursor(mission.groupId) === history.length);
    expect(seen.map((e) => e.eventId)).toEqual(visible.map((e) => e['eventId']));
    expect(visible.length).toBeLessThan(history.length);
  });

  it('resumes after a disconnect from the persisted Cursor: nothing lost, nothing handled twice', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mw-cursors-')), 'cursors.json');
    const agent = sdkAgent(coordinator, { cursorStore: new FileCursorStore(path), reconnect: { initialDelayMs: 600, maxDelayMs: 1_000 } });
    const handled: GroupEvent[] = [];
    agent.onEvent(async (event) => {
      await new Promise((resolve) => setTimeout(resolve, 3));
      handled.push(event);
    });
    await agent.connect();
    await agent.subscribe(mission.groupId);
    let head = (await eventsOf(server.db.pool, mission.groupId)).length;
    await until(() => agent.cursor(mission.groupId) === head);
    const epoch = agent.sessionEpoch as number;
    dropServerSide(coordinator.principal.id);
    await until(() => agent.state === 'reconnecting');
    await ownerPosts(3);
    expect(agent.state).toBe('reconnecting');
    head += 3;
    await until(() => agent.cursor(mission.groupId) === head);
    expect(agent.sessionEpoch).toBeGreaterThan(epoch);
    expect(handled.map((e) => e.sequence)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    expect(new Set(handled.map((e) => e.eventId)).size).toBe(head);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ [mission.groupId]: head });
    await agent.close();

    // A later runtime of the same Agent continues from the file, not from the start.
    const later = sdkAgent(coordinator, { cursorStore: new FileCursorStore(path) });
    const resumed: GroupEvent[] = [];
    later.onEvent((event) => void resumed.push(event));
    await ownerPosts(1);
    await later.connect();
    await later.subscribe(mission.groupId);
    await until(() => later.cursor(mission.groupId) === head + 1);
    expect(resumed.map((e) => e.sequence)).toEqual([head + 1]);
  });

  it('reports a Group it may not see with a typed per-Group error', async () => {
    const stranger = await server.harness.agent('stranger');
    const agent = sdkAgent(stranger);
    const errors: AgentError[] = [];
    agent.onError((error) => void errors.push(error));
    await agent.connect();
    await agent.subscribe(mission.groupId);
    await until(() => errors.length > 0);
    expect(errors[0]).toMatchObject({ name: 'MissionWeaveError', code: 'GROUP_NOT_FOUND', groupId: mission.groupId, retryable: false });
  });
});

describe('session replacement', () => {
  it('a second runtime fences the first, which fails with AUTH_STALE_SESSION and stays down', async () => {
    const first = sdkAgent(worker);
    const errors: AgentError[] = [];
    const closes: number[] = [];
    first.onError((error) => void errors.push(error));
    first.onConnectionChange((change) => void (change.close === undefined || closes.push(change.close.code)));
    await first.connect();
    const second = sdkAgent(worker);
    await second.connect();
    await until(() => first.state === 'failed');
    expect(closes).toEqual([4501]);
    expect(errors.map((e) => e.code)).toEqual(['AUTH_STALE_SESSION']);
    expect(first.failure).toMatchObject({ code: 'AUTH_STALE_SESSION', fatal: true });
    await expect(post(first, 'from the fenced runtime')).rejects.toMatchObject({ code: 'AUTH_STALE_SESSION' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(first.state).toBe('failed');
    expect(second.state).toBe('open');
    expect((await post(second, 'from the current runtime')).actor).toEqual(worker.principal);
  });
});

describe('FileCursorStore', () => {
  it('round-trips Cursors through an atomically replaced file', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'mw-store-'));
    const path = join(directory, 'nested', 'cursors.json');
    const store = new FileCursorStore(path);
    expect(await store.load('urn:g:a')).toBeUndefined();
    await Promise.all([store.save('urn:g:a', 1), store.save('urn:g:b', 7), store.save('urn:g:a', 3)]);
    await store.save('urn:g:c', 0);
    const reopened = new FileCursorStore(path);
    expect([await reopened.load('urn:g:a'), await reopened.load('urn:g:b'), await reopened.load('urn:g:c'), await reopened.load('urn:g:d')]).toEqual([3, 7, 0, undefined]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ 'urn:g:a': 3, 'urn:g:b': 7, 'urn:g:c': 0 });
    expect(readdirSync(join(directory, 'nested'))).toEqual(['cursors.json']);
    await expect(store.save('urn:g:a', -1)).rejects.toThrow(RangeError);
  });
});
