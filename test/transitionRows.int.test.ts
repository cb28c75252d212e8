/**
 * Every transition row of §7.1 and §10.2 on the real pipeline (PostgreSQL,
 * `GroupAuthority.submit`), where the other pipeline tests leave a side unshown: the row taken
 * (`work.block`, `work.unblock`, an offer expiring) and the table refusing what it does not
 * permit — each refusal appending nothing. With the other tests' evidence these make the
 * conformance report (docs/conformance.md) whole; a refusal's code is the spec's (§19).
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import { childMission, count, createMission, missionPayload, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { acceptedResult, activeWork, publishedArtifact, submitWork, workEvidence, WORKER_CAPABILITIES, type ActiveWork } from './support/publishedWork.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import { world } from './support/world.js';

const SELECTION = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
let h: Harness;
let owner: Actor;
let coordinator: Actor;
let childCoordinator: Actor;
let worker: Actor;

beforeAll(async () => {
  ({ h, owner, coordinator, childCoordinator, worker } = await world({
    humans: { owner: 'dana' },
    agents: { coordinator: {}, childCoordinator: {}, worker: WORKER_CAPABILITIES },
  }));
});

const asMember = (m: MissionRefs) => ({ groupId: m.groupId, membershipEpoch: 1 });
const asCoordinator = (m: MissionRefs) => ({ ...asMember(m), coordinatorEpoch: 1 });
/** A runnable contract within the test Missions' budget, due within the hour. */
const contract = () => ({ ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(h.clock.millis + 3_600_000).toISOString(), budget: { currency: 'EUR', financialLimit: 5 } });
const checkpoint = () => ({ phase: 'migrating', createdAt: new Date(h.clock.millis).toISOString() });

/** The code each submission got (`accepted` for an accepted one), and that none of the refused appended. */
async function answers(m: MissionRefs, sends: (() => Promise<{ ok: boolean; error?: { code: string } }>)[]): Promise<string[]> {
  const codes: string[] = [];
  for (const send of sends) {
    const before = await count(h.pool, 'events', 'group_id = $1', [m.groupId]);
    const outcome = await send();
    codes.push(outcome.ok ? 'accepted' : (outcome.error?.code ?? '?'));
    if (!outcome.ok) expect(await count(h.pool, 'events', 'group_id = $1', [m.groupId])).toBe(before);
  }
  return codes;
}

async function working(): Promise<ActiveWork> {
  const m = await createMission(h, owner, coordinator);
  return activeWork(h, m, { owner, coordinator, worker });
}

function leased(work: ActiveWork): JsonObject {
  return { workItemId: work.workItemId, ownershipEpoch: 1, executionLeaseId: work.executionLeaseId };
}

describe('§10.2 active → work.block → blocked → work.unblock → queued', () => {
  it('takes both rows, and refuses each Command from a state its row does not start from', async () => {
    const work = await working();
    const { m, workItemId } = work;
    expect(await answers(m, [() => h.send(worker, 'work.block', { ...leased(work), reason: 'needs a database grant', checkpoint: checkpoint(), blockedLeaseSeconds: 3600 }, asMember(m))])).toEqual(['accepted']);
    // blocked: what only an active WorkItem takes is refused.
    expect(
      await answers(m, [
        () => h.send(worker, 'work.checkpoint', { ...leased(work), checkpoint: checkpoint(), resumeWithinSeconds: 600 }, asMember(m)),
        () => h.send(worker, 'work.block', { ...leased(work), reason: 'again', checkpoint: checkpoint() }, asMember(m)),
        () => submitWork(h, work, [`sha256:${'0'.repeat(64)}`]),
      ]),
    ).toEqual(['INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION']);
    expect(await answers(m, [() => h.send(coordinator, 'work.unblock', { workItemId }, asCoordinator(m))])).toEqual(['accepted']);
    // queued again: neither unblocked twice, nor offered while owned, nor approved for a start it does not gate twice.
    expect(
      await answers(m, [
        () => h.send(coordinator, 'work.unblock', { workItemId }, asCoordinator(m)),
        () => h.send(coordinator, 'work.offer', { workItemId, candidateAgentIds: [worker.principal.id], selectionBasis: SELECTION }, asCoordinator(m)),
      ]),
    ).toEqual(['INVALID_STATE_TRANSITION', 'WORK_ALREADY_OWNED']);
    // Started again: an active WorkItem is not started twice, nor given an Execution Approval.
    expect(await answers(m, [() => h.send(worker, 'work.start', { workItemId, ownershipEpoch: 1, executionLeaseSeconds: 600 }, asMember(m))])).toEqual(['accepted']);
    expect(
      await answers(m, [
        () => h.send(worker, 'work.start', { workItemId, ownershipEpoch: 1, executionLeaseSeconds: 600 }, asMember(m)),
        () => h.send(owner, 'approval.grant_execution', { approvalId: `urn:uuid:${randomUUID()}`, workItemId, ownershipEpoch: 1, operations: ['db.migrate'], expiresInSeconds: 600 }, asMember(m)),
      ]),
    ).toEqual(['INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION']);
  });
});

describe('§10.2 the terminal and submitted states', () => {
  it('refuses failing, cancelling, promoting, offering and accepting what has ended or awaits review', async () => {
    const work = await working();
    const { m, workItemId } = work;
    const hash = await publishedArtifact(h, work, `the migration ${workItemId}`);
    await h.expectOk(submitWork(h, work, [hash]));
    // submitted: not promoted to a child Mission, not submitted again.
    const child = missionPayload(h, childCoordinator);
    const promote = () =>
      h.send(coordinator, 'mission.create_child', { missionId: child['missionId'], groupId: child['groupId'], parentWorkItemId: workItemId, coordinatorId: childCoordinator.principal.id, title: 'Part', objective: `Part ${randomUUID()}.`, definitionOfDone: child['definitionOfDone'], budget: { currency: 'EUR', financialLimit: 1 }, deadline: new Date(h.clock.millis + 3_600_000).toISOString() } as JsonObject, asCoordinator(m));
    expect(await answers(m, [promote])).toEqual(['INVALID_STATE_TRANSITION']);
    await h.expectOk(h.send(coordinator, 'work.cancel', { workItemId, reason: 'superseded' }, asCoordinator(m)));
    // cancelled: terminal for every row.
    expect(
      await answers(m, [
        () => h.send(coordinator, 'work.fail', { workItemId, reason: 'late', evidence: [workEvidence(h, work, coordinator, 'failure_report')] }, asCoordinator(m)),
        () => h.send(coordinator, 'work.cancel', { workItemId, reason: 'again' }, asCoordinator(m)),
        () => h.send(coordinator, 'work.offer', { workItemId, candidateAgentIds: [worker.principal.id], selectionBasis: SELECTION }, asCoordinator(m)),
        () => h.send(coordinator, 'work.accept_result', { workItemId, evidence: [workEvidence(h, work, coordinator, 'reviewer_assessment')] }, asCoordinator(m)),
        promote,
        () => h.send(coordinator, 'work.authorize', { workItemId, contract: contract() }, asCoordinator(m)),
      ]),
    ).toEqual(['INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION']);
  });
});

describe('§10.2 offered → offer expiry', () => {
  it('leaves the WorkItem offered and appends nothing; a live offer is accepted', async () => {
    const m = await createMission(h, owner, coordinator);
    await h.expectOk(h.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, asMember(m)));
    const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
    await h.expectOk(h.send(coordinator, 'work.authorize', { workItemId, contract: contract() }, asCoordinator(m)));
    await h.expectOk(h.send(coordinator, 'work.offer', { workItemId, candidateAgentIds: [worker.principal.id], selectionBasis: SELECTION, offerExpiresInSeconds: 10 }, asCoordinator(m)));
    h.clock.advance(11);
    expect(await answers(m, [() => h.send(worker, 'work.accept_offer', { workItemId, ownershipLeaseSeconds: 900 }, asMember(m))])).toEqual(['WORK_OFFER_EXPIRED']);
    await h.expectOk(h.send(coordinator, 'work.offer', { workItemId, candidateAgentIds: [worker.principal.id], selectionBasis: SELECTION, offerExpiresInSeconds: 10 }, asCoordinator(m)));
    expect(await answers(m, [() => h.send(worker, 'work.accept_offer', { workItemId, ownershipLeaseSeconds: 900 }, asMember(m))])).toEqual(['accepted']);
  });
});

describe('§10.2 linked child Mission outcomes', () => {
  it('settles a child only onto a parent WorkItem that waits for it, and only once', async () => {
    const parent = await createMission(h, owner, coordinator);
    const child = await childMission(h, parent, coordinator, childCoordinator, 12, 20, { failurePolicy: 'fail_parent_work_item' });
    const settle = (workItemId: string) => h.send(h.authorityActor, 'ext.missionweave.core.child_mission_settle', { parentWorkItemId: workItemId, childMissionId: child.missionId }, { groupId: parent.groupId, workItemId });
    const rows = await h.pool.query<{ aggregate_id: string }>("select aggregate_id from aggregates where group_id = $1 and aggregate_type = 'work-item'", [parent.groupId]);
    const workItemId = rows.rows[0]?.aggregate_id as string;
    // The child runs: nothing to settle on its blocked parent WorkItem; an unrelated one is not its parent.
    const other = `urn:missionweave:work-item:${randomUUID()}`;
    await h.expectOk(h.send(coordinator, 'work.authorize', { workItemId: other, contract: contract() }, asCoordinator(parent)));
    expect(await answers(parent, [() => settle(workItemId), () => settle(other)])).toEqual(['INVALID_STATE_TRANSITION', 'INVALID_COMMAND']);
    // The child fails: its parent WorkItem fails with it (blocked → failed), once.
    await h.expectOk(h.send(childCoordinator, 'mission.terminate', { reason: 'the archive is unreadable' }, asCoordinator(child)));
    expect(await answers(parent, [() => settle(workItemId), () => settle(workItemId)])).toEqual(['accepted', 'INVALID_STATE_TRANSITION']);
  });
});

describe('§7.1 the Mission rows refused', () => {
  it('refuses what a Mission’s state does not permit, and a creation under an ID in use', async () => {
    const m = await createMission(h, owner, coordinator);
    const taken = missionPayload(h, coordinator, { groupId: m.groupId });
    const followUp = { ...taken, followUpOfMissionId: m.missionId } as JsonObject;
    expect(
      await answers(m, [
        () => h.send(owner, 'mission.request_changes', { missionRevision: 1, feedback: 'Not yet submitted.' }, asMember(m)),
        () => h.send(owner, 'mission.create', taken, { groupId: m.groupId }),
        () => h.send(owner, 'mission.create_follow_up', followUp, { groupId: m.groupId }),
        () => h.send(owner, 'work.propose', { proposalId: `urn:uuid:${randomUUID()}`, contract: contract() }, asMember(m)),
      ]),
    ).toEqual(['INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION', 'accepted']);
    await h.expectOk(h.send(owner, 'mission.cancel', { reason: 'No longer needed.' }, asMember(m)));
    expect(
      await answers(m, [
        () => h.send(owner, 'mission.cancel', { reason: 'Again.' }, asMember(m)),
        () => h.send(coordinator, 'mission.terminate', { reason: 'Again.' }, asCoordinator(m)),
        () => h.send(owner, 'mission.assign_coordinator', { coordinatorId: childCoordinator.principal.id, leaseSeconds: 300 }, asMember(m)),
      ]),
    ).toEqual(['INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION']);
  });
});

describe('kinds the other pipeline tests leave one-sided', () => {
  it('corrects a Message, refuses a Work Proposal ID in use, and revises a child Mission’s budget in both Groups', async () => {
    const m = await createMission(h, owner, coordinator);
    const messageId = `urn:uuid:${randomUUID()}`;
    await h.expectOk(h.send(owner, 'message.post', { messageId, conversationId: m.mainConversationId, content: 'Ship on Fridya.' }, asMember(m)));
    const correction = { amendmentId: `urn:uuid:${randomUUID()}`, messageId, replacementContent: 'Ship on Friday.', reason: 'typo' };
    expect(await answers(m, [() => h.send(owner, 'message.correct', correction, asMember(m))])).toEqual(['accepted']);
    // Retracted, a Message is never corrected or retracted again; only its author amends it, and
    // only the MissionOwner redacts (§9).
    const amend = (reason: string) => ({ amendmentId: `urn:uuid:${randomUUID()}`, messageId, reason });
    await h.expectOk(h.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, asMember(m)));
    expect(
      await answers(m, [
        () => h.send(worker, 'message.redact', amend('not mine to redact'), asMember(m)),
        () => h.send(owner, 'message.retract', amend('posted too soon'), asMember(m)),
        () => h.send(owner, 'message.correct', { ...amend('too late'), replacementContent: 'Ship on Monday.' }, asMember(m)),
        () => h.send(owner, 'message.retract', amend('again'), asMember(m)),
      ]),
    ).toEqual(['AUTH_FORBIDDEN', 'accepted', 'INVALID_STATE_TRANSITION', 'INVALID_STATE_TRANSITION']);
    const proposal = { proposalId: `urn:uuid:${randomUUID()}`, contract: contract() };
    expect(await answers(m, [() => h.send(owner, 'work.propose', proposal, asMember(m)), () => h.send(owner, 'work.propose', proposal, asMember(m))])).toEqual(['accepted', 'INVALID_STATE_TRANSITION']);
    const child = await childMission(h, m, coordinator, childCoordinator);
    const revise = { budget: { currency: 'EUR', financialLimit: 30 }, reason: 'The port needs more review time.' };
    expect(await answers(child, [() => h.send(coordinator, 'ext.missionweave.core.budget_revise', revise, asMember(child))])).toEqual(['accepted']);
    const kinds = await h.pool.query<{ kind: string }>('select kind from events where group_id = any($1) order by group_id, sequence', [[m.groupId, child.groupId]]);
    expect(kinds.rows.map((r) => r.kind)).toEqual(expect.arrayContaining(['ext.missionweave.core.mission_budget_revised', 'ext.missionweave.core.child_budget_revised']));
  });
});

describe('§7.1 submission and approval refused out of turn', () => {
  it('submits only an active Mission, approves only one awaiting approval, and keeps membership and the lease to their holders', async () => {
    const m = await createMission(h, owner, coordinator);
    const hashes = await acceptedResult(h, m, { owner, coordinator, worker }, [`result ${randomUUID()}`], { financialLimit: 5, deadlineSeconds: 3600 });
    const submit = () => h.send(coordinator, 'mission.submit_for_approval', { artifactHashes: hashes }, asCoordinator(m));
    expect(await answers(m, [submit, submit])).toEqual(['accepted', 'INVALID_STATE_TRANSITION']);
    await h.expectOk(h.send(owner, 'mission.request_changes', { missionRevision: 2, feedback: 'Add the rollback notes.' }, asMember(m)));
    const approvalId = `urn:uuid:${randomUUID()}`;
    const approval = signDocument(
      'approval',
      { approvalId, kind: 'mission_final', decision: 'approved', missionId: m.missionId, groupId: m.groupId, missionRevision: 3, artifactHashes: hashes, acceptancePolicyVersion: '1.0.0', approver: { ...owner.principal }, comments: 'Fine.', conditions: [], occurredAt: h.now() },
      owner.key,
    ) as unknown as JsonObject;
    expect(
      await answers(m, [
        () => h.send(owner, 'mission.approve', { approvalId, missionRevision: 3, artifactHashes: hashes, acceptancePolicyVersion: '1.0.0', approval }, asMember(m)),
        () => h.send(worker, 'membership.change', { principal: { ...childCoordinator.principal }, roles: ['worker'] }, asMember(m)),
        () => h.send(owner, 'membership.end', { principal: { ...childCoordinator.principal } }, asMember(m)),
        () => h.send(worker, 'mission.renew_coordinator', { leaseSeconds: 300 }, asCoordinator(m)),
      ]),
    ).toEqual(['INVALID_STATE_TRANSITION', 'AUTH_FORBIDDEN', 'INVALID_STATE_TRANSITION', 'AUTH_FORBIDDEN']);
  });
});
