/**
 * Offline reconciliation (§11.5) inside a child Mission's Group, on the real pipeline and
 * PostgreSQL: the buffered Message's charge is recorded on the child's WorkItem and, in the same
 * transaction, on the parent WorkItem in the root Group (§12, §14); an offline charge past the
 * budget is refused whole, in every Group.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { OfflineBuffer } from '../src/client/offlineBuffer.js';
import { keySigner } from '../src/client/signer.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import { createMission, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { world } from './support/world.js';

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let childCoordinator: Actor;
let worker: Actor;

beforeAll(async () => {
  ({ h, owner, coordinator, childCoordinator, worker } = await world({
    humans: { owner: 'dana' },
    agents: { coordinator: {}, childCoordinator: {}, worker: ['acme.sql-migration@1.5.0'] },
  }));
});

const inHours = (hours: number) => new Date(h.clock.millis + hours * 3_600_000).toISOString();
const asCoordinator = (m: MissionRefs) => ({ groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });

async function authorize(m: MissionRefs, actor: Actor, hours: number, budget: JsonObject): Promise<{ workItemId: string; conversationId: string }> {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const contract = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: inHours(hours), budget };
  const authorized = await h.expectOk(h.send(actor, 'work.authorize', { workItemId, contract }, asCoordinator(m)));
  const event = JSON.parse(authorized.events[0]?.text ?? '{}') as { payload: { workItem: { conversationId: string } } };
  return { workItemId, conversationId: event.payload.workItem.conversationId };
}

async function lastSequence(groupId: string): Promise<number> {
  const result = await h.pool.query<{ last_sequence: string }>('select last_sequence from groups where group_id = $1', [groupId]);
  return Number(result.rows[0]?.last_sequence);
}

async function toolCallsOf(groupId: string, workItemId: string): Promise<number | undefined> {
  const result = await h.pool.query<{ n: string | null }>(
    `select document #>> '{extensions,urn:missionweave:extension:resource-usage,data,usage,toolCalls}' as n from aggregates where group_id = $1 and aggregate_type = 'work-item' and aggregate_id = $2`,
    [groupId, workItemId],
  );
  const n = result.rows[0]?.n;
  return n === null || n === undefined ? undefined : Number(n);
}

describe('offline reconciliation in a child Mission', () => {
  it('charges the child WorkItem and the root ancestry in the Message’s transaction, and refuses an overflow whole', async () => {
    const root = await createMission(h, owner, coordinator, { budget: { currency: 'EUR', financialLimit: 500, toolCallLimit: 1000 } });
    const w1 = await authorize(root, coordinator, 48, { currency: 'EUR', financialLimit: 100, toolCallLimit: 10 });
    const suffix = randomUUID();
    const child = { missionId: `urn:missionweave:mission:${suffix}`, groupId: `urn:missionweave:group:${suffix}`, mainConversationId: `urn:missionweave:conversation:${suffix}` };
    await h.expectOk(
      h.send(coordinator, 'mission.create_child', {
        ...child,
        parentWorkItemId: w1.workItemId,
        coordinatorId: childCoordinator.principal.id,
        title: 'Port the schema',
        objective: 'Port the billing schema.',
        definitionOfDone: [{ criterionId: 'ported', description: 'Schema ported.', evidenceRequired: ['deterministic_test'] }],
        budget: { currency: 'EUR', financialLimit: 50, toolCallLimit: 10 },
        deadline: inHours(36),
      }, asCoordinator(root)),
    );
    const cw1 = await authorize(child, childCoordinator, 24, { currency: 'EUR', financialLimit: 40, toolCallLimit: 10 });
    await h.expectOk(h.send(coordinator, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, { groupId: child.groupId, membershipEpoch: 1 }));
    const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
    await h.expectOk(h.send(childCoordinator, 'work.offer', { workItemId: cw1.workItemId, candidateAgentIds: [worker.principal.id], selectionBasis }, asCoordinator(child)));
    await h.expectOk(h.send(worker, 'work.accept_offer', { workItemId: cw1.workItemId }, { groupId: child.groupId, membershipEpoch: 1 }));
    const started = await h.expectOk(h.send(worker, 'work.start', { workItemId: cw1.workItemId, ownershipEpoch: 1 }, { groupId: child.groupId, membershipEpoch: 1 }));
    const lease = (JSON.parse(started.events[0]?.text ?? '{}') as { payload: { executionLease: { leaseId: string; expiresAt: string } } }).payload.executionLease;

    const buffer = new OfflineBuffer(
      {
        agentId: worker.principal.id,
        groupId: child.groupId,
        workItemId: cw1.workItemId,
        conversationId: cw1.conversationId,
        sessionEpoch: worker.sessionEpoch ?? 1,
        membershipEpoch: 1,
        ownershipEpoch: 1,
        executionLeaseId: lease.leaseId,
        executionLeaseExpiresAt: lease.expiresAt,
      },
      keySigner(worker.key.keyId, worker.key.privateKey),
      { maxGraceSeconds: 300, disconnectedAt: new Date(h.clock.millis).toISOString(), clock: () => h.clock.millis },
    );
    h.clock.advance(2);
    await buffer.bufferMessage({ content: 'copied the first table' }, { toolCalls: 4 });
    h.clock.advance(2);
    await buffer.bufferMessage({ content: 'copied the rest' }, { toolCalls: 7 });
    h.clock.advance(2);
    const sessionEpoch = await h.openSession(worker);
    const [first, overflow] = (await buffer.rebase({ sessionEpoch, membershipEpoch: 1 })).map((text) => JSON.parse(text) as JsonObject);

    const before = { root: await lastSequence(root.groupId), child: await lastSequence(child.groupId) };
    const accepted = await h.expectOk(h.authority.submit(first as JsonObject));
    const events = accepted.events.map((e) => JSON.parse(e.text) as { kind: string; groupId: string; sequence: number });
    expect(events.map((e) => [e.kind, e.groupId])).toEqual(
      expect.arrayContaining([
        ['ext.missionweaveprotocol.core.resource_usage_recorded', child.groupId],
        ['message.posted', child.groupId],
        ['ext.missionweave.core.child_usage_recorded', root.groupId],
      ]),
    );
    expect(events).toHaveLength(3);
    expect({ root: await lastSequence(root.groupId), child: await lastSequence(child.groupId) }).toEqual({ root: before.root + 1, child: before.child + 2 });
    expect([await toolCallsOf(child.groupId, cw1.workItemId), await toolCallsOf(root.groupId, w1.workItemId)]).toEqual([4, 4]);

    // 7 more would make 11 of 10 tool calls: refused, and neither Group changes.
    const refused = await h.authority.submit(overflow as JsonObject);
    expect(refused.ok ? 'accepted' : { code: refused.error.code, details: refused.error.details }).toMatchObject({ code: 'BUDGET_EXCEEDED', details: { workItemId: cw1.workItemId, dimension: 'toolCalls' } });
    expect({ root: await lastSequence(root.groupId), child: await lastSequence(child.groupId) }).toEqual({ root: before.root + 1, child: before.child + 2 });
    expect([await toolCallsOf(child.groupId, cw1.workItemId), await toolCallsOf(root.groupId, w1.workItemId)]).toEqual([4, 4]);
  });
});
