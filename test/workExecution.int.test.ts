/**
 * The execution half of §10.2 on the real pipeline and PostgreSQL: `work.cancel` and
 * `work.fail` accepted and refused, and the Worker kinds (`work.checkpoint`, `work.block`,
 * `work.submit`), `work.unblock` and `work.accept_result` refused where the WorkItem is not in
 * the state they need, appending nothing. (Reaching `active` through the pipeline needs
 * `work.offer`, `work.accept_offer` and `work.start`; the deciders' tests cover those states.)
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT } from './support/payloadExamples.js';
import { world } from './support/world.js';

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let worker: Actor;

beforeAll(async () => {
  ({ h, owner, coordinator, worker } = await world({ humans: { owner: 'dana' }, agents: { coordinator: {}, worker: {} } }));
});

const HASH = `sha256:${'c'.repeat(64)}`;

async function openWorkItem(): Promise<{ m: MissionRefs; workItemId: string }> {
  const m = await createMission(h, owner, coordinator, { permissions: ['db.read'] });
  await h.expectOk(h.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, { groupId: m.groupId, membershipEpoch: 1 }));
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const contract = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], deadline: new Date(h.clock.millis + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 80 } };
  await h.expectOk(h.send(coordinator, 'work.authorize', { workItemId, contract }, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 }));
  return { m, workItemId };
}

/** Evidence by `by`, signed with its key: the pipeline verifies every element (§6.4, §13.2). */
function evidence(m: MissionRefs, workItemId: string, by: Actor, type = 'failure_report'): JsonObject {
  const now = new Date(h.clock.millis).toISOString();
  const unsigned = {
    evidenceId: `urn:missionweave:evidence:${randomUUID()}`,
    missionId: m.missionId,
    groupId: m.groupId,
    workItemId,
    type,
    subject: { type: 'work_item', id: workItemId },
    criterionIds: EXAMPLE_WORK_CONTRACT.acceptanceCriteria.map((c) => c.criterionId),
    method: 'ran the migration on a copy',
    result: 'failed',
    artifactHashes: [],
    generatedBy: { ...by.principal },
    createdAt: now,
  };
  return signDocument('evidence', unsigned, by.key) as unknown as JsonObject;
}

const asCoordinator = (m: MissionRefs, kind: string, payload: JsonObject) => h.send(coordinator, kind, payload, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });
const asWorker = (m: MissionRefs, kind: string, payload: JsonObject) => h.send(worker, kind, payload, { groupId: m.groupId, membershipEpoch: 1 });

describe('work.cancel', () => {
  it('cancels an open WorkItem by the Coordinator, and refuses a Worker', async () => {
    const { m, workItemId } = await openWorkItem();
    const byWorker = await asWorker(m, 'work.cancel', { workItemId, reason: 'not mine' });
    expect(byWorker.ok ? 'accepted' : byWorker.error.code).toBe('AUTH_FORBIDDEN');
    await h.expectOk(asCoordinator(m, 'work.cancel', { workItemId, reason: 'out of scope' }));
    const cancelled = (await eventsOf(h.pool, m.groupId)).at(-1);
    expect(cancelled).toMatchObject({ kind: 'work.cancelled', workItemId, payload: { reason: 'out of scope', workItem: { state: 'cancelled', revision: 2 }, revokedLeases: [] } });
    const again = await asCoordinator(m, 'work.cancel', { workItemId, reason: 'twice' });
    expect(again.ok ? 'accepted' : again.error.code).toBe('INVALID_STATE_TRANSITION');
  });
});

describe('work.fail', () => {
  it('fails an open WorkItem by the Coordinator with failure Evidence, and refuses one without', async () => {
    const { m, workItemId } = await openWorkItem();
    const before = await count(h.pool, 'events', 'group_id = $1', [m.groupId]);
    const bare = await asCoordinator(m, 'work.fail', { workItemId, reason: 'no evidence' });
    expect(bare.ok ? 'accepted' : bare.error.code).toBe('INVALID_COMMAND');
    expect(await count(h.pool, 'events', 'group_id = $1', [m.groupId])).toBe(before);
    const failure = evidence(m, workItemId, coordinator);
    await h.expectOk(asCoordinator(m, 'work.fail', { workItemId, reason: 'superseded', evidence: [failure] }));
    const failed = (await eventsOf(h.pool, m.groupId)).at(-1);
    expect(failed).toMatchObject({ kind: 'work.failed', payload: { workItem: { state: 'failed', progress: { evidenceIds: [failure['evidenceId']] } } } });
  });
});

describe('the kinds that need an owned, blocked or submitted WorkItem', () => {
  it('work.checkpoint, work.block, work.submit, work.unblock and work.accept_result are refused on an open WorkItem, appending nothing', async () => {
    const { m, workItemId } = await openWorkItem();
    const leased = { workItemId, ownershipEpoch: 1, executionLeaseId: 'urn:missionweave:lease:none' };
    const checkpoint = { phase: 'migrating', createdAt: new Date(h.clock.millis).toISOString() };
    const before = await count(h.pool, 'events', 'group_id = $1', [m.groupId]);
    const answers = [
      await asWorker(m, 'work.checkpoint', { ...leased, checkpoint }),
      await asWorker(m, 'work.block', { ...leased, reason: 'waiting', checkpoint }),
      await asWorker(m, 'work.submit', { ...leased, artifactHashes: [HASH], evidence: [evidence(m, workItemId, worker, 'deterministic_test')] }),
      await asCoordinator(m, 'work.unblock', { workItemId }),
      await asCoordinator(m, 'work.accept_result', { workItemId, evidence: [evidence(m, workItemId, coordinator, 'reviewer_assessment')] }),
    ];
    expect(answers.map((a) => (a.ok ? 'accepted' : a.error.code))).toEqual([
      'WORK_STALE_OWNERSHIP',
      'WORK_STALE_OWNERSHIP',
      'WORK_STALE_OWNERSHIP',
      'INVALID_STATE_TRANSITION',
      'INVALID_STATE_TRANSITION',
    ]);
    expect(await count(h.pool, 'events', 'group_id = $1', [m.groupId])).toBe(before);
  });
});
