/**
 * The budget ledger over a Mission tree on the real pipeline and PostgreSQL (§12, §14): a charge
 * in a grandchild Mission's Group updates the child's and the root's Groups in the same
 * transaction — one Event in each, at each Group's next sequence, the ancestors' WorkItems
 * updated — and an overflow at the root refuses the whole charge with nothing appended anywhere,
 * until `ext.missionweave.core.budget_revise` raises the root account.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import { createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { world } from './support/world.js';

const RECORD = 'ext.missionweaveprotocol.core.resource_usage_record';
let h: Harness;
let owner: Actor;
let coordinator: Actor;
let childCoordinator: Actor;
let grandchildCoordinator: Actor;
let worker: Actor;

beforeAll(async () => {
  ({ h, owner, coordinator, childCoordinator, grandchildCoordinator, worker } = await world({
    humans: { owner: 'dana' },
    agents: { coordinator: {}, childCoordinator: {}, grandchildCoordinator: {}, worker: ['acme.sql-migration@1.5.0'] },
  }));
});

const inHours = (hours: number) => new Date(h.clock.millis + hours * 3_600_000).toISOString();

async function authorize(m: MissionRefs, actor: Actor, hours: number, budget: JsonObject): Promise<string> {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const contract = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: inHours(hours), budget };
  await h.expectOk(h.send(actor, 'work.authorize', { workItemId, contract }, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 }));
  return workItemId;
}

/** The Worker joins `m` (added by its MissionOwner), is offered the WorkItem and starts it: its lease ID. */
async function started(m: MissionRefs, missionOwner: Actor, actor: Actor, workItemId: string): Promise<string> {
  await h.expectOk(h.send(missionOwner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, { groupId: m.groupId, membershipEpoch: 1 }));
  const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
  await h.expectOk(h.send(actor, 'work.offer', { workItemId, candidateAgentIds: [worker.principal.id], selectionBasis }, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 }));
  await h.expectOk(h.send(worker, 'work.accept_offer', { workItemId }, { groupId: m.groupId, membershipEpoch: 1 }));
  const start = await h.expectOk(h.send(worker, 'work.start', { workItemId, ownershipEpoch: 1 }, { groupId: m.groupId, membershipEpoch: 1 }));
  return (JSON.parse(start.events[0]?.text ?? '{}') as { payload: { executionLease: { leaseId: string } } }).payload.executionLease.leaseId;
}

async function promote(parent: MissionRefs, workItemId: string, actor: Actor, childActor: Actor, hours: number, budget: JsonObject): Promise<MissionRefs> {
  const suffix = randomUUID();
  const child = { missionId: `urn:missionweave:mission:${suffix}`, groupId: `urn:missionweave:group:${suffix}`, mainConversationId: `urn:missionweave:conversation:${suffix}` };
  await h.expectOk(
    h.send(
      actor,
      'mission.create_child',
      {
        ...child,
        parentWorkItemId: workItemId,
        coordinatorId: childActor.principal.id,
        title: 'Port the schema',
        // Each level its own objective: a repeated one is duplicate decomposition (§20).
        objective: `Port the billing schema, part ${suffix}.`,
        definitionOfDone: [{ criterionId: 'ported', description: 'Schema ported.', evidenceRequired: ['deterministic_test'] }],
        budget,
        deadline: inHours(hours),
      },
      { groupId: parent.groupId, membershipEpoch: 1, coordinatorEpoch: 1 },
    ),
  );
  return child;
}

function record(m: MissionRefs, workItemId: string, leaseId: string, toolCalls: number) {
  return h.send(worker, RECORD, { workItemId, ownershipEpoch: 1, executionLeaseId: leaseId, usageDelta: { toolCalls } }, { groupId: m.groupId, membershipEpoch: 1 });
}

async function usageOf(groupId: string, workItemId: string): Promise<number | undefined> {
  const result = await h.pool.query<{ n: string | null }>(
    `select document #>> '{extensions,urn:missionweave:extension:resource-usage,data,usage,toolCalls}' as n from aggregates where group_id = $1 and aggregate_type = 'work-item' and aggregate_id = $2`,
    [groupId, workItemId],
  );
  const n = result.rows[0]?.n;
  return n === null || n === undefined ? undefined : Number(n);
}

async function lastSequence(groupId: string): Promise<number> {
  const result = await h.pool.query<{ last_sequence: string }>('select last_sequence from groups where group_id = $1', [groupId]);
  return Number(result.rows[0]?.last_sequence);
}

describe('a charge in a grandchild Mission', () => {
  it('updates the child and root Groups in one transaction, and an overflow at the root changes nothing anywhere', async () => {
    const root = await createMission(h, owner, coordinator, { budget: { currency: 'EUR', financialLimit: 500, toolCallLimit: 1000 } });
    const w1 = await authorize(root, coordinator, 48, { currency: 'EUR', financialLimit: 100, toolCallLimit: 100 });
    // w1 spends 90 of its 100 tool calls itself before it is promoted.
    const rootLease = await started(root, owner, coordinator, w1);
    await h.expectOk(record(root, w1, rootLease, 90));
    const child = await promote(root, w1, coordinator, childCoordinator, 36, { currency: 'EUR', financialLimit: 50, toolCallLimit: 50 });
    const cw1 = await authorize(child, childCoordinator, 24, { currency: 'EUR', financialLimit: 40, toolCallLimit: 40 });
    const grandchild = await promote(child, cw1, childCoordinator, grandchildCoordinator, 20, { currency: 'EUR', financialLimit: 30, toolCallLimit: 30 });
    const gw1 = await authorize(grandchild, grandchildCoordinator, 12, { currency: 'EUR', financialLimit: 20, toolCallLimit: 30 });
    const lease = await started(grandchild, childCoordinator, grandchildCoordinator, gw1);

    const before = { root: await lastSequence(root.groupId), child: await lastSequence(child.groupId), grandchild: await lastSequence(grandchild.groupId) };
    const charged = await h.expectOk(record(grandchild, gw1, lease, 5));
    const events = charged.events.map((e) => JSON.parse(e.text) as { kind: string; groupId: string; sequence: number });
    expect(events.map((e) => [e.kind, e.groupId, e.sequence])).toEqual([
      ['ext.missionweaveprotocol.core.resource_usage_recorded', grandchild.groupId, before.grandchild + 1],
      ['ext.missionweave.core.child_usage_recorded', child.groupId, before.child + 1],
      ['ext.missionweave.core.child_usage_recorded', root.groupId, before.root + 1],
    ]);
    expect({ root: await lastSequence(root.groupId), child: await lastSequence(child.groupId), grandchild: await lastSequence(grandchild.groupId) }).toEqual({
      root: before.root + 1,
      child: before.child + 1,
      grandchild: before.grandchild + 1,
    });
    expect([await usageOf(grandchild.groupId, gw1), await usageOf(child.groupId, cw1), await usageOf(root.groupId, w1)]).toEqual([5, 5, 95]);
    // Each Group's stored chain holds its Event at its sequence.
    expect((await eventsOf(h.pool, root.groupId)).at(-1)).toMatchObject({ kind: 'ext.missionweave.core.child_usage_recorded', sequence: before.root + 1 });

    // Six more fit the grandchild's WorkItem (11 of 30) and the child's (11 of 40), not the root's w1 (101 of 100).
    const refused = await record(grandchild, gw1, lease, 6);
    expect(refused.ok ? 'accepted' : { code: refused.error.code, details: refused.error.details }).toMatchObject({ code: 'BUDGET_EXCEEDED', details: { groupId: root.groupId, workItemId: w1, dimension: 'toolCalls' } });
    expect({ root: await lastSequence(root.groupId), child: await lastSequence(child.groupId), grandchild: await lastSequence(grandchild.groupId) }).toEqual({
      root: before.root + 1,
      child: before.child + 1,
      grandchild: before.grandchild + 1,
    });
    expect([await usageOf(grandchild.groupId, gw1), await usageOf(child.groupId, cw1), await usageOf(root.groupId, w1)]).toEqual([5, 5, 95]);

    // The escalation: the root Coordinator raises w1 within the root Mission; the same charge then passes.
    const revise = { workItemId: w1, budget: { currency: 'EUR', financialLimit: 100, toolCallLimit: 120 }, reason: 'The backfill needs more calls.' };
    await h.expectOk(h.send(coordinator, 'ext.missionweave.core.budget_revise', revise, { groupId: root.groupId, membershipEpoch: 1, coordinatorEpoch: 1 }));
    await h.expectOk(record(grandchild, gw1, lease, 6));
    expect([await usageOf(grandchild.groupId, gw1), await usageOf(child.groupId, cw1), await usageOf(root.groupId, w1)]).toEqual([11, 11, 101]);
    const tooMuch = await h.send(coordinator, 'ext.missionweave.core.budget_revise', { ...revise, budget: { currency: 'EUR', financialLimit: 100, toolCallLimit: 1001 } }, { groupId: root.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });
    expect(tooMuch.ok ? 'accepted' : tooMuch.error.code).toBe('BUDGET_EXCEEDED');
  });
});
