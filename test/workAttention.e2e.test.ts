/**
 * Agents learn of their work through Events (§8, §10.3): a live subscription whose attention
 * filter would hold back everything else still receives the offer that names its Agent as a
 * candidate, and only that Agent's subscription does. Raw wss clients, so that nothing but the
 * server's filter decides what arrives live.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { count, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT } from './support/payloadExamples.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let coordinator: Actor;
let candidate: Actor;
let bystander: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ server, owner, coordinator, candidate, bystander, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {}, candidate: {}, bystander: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
  }));
  for (const agent of [candidate, bystander]) {
    await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...agent.principal }, roles: ['worker'] }, { groupId: mission.groupId, membershipEpoch: 1 }));
  }
});

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A raw client of `actor` subscribed with `mentionsOnly`, caught up with the history (replay ignores filters). */
async function filtered(actor: Actor): Promise<RawClient> {
  const client = await RawClient.open(server.url, server.ca);
  expect(await client.hello(actor)).toBeGreaterThan(0);
  const total = await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId]);
  client.subscribe(mission.groupId, 0, { mentionsOnly: true });
  await until(() => client.events(mission.groupId).some((e) => Number(e['sequence']) === total), 'the replay');
  return client;
}

function asCoordinator(kind: string, payload: JsonObject) {
  return server.harness.expectOk(server.harness.send(coordinator, kind, payload, { groupId: mission.groupId, membershipEpoch: 1, coordinatorEpoch: 1 }));
}

describe('offers through attention filters', () => {
  it('a mentionsOnly subscription receives the offer naming its Agent live, and nothing else of the WorkItem', async () => {
    const [candidateClient, bystanderClient] = [await filtered(candidate), await filtered(bystander)];
    const head = await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId]);
    const workItemId = `urn:uuid:${randomUUID()}`;
    const capability = { id: 'code.review', version: '1.0.0' };
    const contract = { ...EXAMPLE_WORK_CONTRACT, inputArtifacts: [], dependencyWorkItemIds: [], requiredCapabilities: [capability], executionApproval: 'not_required', budget: { currency: 'EUR', financialLimit: 10 }, deadline: new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z') };
    await asCoordinator('work.authorize', { workItemId, contract });
    const selectionBasis = { requiredCapabilities: [capability], verifiedMatches: [capability], authorizationEligible: true, availabilityEstimate: server.harness.now(), expectedCost: 1, reliabilityEvidence: [], policyRulesApplied: ['single-candidate'] };
    await asCoordinator('work.offer', { workItemId, candidateAgentIds: [candidate.principal.id], selectionBasis });
    // A marker that reaches both: a Message mentioning each.
    const mentions = [candidate, bystander].map((a) => ({ ...a.principal }));
    await server.harness.expectOk(server.harness.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: 'marker', mentions }, { groupId: mission.groupId, membershipEpoch: 1 }));

    const live = (client: RawClient) => client.events(mission.groupId).filter((e) => Number(e['sequence']) > head).map((e) => e['kind']);
    await until(() => live(candidateClient).includes('message.posted') && live(bystanderClient).includes('message.posted'), 'the marker');
    expect(live(candidateClient)).toEqual(['work.offer.created', 'message.posted']);
    expect(live(bystanderClient)).toEqual(['message.posted']);
    candidateClient.close();
    bystanderClient.close();
  });
});
