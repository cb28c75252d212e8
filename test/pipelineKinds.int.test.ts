/**
 * The kinds whose only evidence was the deciders, on the real pipeline and PostgreSQL, each
 * accepted and refused: `work.authorize`, `mission.create_child` (one decision, two Groups),
 * `mission.terminate`, and the Organization-scoped `agent_card_register` and `session_open`.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT } from './support/payloadExamples.js';
import { world } from './support/world.js';

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let childCoordinator: Actor;
let worker: Actor;

beforeAll(async () => {
  ({ h, owner, coordinator, childCoordinator, worker } = await world({
    humans: { owner: 'dana' },
    agents: { coordinator: {}, childCoordinator: {}, worker: {} },
  }));
});

function contract(): JsonObject {
  return { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], deadline: new Date(h.clock.millis + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 80 } };
}

function asCoordinator(m: MissionRefs, kind: string, payload: JsonObject, actor = coordinator) {
  return h.send(actor, kind, payload, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });
}

async function withWorkItem(): Promise<{ m: MissionRefs; workItemId: string }> {
  const m = await createMission(h, owner, coordinator, { permissions: ['db.read'] });
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  await h.expectOk(asCoordinator(m, 'work.authorize', { workItemId, contract: contract() }));
  return { m, workItemId };
}

describe('work.authorize', () => {
  it('creates an open WorkItem with its own Conversation, as the Coordinator', async () => {
    const { m, workItemId } = await withWorkItem();
    const [, authorized] = await eventsOf(h.pool, m.groupId);
    expect(authorized).toMatchObject({ kind: 'work.authorized', workItemId, payload: { workItem: { workItemId, state: 'open', revision: 1 } } });
  });

  it('refuses a member who is not the Coordinator, and a contract beyond the Mission budget', async () => {
    const m = await createMission(h, owner, coordinator);
    await h.expectOk(h.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, { groupId: m.groupId, membershipEpoch: 1 }));
    const before = await count(h.pool, 'events', 'group_id = $1', [m.groupId]);
    const byWorker = await h.send(worker, 'work.authorize', { workItemId: `urn:missionweave:work-item:${randomUUID()}`, contract: contract() }, { groupId: m.groupId, membershipEpoch: 1 });
    expect(byWorker.ok ? 'accepted' : byWorker.error.code).toBe('AUTH_FORBIDDEN');
    const tooDear = await asCoordinator(m, 'work.authorize', { workItemId: `urn:missionweave:work-item:${randomUUID()}`, contract: { ...contract(), budget: { currency: 'EUR', financialLimit: 10_000 } } });
    expect(tooDear.ok ? 'accepted' : tooDear.error.code).toBe('INVALID_COMMAND');
    expect(await count(h.pool, 'events', 'group_id = $1', [m.groupId])).toBe(before);
  });
});

describe('mission.create_child', () => {
  function child(workItemId: string): JsonObject {
    const suffix = randomUUID();
    return {
      missionId: `urn:missionweave:mission:${suffix}`,
      groupId: `urn:missionweave:group:${suffix}`,
      parentWorkItemId: workItemId,
      coordinatorId: childCoordinator.principal.id,
      title: 'Port the schema',
      objective: 'Port the billing schema.',
      definitionOfDone: [{ criterionId: 'ported', description: 'Schema ported.', evidenceRequired: ['deterministic_test'] }],
      budget: { currency: 'EUR', financialLimit: 50 },
      deadline: new Date(h.clock.millis + 3_600_000).toISOString(),
      permissions: ['db.read'],
    };
  }

  it('links the parent WorkItem and founds the child Group in one transaction', async () => {
    const { m, workItemId } = await withWorkItem();
    const payload = child(workItemId);
    const outcome = await h.expectOk(asCoordinator(m, 'mission.create_child', payload));
    expect(outcome.events.map((e) => e.groupId)).toEqual([m.groupId, payload['groupId']]);
    const [created] = await eventsOf(h.pool, String(payload['groupId']));
    expect(created).toMatchObject({ kind: 'mission.created', sequence: 1, payload: { mission: { missionOwner: coordinator.principal, parent: { missionId: m.missionId, workItemId, depth: 1 } } } });
  });

  it('refuses a second child for the same WorkItem and a child from another Agent, creating no Group', async () => {
    const { m, workItemId } = await withWorkItem();
    await h.expectOk(asCoordinator(m, 'mission.create_child', child(workItemId)));
    const again = child(workItemId);
    const second = await asCoordinator(m, 'mission.create_child', again);
    expect(second.ok ? 'accepted' : second.error.code).toBe('INVALID_STATE_TRANSITION');
    await h.expectOk(h.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, { groupId: m.groupId, membershipEpoch: 1 }));
    const byWorker = await asCoordinator(m, 'mission.create_child', child(workItemId), worker);
    expect(byWorker.ok ? 'accepted' : byWorker.error.code).toBe('AUTH_FORBIDDEN');
    expect(await count(h.pool, 'groups', 'group_id = $1', [again['groupId']])).toBe(0);
  });
});

describe('mission.terminate', () => {
  it('fails the Mission with its unfinished WorkItems, by the Coordinator and not another Agent', async () => {
    const { m, workItemId } = await withWorkItem();
    await h.expectOk(h.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, { groupId: m.groupId, membershipEpoch: 1 }));
    const byWorker = await asCoordinator(m, 'mission.terminate', { reason: 'not mine to end' }, worker);
    expect(byWorker.ok ? 'accepted' : byWorker.error.code).toBe('AUTH_FORBIDDEN');
    const outcome = await h.expectOk(asCoordinator(m, 'mission.terminate', { reason: 'the ledger project was dropped' }));
    const event = JSON.parse(outcome.events[0]?.text ?? '{}') as { kind: string; payload: { mission: { state: string }; workItems: { workItemId: string; state: string }[] } };
    expect(event.kind).toBe('mission.terminated');
    expect(event.payload.mission.state).toBe('failed');
    expect(event.payload.workItems.map((w) => [w.workItemId, w.state])).toEqual([[workItemId, 'failed']]);
    const after = await asCoordinator(m, 'mission.terminate', { reason: 'twice' });
    expect(after.ok ? 'accepted' : after.error.code).toBe('INVALID_STATE_TRANSITION');
  });
});

describe('the Organization-scoped kinds', () => {
  it('ext.missionweaveprotocol.registry.agent_card_register: only the registry service registers a card', async () => {
    const registered = await h.agent('registered');
    expect(registered.sessionEpoch).toBe(1);
    const before = await count(h.pool, 'organization_events');
    const card = (await h.pool.query<{ document: string }>('select document from agent_cards where agent_id = $1', [registered.principal.id])).rows[0]?.document ?? '{}';
    const byAuthority = await h.send(h.authorityActor, 'ext.missionweaveprotocol.registry.agent_card_register', { card: JSON.parse(card) as JsonObject });
    expect(byAuthority.ok ? 'accepted' : byAuthority.error.code).toBe('AUTH_FORBIDDEN');
    expect(await count(h.pool, 'organization_events')).toBe(before);
  });

  it('ext.missionweaveprotocol.identity.session_open: the Group Authority opens sessions, and only it', async () => {
    const agent = await h.agent('sessions');
    expect(await h.openSession(agent)).toBe(2);
    const byRegistry = await h.send(h.registry, 'ext.missionweaveprotocol.identity.session_open', { agentId: agent.principal.id });
    expect(byRegistry.ok ? 'accepted' : byRegistry.error.code).toBe('AUTH_FORBIDDEN');
  });
});
