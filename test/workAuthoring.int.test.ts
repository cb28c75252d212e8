/**
 * Work authoring on the real pipeline and PostgreSQL (issue 11, items 1, 4, 5 and the propose /
 * authorize rows): an incomplete Work Contract answered as such, Work Proposals taken up by the
 * Coordinator, Delegation Grants and their use, dependency insertion, and the submission gate of
 * the WorkItem graph. Each accepted and refused.
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
let worker: Actor;
let delegate: Actor;

beforeAll(async () => {
  ({ h, owner, coordinator, worker, delegate } = await world({ humans: { owner: 'dana' }, agents: { coordinator: {}, worker: {}, delegate: {} } }));
});

const newId = (kind: string) => `urn:missionweave:${kind}:${randomUUID()}`;

function contract(extra: JsonObject = {}): JsonObject {
  return { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], deadline: new Date(h.clock.millis + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 80 }, ...extra };
}

function asCoordinator(m: MissionRefs, kind: string, payload: JsonObject) {
  return h.send(coordinator, kind, payload, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });
}

function codeOf(outcome: Awaited<ReturnType<Harness['send']>>): string {
  return outcome.ok ? 'accepted' : outcome.error.code;
}

describe('an incomplete Work Contract (§10.1, §19)', () => {
  it('is WORK_CONTRACT_INCOMPLETE, where other schema failures stay SCHEMA_VALIDATION_FAILED', async () => {
    const m = await createMission(h, owner, coordinator);
    const { goal: _goal, ...withoutGoal } = contract();
    const missing = await asCoordinator(m, 'work.authorize', { workItemId: newId('work-item'), contract: withoutGoal });
    expect(codeOf(missing)).toBe('WORK_CONTRACT_INCOMPLETE');
    const proposed = await h.send(coordinator, 'work.propose', { proposalId: newId('work-proposal'), contract: withoutGoal }, { groupId: m.groupId, membershipEpoch: 1 });
    expect(codeOf(proposed)).toBe('WORK_CONTRACT_INCOMPLETE');
    const malformed = await asCoordinator(m, 'work.authorize', { workItemId: newId('work-item'), contract: contract({ goal: '' }) });
    expect(codeOf(malformed)).toBe('SCHEMA_VALIDATION_FAILED');
    expect(await count(h.pool, 'events', 'group_id = $1', [m.groupId])).toBe(1);
    await h.expectOk(asCoordinator(m, 'work.authorize', { workItemId: newId('work-item'), contract: contract() }));
    expect((await eventsOf(h.pool, m.groupId)).map((e) => e['kind'])).toEqual(['mission.created', 'work.authorized']);
  });
});

async function withMembers(): Promise<MissionRefs> {
  const m = await createMission(h, owner, coordinator);
  await h.expectOk(h.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, { groupId: m.groupId, membershipEpoch: 1 }));
  await h.expectOk(h.send(owner, 'membership.change', { principal: { ...delegate.principal }, roles: ['work_delegate'] }, { groupId: m.groupId, membershipEpoch: 1 }));
  return m;
}

const asMember = (m: MissionRefs, actor: Actor, kind: string, payload: JsonObject) => h.send(actor, kind, payload, { groupId: m.groupId, membershipEpoch: 1 });

describe('work.propose and taking a proposal up', () => {
  it('records a Worker’s proposal, which only the Coordinator turns into a WorkItem, once', async () => {
    const m = await withMembers();
    const proposalId = newId('work-proposal');
    const proposalContract = contract();
    const proposed = await h.expectOk(asMember(m, worker, 'work.propose', { proposalId, contract: proposalContract }));
    expect(JSON.parse(proposed.events[0]?.text ?? '{}')).toMatchObject({ kind: 'work.proposed', payload: { proposal: { proposalId, state: 'open', proposer: worker.principal } } });
    const taken = { workItemId: newId('work-item'), contract: proposalContract, proposalId };
    expect(codeOf(await asMember(m, worker, 'work.authorize', taken))).toBe('AUTH_FORBIDDEN');
    const authorized = await h.expectOk(asCoordinator(m, 'work.authorize', taken));
    expect(JSON.parse(authorized.events[0]?.text ?? '{}')).toMatchObject({ payload: { proposalId, workItem: { createdBy: worker.principal, authorizedBy: coordinator.principal } } });
    expect(codeOf(await asCoordinator(m, 'work.authorize', { ...taken, workItemId: newId('work-item') }))).toBe('INVALID_STATE_TRANSITION');
    const rows = await h.pool.query<{ document: { state: string } }>("select document from aggregates where group_id = $1 and aggregate_type = 'work-proposal'", [m.groupId]);
    expect(rows.rows.map((r) => r.document.state)).toEqual(['authorized']);
  });
});

describe('membership.grant_delegation and a delegated work.authorize', () => {
  const grantPayload = (grantId: string, targetWorkItemId: string): JsonObject => ({
    grantId,
    granteeAgentId: delegate.principal.id,
    targetWorkItemId,
    allowedCapabilities: [{ id: 'acme.sql-migration', version: '1.0.0' }],
    budget: { currency: 'EUR', financialLimit: 30, modelTokenLimit: 1000, toolCallLimit: 10, computeSecondsLimit: 60, wallClockSecondsLimit: 600, externalSideEffectLimit: 0 },
    maxDescendantDepth: 1,
    expiresAt: new Date(h.clock.millis + 3_600_000).toISOString(),
  });

  it('lets the grantee authorize within its Grant, and nobody else or beyond it', async () => {
    const m = await withMembers();
    const target = newId('work-item');
    await h.expectOk(asCoordinator(m, 'work.authorize', { workItemId: target, contract: contract() }));
    const grantId = newId('delegation-grant');
    // §15.1: the envelope schema requires a Coordinator Epoch of this kind; a Worker citing one is not the Coordinator.
    const unsigned = await asMember(m, coordinator, 'membership.grant_delegation', grantPayload(grantId, target));
    expect(codeOf(unsigned)).toBe('SCHEMA_VALIDATION_FAILED');
    const byWorker = await h.send(worker, 'membership.grant_delegation', grantPayload(grantId, target), { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });
    expect(codeOf(byWorker)).toBe('AUTH_FORBIDDEN');
    await h.expectOk(asCoordinator(m, 'membership.grant_delegation', grantPayload(grantId, target)));
    const child = (budget: number) => ({ workItemId: newId('work-item'), contract: contract({ budget: { currency: 'EUR', financialLimit: budget } }), parentWorkItemId: target, delegationGrantId: grantId });
    const first = child(20);
    await h.expectOk(asMember(m, delegate, 'work.authorize', first));
    expect(codeOf(await asMember(m, worker, 'work.authorize', child(1)))).toBe('AUTH_FORBIDDEN');
    expect(codeOf(await asMember(m, delegate, 'work.authorize', child(20)))).toBe('BUDGET_EXCEEDED');
    expect(codeOf(await asMember(m, delegate, 'work.authorize', { ...child(1), parentWorkItemId: first.workItemId }))).toBe('AUTH_FORBIDDEN');
    const rows = await h.pool.query<{ document: { usedBy: string[] } }>("select document from aggregates where group_id = $1 and aggregate_type = 'delegation-grant'", [m.groupId]);
    expect(rows.rows.map((r) => r.document.usedBy)).toEqual([[first.workItemId]]);
  });
});

describe('ext.missionweaveprotocol.core.work_dependency_add and the submission gate', () => {
  it('revises the contract, refuses a cycle, and keeps the Mission from submission while work is unaccepted', async () => {
    const m = await withMembers();
    const [a, b] = [newId('work-item'), newId('work-item')];
    await h.expectOk(asCoordinator(m, 'work.authorize', { workItemId: a, contract: contract() }));
    await h.expectOk(asCoordinator(m, 'work.authorize', { workItemId: b, contract: contract() }));
    const added = await h.expectOk(asCoordinator(m, 'ext.missionweaveprotocol.core.work_dependency_add', { workItemId: a, dependencyId: b }));
    expect(JSON.parse(added.events[0]?.text ?? '{}')).toMatchObject({ kind: 'work.contract.revised', payload: { workItemId: a, dependencyId: b, contractVersion: 2, workItem: { revision: 2 } } });
    expect(codeOf(await asCoordinator(m, 'ext.missionweaveprotocol.core.work_dependency_add', { workItemId: b, dependencyId: a }))).toBe('INVALID_COMMAND');
    expect(codeOf(await asMember(m, worker, 'ext.missionweaveprotocol.core.work_dependency_add', { workItemId: b, dependencyId: a }))).toBe('AUTH_FORBIDDEN');
    const submit = await asCoordinator(m, 'mission.submit_for_approval', { artifactHashes: [`sha256:${'a'.repeat(64)}`] });
    expect(codeOf(submit)).toBe('INVALID_STATE_TRANSITION');
    expect((await eventsOf(h.pool, m.groupId)).map((e) => e['kind']).slice(-3)).toEqual(['work.authorized', 'work.authorized', 'work.contract.revised']);
  });
});
