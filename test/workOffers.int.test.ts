/**
 * Offers and ownership on the real pipeline and PostgreSQL (§10.3, §11.3): two Workers race
 * `work.accept_offer` for one WorkItem, through two Group Authorities on the same database as two
 * nodes would, and exactly one `work.offer.accepted` is committed; the loser gets
 * `WORK_ALREADY_OWNED` and cannot start. The winner then runs `work.start` and renews its
 * Execution Lease (`ext.missionweaveprotocol.core.work_execution_lease_renew`); a renewal citing
 * an older Ownership Epoch is refused. A WorkItem whose contract requires an Execution Approval
 * cannot start until the MissionOwner's `approval.grant_execution` for the current Ownership Epoch
 * is recorded; a grant citing another epoch is refused.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupAuthority, Submission } from '../src/app/groupAuthority.js';
import { verifyGroupHistory } from '../src/app/verifyGroupHistory.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { createPool, type Pool } from '../src/store/pool.js';
import type { TestDatabase } from './support/database.js';
import type { Harness, Actor } from './support/harness.js';
import { count, createMission, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { world } from './support/world.js';
import { coreRegistry } from './support/coreDecider.js';

let db: TestDatabase;
let h: Harness;
let owner: Actor;
let coordinator: Actor;
let workers: [Actor, Actor];
let otherPool: Pool;
let other: GroupAuthority;

beforeAll(async () => {
  ({ db, h, owner, coordinator } = await world({ humans: { owner: 'dana' }, agents: { coordinator: {} } }));
  workers = [await h.agent('worker-a', ['acme.sql-migration@1.5.0']), await h.agent('worker-b', ['acme.sql-migration@1.4.2'])];
  // The second node starts after the Agents are registered, as a node joining a running cluster.
  otherPool = createPool(db.url, { max: 4 });
  other = await h.peer(otherPool);
});

afterAll(async () => {
  await other.close();
  await otherPool.end();
});

function contract(executionApproval = 'not_required'): JsonObject {
  return {
    ...EXAMPLE_WORK_CONTRACT,
    dependencyWorkItemIds: [],
    executionApproval,
    deadline: new Date(h.clock.millis + 86_400_000).toISOString(),
    budget: { currency: 'EUR', financialLimit: 80 },
  };
}

const SELECTION = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;

function code(outcome: Submission): string {
  return outcome.ok ? 'ok' : outcome.error.code;
}

function payloadOf(outcome: Submission): JsonObject {
  if (!outcome.ok) throw new Error(`refused: ${outcome.error.code}`);
  return (JSON.parse(outcome.events[0]?.text ?? '{}') as { payload: JsonObject }).payload;
}

/** A Mission whose two Workers are both offered a fresh WorkItem (under a contract of `executionApproval`). */
async function offeredToBoth(executionApproval?: string): Promise<{ m: MissionRefs; workItemId: string }> {
  const m = await createMission(h, owner, coordinator, { permissions: ['db.read', 'db.migrate'] });
  for (const worker of workers) {
    await h.expectOk(h.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, { groupId: m.groupId, membershipEpoch: 1 }));
  }
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const asCoordinator = { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 };
  await h.expectOk(h.send(coordinator, 'work.authorize', { workItemId, contract: contract(executionApproval) }, asCoordinator));
  const candidateAgentIds = workers.map((w) => w.principal.id);
  await h.expectOk(h.send(coordinator, 'work.offer', { workItemId, candidateAgentIds, selectionBasis: SELECTION }, asCoordinator));
  return { m, workItemId };
}

describe('work.accept_offer races', () => {
  it('commits exactly one acceptance when two Workers race through two nodes; the loser gets WORK_ALREADY_OWNED', async () => {
    for (let round = 0; round < 4; round++) {
      const { m, workItemId } = await offeredToBoth();
      const accept = (worker: Actor) => h.sign(worker, 'work.accept_offer', { workItemId }, { groupId: m.groupId, membershipEpoch: 1 });
      // Alternate which node each Worker reaches, so each wins some rounds' lock race.
      const [a, b] = round % 2 === 0 ? [h.authority, other] : [other, h.authority];
      const outcomes = await Promise.all([a.submit(accept(workers[0])), b.submit(accept(workers[1]))]);
      expect(outcomes.map(code).sort()).toEqual(['WORK_ALREADY_OWNED', 'ok']);
      expect(await count(db.pool, 'events', "group_id = $1 and kind = 'work.offer.accepted'", [m.groupId])).toBe(1);
      const winner = outcomes[0]!.ok ? workers[0] : workers[1];
      const loser = winner === workers[0] ? workers[1] : workers[0];
      expect(payloadOf(outcomes.find((o) => o.ok)!)).toMatchObject({ assigneeId: winner.principal.id, ownershipEpoch: 1 });
      const lost = await h.send(loser, 'work.start', { workItemId, ownershipEpoch: 1 }, { groupId: m.groupId, membershipEpoch: 1 });
      expect(code(lost)).toBe('AUTH_FORBIDDEN');
    }
  });
});

describe('work.start and the Execution Lease renewal', () => {
  it('starts under an Execution Lease the owner renews under the same Lease ID, and refuses an older Ownership Epoch', async () => {
    const { m, workItemId } = await offeredToBoth();
    const asMember = { groupId: m.groupId, membershipEpoch: 1 };
    const [worker] = workers;
    await h.expectOk(h.send(worker, 'work.accept_offer', { workItemId }, asMember));
    const stale = await h.send(worker, 'work.start', { workItemId, ownershipEpoch: 2 }, asMember);
    expect(code(stale)).toBe('WORK_STALE_OWNERSHIP');
    const started = payloadOf(await h.expectOk(h.send(worker, 'work.start', { workItemId, ownershipEpoch: 1 }, asMember)));
    const lease = started['executionLease'] as { leaseId: string; sessionEpoch: number; ownershipEpoch: number };
    expect(lease).toMatchObject({ sessionEpoch: worker.sessionEpoch, ownershipEpoch: 1 });
    const renew = 'ext.missionweaveprotocol.core.work_execution_lease_renew';
    const renewed = payloadOf(await h.expectOk(h.send(worker, renew, { workItemId, ownershipEpoch: 1, executionLeaseId: lease.leaseId }, asMember)));
    expect(renewed['executionLease']).toMatchObject({ leaseId: lease.leaseId, renewalCount: 1 });
    const older = await h.send(worker, renew, { workItemId, ownershipEpoch: 1, executionLeaseId: `urn:uuid:${randomUUID()}` }, asMember);
    expect(code(older)).toBe('WORK_LEASE_EXPIRED');
    const kinds = (await db.pool.query<{ kind: string }>("select kind from events where group_id = $1 and aggregate_type = 'work-item' and aggregate_id = $2 order by sequence", [m.groupId, workItemId])).rows.map((r) => r.kind);
    expect(kinds).toEqual(['work.authorized', 'work.offer.created', 'work.offer.accepted', 'work.started', 'work.progressed']);
    // The stored Events are signed, ordered and fold into the stored WorkItem.
    const report = await verifyGroupHistory(db.pool, m.groupId, { registry: h.authority.registry.current.registry, schemas: h.authority.schemas, authority: h.settings.services.authority, kinds: coreRegistry() });
    expect(report.problems).toEqual([]);
  });
});

describe('approval.grant_execution and the start gate', () => {
  it('refuses work.start until the MissionOwner grants an Execution Approval for the current Ownership Epoch, then starts', async () => {
    const { m, workItemId } = await offeredToBoth('policy_required');
    const asMember = { groupId: m.groupId, membershipEpoch: 1 };
    const [worker] = workers;
    await h.expectOk(h.send(worker, 'work.accept_offer', { workItemId }, asMember));
    const gated = await h.send(worker, 'work.start', { workItemId, ownershipEpoch: 1 }, asMember);
    expect(code(gated)).toBe('APPROVAL_REQUIRED');
    const approval = { workItemId, ownershipEpoch: 1, operations: ['db.migrate'], expiresInSeconds: 600 };
    const stale = await h.send(owner, 'approval.grant_execution', { ...approval, approvalId: `urn:uuid:${randomUUID()}`, ownershipEpoch: 2 }, asMember);
    expect(code(stale)).toBe('WORK_STALE_OWNERSHIP');
    const byWorker = await h.send(worker, 'approval.grant_execution', { ...approval, approvalId: `urn:uuid:${randomUUID()}` }, asMember);
    expect(code(byWorker)).toBe('AUTH_FORBIDDEN');
    const approvalId = `urn:uuid:${randomUUID()}`;
    const granted = payloadOf(await h.expectOk(h.send(owner, 'approval.grant_execution', { ...approval, approvalId }, asMember)));
    expect(granted['approval']).toMatchObject({ approvalId, ownershipEpoch: 1, approver: owner.principal, operations: ['db.migrate'] });
    const again = await h.send(owner, 'approval.grant_execution', { ...approval, approvalId }, asMember);
    expect(code(again)).toBe('INVALID_STATE_TRANSITION');
    await h.expectOk(h.send(worker, 'work.start', { workItemId, ownershipEpoch: 1 }, asMember));
    const kinds = (await db.pool.query<{ kind: string }>("select kind from events where group_id = $1 and aggregate_type = 'work-item' and aggregate_id = $2 order by sequence", [m.groupId, workItemId])).rows.map((r) => r.kind);
    expect(kinds).toEqual(['work.authorized', 'work.offer.created', 'work.offer.accepted', 'approval.execution.granted', 'work.started']);
    const report = await verifyGroupHistory(db.pool, m.groupId, { registry: h.authority.registry.current.registry, schemas: h.authority.schemas, authority: h.settings.services.authority, kinds: coreRegistry() });
    expect(report.problems).toEqual([]);
  });
});
