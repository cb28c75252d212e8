/**
 * Child Missions across Groups on the real pipeline and PostgreSQL (§7.1, §10.2, §14): the
 * child-Mission sweeps find what the Group Authority must do, and their drafts, signed with the
 * Authority's key, go through the ordinary pipeline — as the reactor will run them. A child's
 * approval verifies its parent WorkItem with the Approval as Evidence; a child's failure follows
 * `fail_parent_work_item`; a parent's cancellation cancels its child and, on the next pass, the
 * grandchild, and so does the parent WorkItem's own `work.cancel` or `work.fail`, fencing the
 * child's Workers. Issuing a draft twice, or at once from two nodes, makes one transition. A human
 * gate in a grandchild is opened by the root's human MissionOwner, never by an Agent.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { timestampOf } from '../src/app/issueDocuments.js';
import pino from 'pino';
import { AuthorityReactor } from '../src/app/reactor/authorityReactor.js';
import { childSettleSweep, parentCancellationSweep } from '../src/app/reactor/childSweeps.js';
import type { AuthorityCommandDraft, Sweep } from '../src/app/reactor/sweep.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import { findChildrenOfEndedParents, findEndedChildren } from '../src/store/sql/childMissions.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import { childMission, count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { acceptedResult, activeWork, submitWork, workEvidence, WORKER_CAPABILITIES, type ActiveWork } from './support/publishedWork.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { world } from './support/world.js';

/** The child's accepted result, published in the child Group (§7.3: what it may submit). */
const CONTENTS = ['child schema port', 'child report'];
const HASHES = CONTENTS.map((c) => sha256ContentHash(c));
let h: Harness;
let owner: Actor;
let coordinator: Actor;
let childCoordinator: Actor;
let grandchildCoordinator: Actor;
let worker: Actor;

beforeAll(async () => {
  ({ h, owner, coordinator, childCoordinator, grandchildCoordinator, worker } = await world({
    humans: { owner: 'dana' },
    agents: { coordinator: {}, childCoordinator: {}, grandchildCoordinator: {}, worker: WORKER_CAPABILITIES },
  }));
});

function asCoordinator(m: MissionRefs, kind: string, payload: JsonObject, actor = coordinator) {
  return h.send(actor, kind, payload, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 });
}

/** A WorkItem authorized in `m` by its Coordinator, due within `hours`. */
async function authorizedWork(m: MissionRefs, actor: Actor, hours: number, financialLimit: number): Promise<string> {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const contract = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], deadline: new Date(h.clock.millis + hours * 3_600_000).toISOString(), budget: { currency: 'EUR', financialLimit } };
  await h.expectOk(asCoordinator(m, 'work.authorize', { workItemId, contract }, actor));
  return workItemId;
}

/** `parent`'s WorkItem promoted to a child Mission coordinated by `childActor`. */
async function promote(parent: MissionRefs, workItemId: string, parentActor: Actor, childActor: Actor, hours: number, failurePolicy = 'block_parent_work_item', financialLimit = 20): Promise<MissionRefs> {
  const suffix = randomUUID();
  const child = { missionId: `urn:missionweave:mission:${suffix}`, groupId: `urn:missionweave:group:${suffix}`, mainConversationId: `urn:missionweave:conversation:${suffix}` };
  await h.expectOk(
    asCoordinator(
      parent,
      'mission.create_child',
      {
        ...child,
        parentWorkItemId: workItemId,
        coordinatorId: childActor.principal.id,
        title: 'Port the schema',
        // Each level its own objective: a repeated one is duplicate decomposition (§20).
        objective: `Port the billing schema, part ${suffix}.`,
        definitionOfDone: [{ criterionId: 'ported', description: 'Schema ported.', evidenceRequired: ['deterministic_test'] }],
        budget: { currency: 'EUR', financialLimit },
        deadline: new Date(h.clock.millis + hours * 3_600_000).toISOString(),
        failurePolicy,
      },
      parentActor,
    ),
  );
  return child;
}

/** The stored document of an aggregate. */
async function aggregate(groupId: string, type: string, id: string): Promise<JsonObject> {
  const result = await h.pool.query<{ document: JsonObject }>('select document from aggregates where group_id = $1 and aggregate_type = $2 and aggregate_id = $3', [groupId, type, id]);
  return result.rows[0]?.document ?? {};
}

/** A sweep's draft signed as the Group Authority, as the reactor does. */
function signed(draft: AuthorityCommandDraft): JsonObject {
  return h.sign(h.authorityActor, draft.kind, draft.payload, {
    groupId: draft.groupId,
    actionId: draft.actionId,
    ...(draft.workItemId === undefined ? {} : { workItemId: draft.workItemId }),
  });
}

function issue(draft: AuthorityCommandDraft) {
  return h.authority.submit(signed(draft));
}

/** One pass of `sweep`: every draft it finds now, issued; the drafts found. */
async function pass(sweep: Sweep): Promise<readonly AuthorityCommandDraft[]> {
  const drafts = await sweep.find(h.pool, h.clock.millis, 100);
  for (const draft of drafts) await h.expectOk(issue(draft));
  return drafts;
}

function mine(drafts: readonly AuthorityCommandDraft[], groupId: string): AuthorityCommandDraft[] {
  return drafts.filter((d) => d.groupId === groupId);
}

describe('a child Mission’s approval', () => {
  it('verifies the parent WorkItem with the child Approval as Evidence, once, however often it is issued', async () => {
    const parent = await createMission(h, owner, coordinator);
    const workItemId = await authorizedWork(parent, coordinator, 24, 80);
    const child = await promote(parent, workItemId, coordinator, childCoordinator, 12);
    expect(await aggregate(parent.groupId, 'work-item', workItemId)).toMatchObject({ state: 'blocked', owner: { agentId: coordinator.principal.id, ownershipEpoch: 1 } });

    // While the child runs there is nothing to settle.
    expect(mine(await childSettleSweep.find(h.pool, h.clock.millis, 100), parent.groupId)).toEqual([]);

    // The child's MissionOwner is the parent's Coordinator; its Worker produces the result.
    await acceptedResult(h, child, { owner: coordinator, coordinator: childCoordinator, worker }, CONTENTS, { financialLimit: 5, deadlineSeconds: 3600 });
    await h.expectOk(asCoordinator(child, 'mission.submit_for_approval', { artifactHashes: HASHES }, childCoordinator));
    const approvalId = `urn:uuid:${randomUUID()}`;
    const approval = signDocument(
      'approval',
      {
        approvalId,
        kind: 'child_mission',
        decision: 'approved',
        missionId: child.missionId,
        groupId: child.groupId,
        missionRevision: 2,
        artifactHashes: HASHES,
        acceptancePolicyVersion: '1.0.0',
        approver: coordinator.principal,
        comments: 'Accepted.',
        conditions: [],
        occurredAt: timestampOf(h.clock.millis),
      },
      coordinator.key,
    ) as unknown as JsonObject;
    await h.expectOk(h.send(coordinator, 'mission.approve', { approvalId, missionRevision: 2, artifactHashes: HASHES, acceptancePolicyVersion: '1.0.0', approval }, { groupId: child.groupId, membershipEpoch: 1 }));

    const [draft, ...others] = mine(await childSettleSweep.find(h.pool, h.clock.millis, 100), parent.groupId);
    expect(others).toEqual([]);
    // The same Command submitted twice at once (a retry), and another node's copy signed at
    // another instant: one transition; the copy meets the fact's Action ID.
    const before = await count(h.pool, 'events', 'group_id = $1', [parent.groupId]);
    const command = signed(draft!);
    h.clock.advance(1);
    const outcomes = await Promise.all([h.authority.submit(command), h.authority.submit(command), issue(draft!)]);
    const answers = outcomes.map((o) => (o.ok ? 'ok' : o.error.code));
    expect(answers).toContain('ok');
    expect(answers.filter((a) => a !== 'ok')).toEqual(answers.filter((a) => a === 'ACTION_ID_COLLISION'));
    expect(await count(h.pool, 'events', 'group_id = $1', [parent.groupId])).toBe(before + 1);

    expect(await aggregate(parent.groupId, 'work-item', workItemId)).toMatchObject({
      state: 'verified',
      submission: { artifactHashes: HASHES, evidenceIds: [approvalId] },
    });
    const last = (await eventsOf(h.pool, parent.groupId)).at(-1)!;
    expect(last).toMatchObject({ kind: 'work.result.accepted', actor: h.authorityActor.principal, payload: { childApprovalId: approvalId, childMissionId: child.missionId } });

    // Settled: the sweep finds nothing more, and a later copy of the Command changes nothing.
    expect(mine(await childSettleSweep.find(h.pool, h.clock.millis, 100), parent.groupId)).toEqual([]);
    h.clock.advance(1);
    const late = await issue(draft!);
    expect(late.ok ? 'accepted' : late.error.code).not.toBe('accepted');
    expect(await count(h.pool, 'events', 'group_id = $1', [parent.groupId])).toBe(before + 1);
  });

  it('is settled only by the Group Authority', async () => {
    const parent = await createMission(h, owner, coordinator);
    const workItemId = await authorizedWork(parent, coordinator, 24, 80);
    const child = await promote(parent, workItemId, coordinator, childCoordinator, 12);
    const forged = await asCoordinator(parent, 'ext.missionweave.core.child_mission_settle', { parentWorkItemId: workItemId, childMissionId: child.missionId });
    expect(forged.ok ? 'accepted' : forged.error.code).toBe('AUTH_FORBIDDEN');
  });
});

describe('a child Mission’s failure under fail_parent_work_item', () => {
  it('fails the parent WorkItem with the failure as Evidence; the parent Mission goes on', async () => {
    const parent = await createMission(h, owner, coordinator);
    const workItemId = await authorizedWork(parent, coordinator, 24, 80);
    const child = await promote(parent, workItemId, coordinator, childCoordinator, 12, 'fail_parent_work_item');
    await h.expectOk(asCoordinator(child, 'mission.terminate', { reason: 'the vendor API is gone' }, childCoordinator));

    expect(mine(await pass(childSettleSweep), parent.groupId)).toHaveLength(1);
    expect(await aggregate(parent.groupId, 'work-item', workItemId)).toMatchObject({ state: 'failed' });
    expect(await aggregate(parent.groupId, 'mission', parent.missionId)).toMatchObject({ mission: { state: 'active' } });
    const last = (await eventsOf(h.pool, parent.groupId)).at(-1)!;
    expect(last).toMatchObject({
      kind: 'work.failed',
      payload: { reason: `child Mission ${child.missionId} failed: the vendor API is gone`, outcome: { state: 'failed', reason: 'the vendor API is gone' } },
    });
  });
});

describe('a child Mission cancelled by its owner', () => {
  it('leaves the parent WorkItem blocked, settled once, for the Coordinator to promote again under the next epoch', async () => {
    const parent = await createMission(h, owner, coordinator);
    const workItemId = await authorizedWork(parent, coordinator, 24, 80);
    const child = await promote(parent, workItemId, coordinator, childCoordinator, 12, 'fail_parent_mission');
    // The Parent Coordinator is the child's MissionOwner (§14).
    await h.expectOk(h.send(coordinator, 'mission.cancel', { reason: 'scope moved back to the parent' }, { groupId: child.groupId, membershipEpoch: 1 }));

    expect(mine(await pass(childSettleSweep), parent.groupId)).toHaveLength(1);
    expect(await aggregate(parent.groupId, 'mission', parent.missionId)).toMatchObject({ mission: { state: 'active' } });
    const item = await aggregate(parent.groupId, 'work-item', workItemId);
    expect(item).toMatchObject({ state: 'blocked', progress: { blockers: [`child Mission ${child.missionId} cancelled: scope moved back to the parent`] } });
    expect(mine(await childSettleSweep.find(h.pool, h.clock.millis, 100), parent.groupId)).toEqual([]);

    await promote(parent, workItemId, coordinator, childCoordinator, 12);
    expect(await aggregate(parent.groupId, 'work-item', workItemId)).toMatchObject({ state: 'blocked', owner: { agentId: coordinator.principal.id, ownershipEpoch: 2 } });
  });
});

describe('parent-cancellation propagation', () => {
  it('cancels the child, then the grandchild, and settles nothing on cancelled WorkItems', async () => {
    const parent = await createMission(h, owner, coordinator);
    const workItemId = await authorizedWork(parent, coordinator, 24, 80);
    const child = await promote(parent, workItemId, coordinator, childCoordinator, 12);
    const childWork = await authorizedWork(child, childCoordinator, 6, 10);
    const grandchild = await promote(child, childWork, childCoordinator, grandchildCoordinator, 4, 'block_parent_work_item', 5);

    // A cancellation citing a parent that is still running is refused: the store, not the payload, decides.
    const early = await h.send(h.authorityActor, 'mission.cancel', { reason: 'too soon', parentMissionId: parent.missionId }, { groupId: child.groupId });
    expect(early.ok ? 'accepted' : early.error.code).toBe('INVALID_STATE_TRANSITION');

    await h.expectOk(h.send(owner, 'mission.cancel', { reason: 'the project was dropped' }, { groupId: parent.groupId, membershipEpoch: 1 }));
    expect(await aggregate(parent.groupId, 'work-item', workItemId)).toMatchObject({ state: 'cancelled' });

    const first = await pass(parentCancellationSweep);
    expect(mine(first, child.groupId)).toHaveLength(1);
    expect(mine(first, grandchild.groupId)).toEqual([]);
    expect(await aggregate(child.groupId, 'mission', child.missionId)).toMatchObject({ mission: { state: 'cancelled' } });
    expect(await aggregate(grandchild.groupId, 'mission', grandchild.missionId)).toMatchObject({ mission: { state: 'active' } });

    const second = await pass(parentCancellationSweep);
    expect(mine(second, grandchild.groupId)).toHaveLength(1);
    expect(await aggregate(grandchild.groupId, 'mission', grandchild.missionId)).toMatchObject({ mission: { state: 'cancelled' } });
    const [cancelled] = (await eventsOf(h.pool, grandchild.groupId)).slice(-1);
    expect(cancelled).toMatchObject({ kind: 'mission.cancelled', actor: h.authorityActor.principal, payload: { reason: `parent Mission ${child.missionId} cancelled` } });

    const third = await parentCancellationSweep.find(h.pool, h.clock.millis, 100);
    expect([...mine(third, child.groupId), ...mine(third, grandchild.groupId)]).toEqual([]);
    // The cancelled parent WorkItems are no longer blocked: nothing is settled on them.
    const settles = await childSettleSweep.find(h.pool, h.clock.millis, 100);
    expect([...mine(settles, parent.groupId), ...mine(settles, child.groupId)]).toEqual([]);
  });
});

describe('a parent WorkItem’s end', () => {
  /** A child of a fresh parent Mission with a Worker executing a WorkItem there: the fence to prove. */
  async function runningChild() {
    const parent = await createMission(h, owner, coordinator);
    const workItemId = await authorizedWork(parent, coordinator, 24, 80);
    const child = await promote(parent, workItemId, coordinator, childCoordinator, 12);
    const work = await activeWork(h, child, { owner: coordinator, coordinator: childCoordinator, worker }, { financialLimit: 5, deadlineSeconds: 3600 });
    return { parent, workItemId, child, work };
  }

  /** The child cancelled by the Group Authority citing the parent WorkItem; its Worker and Coordinator fenced. */
  async function expectChildSettled(parent: MissionRefs, workItemId: string, child: MissionRefs, work: ActiveWork, how: string) {
    const [cancelled] = (await eventsOf(h.pool, child.groupId)).slice(-1);
    expect(cancelled).toMatchObject({
      kind: 'mission.cancelled',
      actor: h.authorityActor.principal,
      payload: { reason: `parent WorkItem ${workItemId} ${how}`, mission: { state: 'cancelled' } },
    });
    // The Worker's WorkItem ended with the Mission, its Execution Lease revoked (§12).
    const childWork = await aggregate(child.groupId, 'work-item', work.workItemId);
    expect(childWork).toMatchObject({ state: 'cancelled' });
    const leases = (childWork['extensions'] as Record<string, { data: { execution?: unknown; closed: JsonObject[] } }>)['urn:missionweave:extension:work-leases']!.data;
    expect(leases.execution).toBeUndefined();
    expect(leases.closed).toContainEqual(expect.objectContaining({ leaseId: work.executionLeaseId, state: 'revoked' }));
    const late = await submitWork(h, work, [HASHES[0]!]);
    expect(late.ok ? 'accepted' : late.error.code).toBe('INVALID_STATE_TRANSITION');
    const renew = await h.send(worker, 'ext.missionweaveprotocol.core.work_execution_lease_renew', { workItemId: work.workItemId, ownershipEpoch: 1, executionLeaseId: work.executionLeaseId }, { groupId: child.groupId, membershipEpoch: 1 });
    expect(renew.ok ? 'accepted' : renew.error.code).toBe('INVALID_STATE_TRANSITION');
    // The child Coordinator issues no more assignments.
    const assignment = await asCoordinator(child, 'work.authorize', { workItemId: `urn:missionweave:work-item:${randomUUID()}`, contract: EXAMPLE_WORK_CONTRACT as unknown as JsonObject }, childCoordinator);
    expect(assignment.ok ? 'accepted' : assignment.error.code).toBe('INVALID_STATE_TRANSITION');
    // Settled once: nothing more to cancel, and nothing is settled on the parent WorkItem.
    expect(mine(await parentCancellationSweep.find(h.pool, h.clock.millis, 100), child.groupId)).toEqual([]);
    expect(mine(await childSettleSweep.find(h.pool, h.clock.millis, 100), parent.groupId)).toEqual([]);
  }

  it('work.cancel cancels the running child through the reactor’s sweep, fencing its Worker', async () => {
    const { parent, workItemId, child, work } = await runningChild();
    await h.expectOk(asCoordinator(parent, 'work.cancel', { workItemId, reason: 'no longer needed' }));

    const drafts = mine(await pass(parentCancellationSweep), child.groupId);
    expect(drafts).toHaveLength(1);
    expect(drafts[0]?.payload).toMatchObject({ parentMissionId: parent.missionId, parentWorkItemId: workItemId });
    await expectChildSettled(parent, workItemId, child, work, 'cancelled');
  });

  it('work.fail cancels the running child even when the WorkItem was offered again before the sweep ran', async () => {
    const { parent, workItemId, child, work } = await runningChild();
    const failure = workEvidence(h, { m: parent, workItemId, worker: coordinator, executionLeaseId: '' }, coordinator, 'failure_report');
    await h.expectOk(asCoordinator(parent, 'work.fail', { workItemId, reason: 'the approach is wrong', evidence: [failure] }));
    // The Coordinator re-offers at once (§10.2 `failed` → `work.offer`): the child must still end.
    await h.expectOk(h.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, { groupId: parent.groupId, membershipEpoch: 1 }));
    const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
    await h.expectOk(asCoordinator(parent, 'work.offer', { workItemId, candidateAgentIds: [worker.principal.id], selectionBasis }));

    // Citing a parent WorkItem that still holds the child is refused: the store decides.
    const other = await runningChild();
    const forged = await h.send(h.authorityActor, 'mission.cancel', { reason: 'forged', parentMissionId: other.parent.missionId, parentWorkItemId: other.workItemId }, { groupId: other.child.groupId });
    expect(forged.ok ? 'accepted' : forged.error.code).toBe('INVALID_STATE_TRANSITION');

    expect(mine(await pass(parentCancellationSweep), child.groupId)).toHaveLength(1);
    expect(mine(await parentCancellationSweep.find(h.pool, h.clock.millis, 100), other.child.groupId)).toEqual([]);
    await expectChildSettled(parent, workItemId, child, work, 'failed');
    // The WorkItem released its child: a replacement child is one of the Coordinator's options.
    await promote(parent, workItemId, coordinator, childCoordinator, 12);
    expect(await aggregate(parent.groupId, 'work-item', workItemId)).toMatchObject({ state: 'blocked' });
  });
});

describe('a human gate in a descendant Mission (§12, §14)', () => {
  it('is satisfied by the root’s human MissionOwner through its own Membership Epoch, never by an Agent or a stranger', async () => {
    const permissions = { permissions: ['db.migrate'] };
    const root = await createMission(h, owner, coordinator, permissions);
    const child = await childMission(h, root, coordinator, childCoordinator, 12, 20, permissions);
    const grandchild = await childMission(h, child, childCoordinator, grandchildCoordinator, 4, 5, permissions);
    const asMember = { groupId: grandchild.groupId, membershipEpoch: 1 };
    const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
    const contract = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], executionApproval: 'human_required', deadline: new Date(h.clock.millis + 3 * 3_600_000).toISOString(), budget: { currency: 'EUR', financialLimit: 2 } };
    await h.expectOk(h.send(childCoordinator, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, asMember));
    await h.expectOk(asCoordinator(grandchild, 'work.authorize', { workItemId, contract }, grandchildCoordinator));
    const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
    await h.expectOk(asCoordinator(grandchild, 'work.offer', { workItemId, candidateAgentIds: [worker.principal.id], selectionBasis }, grandchildCoordinator));
    await h.expectOk(h.send(worker, 'work.accept_offer', { workItemId, ownershipLeaseSeconds: 900 }, asMember));
    const gated = await h.send(worker, 'work.start', { workItemId, ownershipEpoch: 1 }, asMember);
    expect(gated.ok ? 'started' : gated.error.code).toBe('APPROVAL_REQUIRED');

    const approval = () => ({ approvalId: `urn:uuid:${randomUUID()}`, workItemId, ownershipEpoch: 1, operations: ['db.migrate'] });
    const refusals = [
      // The grandchild's MissionOwner is the child's Coordinator, an Agent: never a human gate's approver.
      await h.send(childCoordinator, 'approval.grant_execution', approval(), asMember),
      // The root Coordinator holds no Membership there, and an unrelated human owns nothing on the path.
      await h.send(coordinator, 'approval.grant_execution', approval(), asMember),
      await h.send(await h.human('stranger'), 'approval.grant_execution', approval(), asMember),
      // The root owner's Command carries its root Membership's Epoch; another one is fenced.
      await h.send(owner, 'approval.grant_execution', approval(), { ...asMember, membershipEpoch: 2 }),
    ];
    expect(refusals.map((r) => (r.ok ? 'accepted' : r.error.code))).toEqual(['AUTH_FORBIDDEN', 'GROUP_NOT_FOUND', 'GROUP_NOT_FOUND', 'MEMBERSHIP_STALE']);
    expect(refusals[0]?.ok === false && refusals[0].error.message).toBe('an Agent may not grant an Execution Approval');

    const granted = await h.expectOk(h.send(owner, 'approval.grant_execution', approval(), asMember));
    const payload = (JSON.parse(granted.events[0]!.text) as { payload: JsonObject }).payload;
    expect(payload['approval']).toMatchObject({ requirement: 'human_required', approver: owner.principal, groupId: grandchild.groupId });
    await h.expectOk(h.send(worker, 'work.start', { workItemId, ownershipEpoch: 1 }, asMember));
  });
});

describe('the sweeps’ statements', () => {
  it('can read only the partial indexes of running child links and running child Missions', async () => {
    const client = await h.pool.connect();
    try {
      // With sequential scans priced out, a plan that still scans the whole table means the
      // statement's predicate no longer matches its index's.
      await client.query('set enable_seqscan = off');
      await findEndedChildren(client, 10);
      await findChildrenOfEndedParents(client, 10);
      const plan = async (name: string) => (await client.query<{ 'QUERY PLAN': string }>(`explain execute "${name}"(10)`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(await plan('find-ended-children')).toContain('aggregates_unsettled_child_links');
      expect(await plan('find-children-of-ended-parents')).toContain('aggregates_running_child_missions');
    } finally {
      await client.query('reset enable_seqscan');
      client.release();
    }
  });
});

describe('the Authority reactor', () => {
  it('runs the child-Mission sweeps by default: a failed child and a cancelled parent reach their Groups in its rounds', async () => {
    const reactor = AuthorityReactor.start({ authority: h.authority, pool: h.pool, logger: pino({ level: 'silent' }), periodMs: 3_600_000 });
    try {
      const parent = await createMission(h, owner, coordinator);
      const workItemId = await authorizedWork(parent, coordinator, 24, 80);
      const failing = await promote(parent, workItemId, coordinator, childCoordinator, 12, 'fail_parent_work_item');
      await h.expectOk(asCoordinator(failing, 'mission.terminate', { reason: 'no data source' }, childCoordinator));
      await reactor.sweepNow();
      expect(await aggregate(parent.groupId, 'work-item', workItemId)).toMatchObject({ state: 'failed' });

      const other = await authorizedWork(parent, coordinator, 24, 80);
      const running = await promote(parent, other, coordinator, childCoordinator, 12);
      await h.expectOk(h.send(owner, 'mission.cancel', { reason: 'stop everything' }, { groupId: parent.groupId, membershipEpoch: 1 }));
      await reactor.sweepNow();
      expect(await aggregate(running.groupId, 'mission', running.missionId)).toMatchObject({ mission: { state: 'cancelled' } });
    } finally {
      await reactor.close();
    }
  });
});
