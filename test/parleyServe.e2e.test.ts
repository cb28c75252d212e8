/**
 * Parley served by a real node (issue 14): the node's code profile registered as `init` and
 * `serve` register it, a Mission that pins it at `mission.create`, two SDK Agents over wss and a
 * human over HTTPS (signed Commands to `POST /v1/commands`, reads with a human session). An ask,
 * an answer, the answerer's self-reply refused `self_reply`, a proposed decision the human
 * confirms, a human close, then a message to the closed thread refused `thread_closed`; the
 * thread, its log and the inbox read over HTTPS (human session and Agent HELLO token), a late
 * joiner seeing only later threads, and a non-member refused GROUP_NOT_FOUND.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_CODE_PROFILES, registerNodeProfiles } from '../src/app/nodeProfiles.js';
import { MissionWeaveAgent, MissionWeaveError } from '../src/client/index.js';
import { DISPUT_URI } from '../src/domain/disput/disputProfile.js';
import { PARLEY_URI } from '../src/domain/parley/parleyProfile.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { httpJson, signIn } from './support/humanReader.js';
import { createMission, type MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

const POST = 'ext.missionweave.parley.post';

let server: TestServer;
let owner: Actor;
let stranger: Actor;
let coordinator: Actor;
let mission: MissionRefs;
let ownerToken: string;
let strangerToken: string;
const agents: Record<'a' | 'b', MissionWeaveAgent> = {} as never;

beforeAll(async () => {
  ({ server, owner, stranger, coordinator } = await serverWorld({
    humans: { owner: 'owner', stranger: 'stranger' },
    agents: { coordinator: {} },
    profiles: NODE_CODE_PROFILES,
  }));
  const workers = { a: await server.harness.agent('worker-a'), b: await server.harness.agent('worker-b') };
  // What `init` and `serve` do, here approved by the human owner: the second run registers nothing.
  const registered = await registerNodeProfiles(server.harness.authority, server.db.pool, owner);
  expect(registered.map((r) => r.ok && r.profile.profileUri)).toEqual([PARLEY_URI, DISPUT_URI]);
  expect(await registerNodeProfiles(server.harness.authority, server.db.pool, owner)).toEqual([]);
  mission = await createMission(server.harness, owner, coordinator, { pinnedProfiles: [{ profileUri: PARLEY_URI, majorVersion: 1 }] });
  for (const worker of Object.values(workers)) {
    await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, { groupId: mission.groupId, membershipEpoch: 1 }));
  }
  for (const name of ['a', 'b'] as const) {
    const actor = workers[name];
    agents[name] = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: actor.principal.id, keyId: actor.key.keyId, privateKey: actor.key.privateKey });
    await agents[name].connect();
  }
  ownerToken = (await signIn(server, owner)).token;
  strangerToken = (await signIn(server, stranger)).token;
});

afterAll(async () => {
  await Promise.all(Object.values(agents).map((agent) => agent.close()));
});

const say = (kind: string, body: string, extra: JsonObject = {}): JsonObject => ({ parley: '1', kind, body, from: { extension: 'main' }, ...extra });

function agentSays(name: 'a' | 'b', envelope: JsonObject) {
  return agents[name].command(POST, envelope, { groupId: mission.groupId, membershipEpoch: 1 });
}

/** The human's signed Command over HTTPS. */
function ownerSays(envelope: JsonObject) {
  const command = server.harness.sign(owner, POST, envelope, { groupId: mission.groupId, membershipEpoch: 1 });
  return httpJson(server, 'POST', '/v1/commands', { body: command });
}

async function refusalOf(pending: Promise<unknown>): Promise<MissionWeaveError> {
  const error = await pending.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(MissionWeaveError);
  return error as MissionWeaveError;
}

const read = (path: string, token = ownerToken) => httpJson(server, 'GET', `/v1/groups/${encodeURIComponent(mission.groupId)}/parley/${path}`, { token });

describe('Parley on a serving node', () => {
  it('publishes its manifest node-wide, without a session', async () => {
    const manifest = await httpJson(server, 'GET', '/v1/parley/manifest');
    expect(manifest.status).toBe(200);
    expect(manifest.body).toMatchObject({ parley: '1', profile: PARLEY_URI, commands: { post: POST } });
    expect(manifest.body.acts).toHaveLength(9);
  });

  it('holds a thread from an ask to a confirmed close, over wss and HTTPS', async () => {
    const asked = await agentSays('b', say('ask', 'Which index fits the orders table?'));
    expect(asked).toMatchObject({ kind: 'ext.missionweave.parley.posted', payload: { message: { number: 1, thread: 1 } } });
    // The human's inbox holds the open question (it awaits anyone); its cursor reads on past it.
    const first = await read('inbox');
    expect(first.status, first.text).toBe(200);
    expect(first.body.threads.map((t: JsonObject) => [t['key'], t['state']])).toEqual([['th_1', 'open']]);
    expect((await read(`inbox?cursor=${first.body.cursor as string}`)).body.threads).toEqual([]);

    await agentSays('a', say('answer', 'A btree on (customer, created_at).', { parent: 'msg_1' }));
    const selfReply = await refusalOf(agentSays('a', say('answer', 'And I agree with myself.', { parent: 'msg_2' })));
    expect(selfReply).toMatchObject({ code: 'INVALID_COMMAND', details: { reason: 'self_reply' } });

    // The creator's decision is a model's proposal: it awaits the authority, the human included.
    await agentSays('b', say('decide', 'The btree it is.', { thread: 1, parent: 'msg_2' }));
    const waiting = await read(`inbox?cursor=${first.body.cursor as string}`);
    expect(waiting.body.threads.map((t: JsonObject) => [t['key'], t['state'], t['confirmed']])).toEqual([['th_1', 'decided', false]]);

    const confirmed = await ownerSays(say('confirm', 'Agreed.', { thread: 'th_1' }));
    expect(confirmed.status, confirmed.text).toBeLessThan(300);
    const closed = await ownerSays(say('close', 'Closed.', { thread: 1 }));
    expect(closed.status, closed.text).toBeLessThan(300);
    const late = await refusalOf(agentSays('a', say('answer', 'One more thing.', { parent: 'msg_1' })));
    expect(late).toMatchObject({ code: 'INVALID_STATE_TRANSITION', details: { reason: 'thread_closed' } });
    // The human too is refused over HTTPS, with the same reason.
    const human = await ownerSays(say('ask', 'Anything else?', { thread: 1 }));
    expect(human.body.error).toMatchObject({ code: 'INVALID_STATE_TRANSITION', details: { reason: 'thread_closed' } });

    const thread = await read('threads/th_1');
    expect(thread.status, thread.text).toBe(200);
    expect(thread.body.thread).toMatchObject({ number: 1, state: 'closed', stateOrigin: 'user' });
    const root = thread.body.messages[0];
    expect([root.message.number, root.replies.map((n: { message: { number: number } }) => n.message.number)]).toEqual([1, [2]]);
    expect(root.replies[0].message.from).toMatchObject({ identity: agents.a.agentId, authorKind: 'agent' });

    const log = await read('threads/1/log');
    expect(log.body.log.map((c: JsonObject) => [c['to'], c['origin'], c['confirmedAt'] !== null])).toEqual([
      ['answered', 'llm', false],
      ['decided', 'llm', false],
      ['decided', 'user', true],
      ['closed', 'user', true],
    ]);
    expect((await read('inbox')).body.threads).toEqual([]);
  });

  it('refuses a non-member as a missing Group, and a malformed read with its reason', async () => {
    for (const path of ['threads/th_1', 'threads/th_1/log', 'inbox']) {
      const answer = await read(path, strangerToken);
      expect(answer.body.error, path).toMatchObject({ code: 'GROUP_NOT_FOUND' });
    }
    expect((await read('threads/th_1', 'not-a-session')).body.error).toMatchObject({ code: 'AUTH_REQUIRED' });
    expect((await read('threads/th_9')).body.error).toMatchObject({ code: 'INVALID_COMMAND', details: { reason: 'unknown_thread' } });
    expect((await read('inbox?cursor=nope')).body.error).toMatchObject({ code: 'INVALID_COMMAND', details: { reason: 'invalid_cursor' } });
    expect((await read('inbox?since=yesterday')).body.error).toMatchObject({ code: 'INVALID_COMMAND', details: { reason: 'invalid_since' } });
  });

  it('shows a late joiner only the threads opened after it joined', async () => {
    const late = await server.harness.human('late');
    await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...late.principal }, roles: ['observer'] }, { groupId: mission.groupId, membershipEpoch: 1 }));
    const token = (await signIn(server, late)).token;
    // Parley records carry times: a thread opened in the same millisecond as the grant stays hidden.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await agentSays('b', say('ask', 'Should the old index be dropped?'));
    expect((await read('threads/th_1', token)).body.error).toMatchObject({ code: 'INVALID_COMMAND', details: { reason: 'unknown_thread' } });
    expect((await read('threads/th_2', token)).body.messages.map((n: { message: { body: string } }) => n.message.body)).toEqual(['Should the old index be dropped?']);
    expect((await read('threads/th_1')).status).toBe(200);
    const since = (await read('threads/th_2')).body.thread.lastMessageAt as string;
    expect((await read(`inbox?since=${encodeURIComponent(since)}`)).body.threads).toEqual([]);
  });

  it('reads for an Agent with its HELLO session token, by the same rule', async () => {
    const client = await RawClient.open(server.url, server.ca);
    await client.hello(coordinator);
    const inbox = await read('inbox', client.sessionToken);
    expect(inbox.status, inbox.text).toBe(200);
    expect(inbox.body.threads.map((t: JsonObject) => [t['key'], t['state']])).toEqual([['th_2', 'open']]);
    expect((await read('threads/th_1/log', client.sessionToken)).body.log).toHaveLength(4);
    client.close();
  });
});
