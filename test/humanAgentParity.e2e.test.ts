/**
 * No human sees more than an Agent with the same Membership (issue 13, docs/human-api.md): a
 * human and an Agent granted the same role with the same visibility read, over HTTPS, the same
 * Events byte for byte, the same view (the pair's own Memberships aside) and the same Mission tree
 * (for a late joiner, the same refusal of it); and the Events the human reads are exactly those
 * the Agent's own door, SUBSCRIBE over wss, replays to it. A human and an Agent with no Membership are refused alike. The tree the root
 * MissionOwner reads includes the child Missions below the root.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { httpJson, signIn } from './support/humanReader.js';
import type { MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT } from './support/payloadExamples.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

type Pair = 'full' | 'late' | 'stranger';

let server: TestServer;
let owner: Actor;
let coordinator: Actor;
let mission: MissionRefs;
let childMissionId: string;
const humans = {} as Record<Pair, Actor>;
const agents = {} as Record<Pair, Actor>;
const humanTokens = {} as Record<Pair, string>;
const agentClients = {} as Record<Pair, RawClient>;

const groupPath = (what: string) => `/v1/groups/${encodeURIComponent(mission.groupId)}/${what}`;

function post(content: string) {
  return server.harness.expectOk(server.harness.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content }, { groupId: mission.groupId, membershipEpoch: 1 }));
}

function grant(member: Actor, visibilityAfterSequence: number) {
  return server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...member.principal }, roles: ['observer'], visibilityAfterSequence }, { groupId: mission.groupId, membershipEpoch: 1 }));
}

function asCoordinator(kind: string, payload: JsonObject) {
  return server.harness.expectOk(server.harness.send(coordinator, kind, payload, { groupId: mission.groupId, membershipEpoch: 1, coordinatorEpoch: 1 }));
}

/** A child Mission below the root, on a WorkItem the Coordinator authorizes (§14). */
async function createChild(): Promise<string> {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const deadline = new Date(server.harness.clock.millis + 86_400_000).toISOString();
  await asCoordinator('work.authorize', { workItemId, contract: { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], deadline, budget: { currency: 'EUR', financialLimit: 80 } } });
  const suffix = randomUUID();
  await asCoordinator('mission.create_child', {
    missionId: `urn:missionweave:mission:${suffix}`,
    groupId: `urn:missionweave:group:${suffix}`,
    parentWorkItemId: workItemId,
    coordinatorId: (await server.harness.agent('child-coordinator')).principal.id,
    title: 'Port the schema',
    objective: 'Port the billing schema.',
    definitionOfDone: [{ criterionId: 'ported', description: 'Schema ported.', evidenceRequired: ['deterministic_test'] }],
    budget: { currency: 'EUR', financialLimit: 50 },
    deadline: new Date(server.harness.clock.millis + 3_600_000).toISOString(),
  });
  return `urn:missionweave:mission:${suffix}`;
}

/** The last sequence of the Group now. */
async function lastSequence(): Promise<number> {
  return Number((await httpJson(server, 'GET', `${groupPath('events')}?after=0&limit=1`, { token: humanTokens.full })).body.lastSequence);
}

/**
 * A view with the pair's identities taken out: the viewer principal, the pair's two Memberships
 * (each sees its own, and a full-history reader the other's too), and the Agent's own presence,
 * which a late joiner sees as it sees its own Membership.
 */
function withoutPair(view: JsonObject, pair: Pair): JsonObject {
  const ids = [humans[pair].principal.id, agents[pair].principal.id];
  const viewer = { ...(view['viewer'] as JsonObject) };
  delete viewer['principal'];
  delete viewer['membershipId'];
  const memberships = (view['memberships'] as JsonObject[]).map((m) => (ids.includes(String((m['member'] as JsonObject)['id'])) ? 'the pair' : m));
  const presence = (view['presence'] as JsonObject[]).filter((p) => !ids.includes(String(p['agentId'])));
  return { ...view, viewer, memberships, presence };
}

/** A refusal without the instant it was made. */
function refusal(answer: { status: number; body: { error: JsonObject } }): JsonObject {
  const { occurredAt: _at, ...error } = answer.body.error;
  return { status: answer.status, error };
}

beforeAll(async () => {
  ({ server, owner, coordinator, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
  }));
  childMissionId = await createChild();
  for (const pair of ['full', 'late', 'stranger'] as const) {
    humans[pair] = await server.harness.human(`${pair}-human`);
    agents[pair] = await server.harness.agent(`${pair}-agent`);
  }
  await grant(humans.full, 0);
  await grant(agents.full, 0);
  await post('before the late joiners');
  humanTokens.full = (await signIn(server, humans.full)).token;
  const before = await lastSequence();
  await grant(humans.late, before);
  await grant(agents.late, before);
  await post('after the late joiners');
  for (const pair of ['late', 'stranger'] as const) humanTokens[pair] = (await signIn(server, humans[pair])).token;
  for (const pair of ['full', 'late', 'stranger'] as const) {
    agentClients[pair] = await RawClient.open(server.url, server.ca);
    await agentClients[pair].hello(agents[pair]);
  }
});

afterAll(() => {
  for (const client of Object.values(agentClients)) client.close();
});

describe.each(['full', 'late'] as const)('a human and an Agent with the same %s-history Membership', (pair) => {
  it('read the same Events, byte for byte, and exactly those SUBSCRIBE replays to the Agent', async () => {
    const asHuman = await httpJson(server, 'GET', `${groupPath('events')}?after=0&limit=500`, { token: humanTokens[pair] });
    const asAgent = await httpJson(server, 'GET', `${groupPath('events')}?after=0&limit=500`, { token: agentClients[pair].sessionToken });
    expect(asHuman.status).toBe(200);
    expect(asHuman.text).toBe(asAgent.text);
    const sequences = (asHuman.body.events as { sequence: number }[]).map((e) => e.sequence);
    if (pair === 'full') expect(sequences[0]).toBe(1);
    else expect(sequences[0]).toBeGreaterThan(1);
    const last = sequences.at(-1) as number;
    const client = agentClients[pair];
    client.subscribe(mission.groupId, 0);
    await client.next((f) => f.frameType === 'EVENT' && (f['event'] as { groupId: string; sequence: number }).groupId === mission.groupId && (f['event'] as { sequence: number }).sequence === last);
    expect(client.events(mission.groupId).map((e) => e['sequence'])).toEqual(sequences);
  });

  it('read the same view, their own Membership aside, and the same Mission tree or its refusal', async () => {
    const asHuman = await httpJson(server, 'GET', groupPath('view'), { token: humanTokens[pair] });
    const asAgent = await httpJson(server, 'GET', groupPath('view'), { token: agentClients[pair].sessionToken });
    expect(asHuman.status).toBe(200);
    expect(asHuman.body.viewer).toMatchObject({ principal: humans[pair].principal, role: 'observer', limited: pair === 'late' });
    expect(withoutPair(asHuman.body, pair)).toEqual(withoutPair(asAgent.body, pair));
    const treeAsHuman = await httpJson(server, 'GET', groupPath('mission-tree'), { token: humanTokens[pair] });
    const treeAsAgent = await httpJson(server, 'GET', groupPath('mission-tree'), { token: agentClients[pair].sessionToken });
    if (pair === 'full') {
      expect(treeAsHuman.status).toBe(200);
      expect(treeAsHuman.text).toBe(treeAsAgent.text);
    } else {
      // The tree is whole-Group history, which a late joiner does not read (§14, §8); refused alike.
      expect(treeAsHuman.status).not.toBe(200);
      expect(refusal(treeAsHuman)).toEqual(refusal(treeAsAgent));
    }
  });
});

describe('without a Membership', () => {
  it('a human and an Agent are refused alike, on every read', async () => {
    for (const what of ['events', 'view', 'mission-tree']) {
      const asHuman = await httpJson(server, 'GET', groupPath(what), { token: humanTokens.stranger });
      const asAgent = await httpJson(server, 'GET', groupPath(what), { token: agentClients.stranger.sessionToken });
      expect({ what, ...refusal(asHuman) }).toEqual({ what, ...refusal(asAgent) });
      expect(asHuman.body.error.code).toBe('GROUP_NOT_FOUND');
    }
    expect((await httpJson(server, 'GET', '/v1/me', { token: humanTokens.stranger })).body.groups).toEqual([]);
  });
});

describe('the root MissionOwner', () => {
  it('reads the Mission tree with the child Mission below the root', async () => {
    const token = (await signIn(server, owner)).token;
    const tree = await httpJson(server, 'GET', groupPath('mission-tree'), { token });
    expect(tree.status).toBe(200);
    expect(tree.body.missions.map((m: { missionId: string }) => m.missionId)).toEqual([mission.missionId, childMissionId]);
    expect(tree.body.missions[0]).toMatchObject({ depth: 0, missionOwner: owner.principal, children: [{ missionId: childMissionId }] });
    expect(tree.body.missions[1]).toMatchObject({ depth: 1, title: 'Port the schema' });
  });
});
