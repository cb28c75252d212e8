/**
 * The Mission lifecycle end to end through the pipeline: the Coordinator submits an exact
 * revision and Artifact set, the human MissionOwner approves it with a signed Approval, the
 * approved Mission is immutable, and a follow-up Mission links to it; Coordinator replacement
 * fences the former Coordinator's Commands.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { timestampOf } from '../src/app/issueDocuments.js';
import { verifyGroupHistory } from '../src/app/verifyGroupHistory.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import { acceptedResult, WORKER_CAPABILITIES } from './support/publishedWork.js';
import { createMission, eventsOf, missionPayload, type MissionRefs } from './support/missions.js';
import { world } from './support/world.js';
import { coreRegistry } from './support/coreDecider.js';

/** The accepted result a Mission submits: the same content, published anew in each Mission's Group. */
const CONTENTS = ['lifecycle migration', 'lifecycle report'];
const HASHES = CONTENTS.map((c) => sha256ContentHash(c));
let h: Harness;
let owner: Actor;
let coordinator: Actor;
let replacement: Actor;
let worker: Actor;

/** A Mission whose one WorkItem's accepted result is HASHES (§7.3: what it may submit). */
async function missionWithResult(overrides: JsonObject = {}): Promise<MissionRefs> {
  const m = await createMission(h, owner, coordinator, overrides);
  await acceptedResult(h, m, { owner, coordinator, worker }, CONTENTS);
  return m;
}

beforeAll(async () => {
  ({ h, owner, coordinator, replacement, worker } = await world({
    humans: { owner: 'owner' },
    agents: { coordinator: {}, replacement: {}, worker: WORKER_CAPABILITIES },
  }));
});

async function membershipEpoch(groupId: string, actor: Actor): Promise<number> {
  const result = await h.pool.query<{ epoch: number }>(
    `select (document->>'membershipEpoch')::int as epoch from aggregates where group_id = $1 and aggregate_type = 'membership' and document->'member'->>'id' = $2`,
    [groupId, actor.principal.id],
  );
  return result.rows[0]?.epoch ?? 0;
}

function asCoordinator(m: MissionRefs, actor: Actor, kind: string, payload: JsonObject, coordinatorEpoch = 1, membership = 1) {
  return h.send(actor, kind, payload, { groupId: m.groupId, membershipEpoch: membership, coordinatorEpoch });
}

function signedApproval(m: MissionRefs, missionRevision: number, artifactHashes: string[]): JsonObject {
  const document = {
    approvalId: `urn:uuid:${randomUUID()}`,
    kind: 'mission_final',
    decision: 'approved',
    missionId: m.missionId,
    groupId: m.groupId,
    missionRevision,
    artifactHashes,
    acceptancePolicyVersion: '1.0.0',
    approver: owner.principal,
    comments: 'Ship it.',
    conditions: [],
    occurredAt: timestampOf(h.clock.millis),
  };
  return signDocument('approval', document, owner.key) as unknown as JsonObject;
}

describe('submission and human Approval', () => {
  it('approves exactly the submitted revision and Artifact set, then nothing changes the Mission', async () => {
    const m = await missionWithResult();
    const submitted = await h.expectOk(asCoordinator(m, coordinator, 'mission.submit_for_approval', { artifactHashes: HASHES }));
    const revision = (JSON.parse(submitted.events[0]?.text ?? '{}') as { payload: { missionRevision: number } }).payload.missionRevision;
    const wrongSet = await h.send(owner, 'mission.approve', { approvalId: 'urn:uuid:x', missionRevision: revision, artifactHashes: [HASHES[0] as string], acceptancePolicyVersion: '1.0.0', approval: signedApproval(m, revision, [HASHES[0] as string]) }, { groupId: m.groupId, membershipEpoch: 1 });
    expect(wrongSet.ok ? 'accepted' : wrongSet.error.code).toBe('INVALID_COMMAND');
    const approval = signedApproval(m, revision, HASHES);
    const forged = { ...approval, comments: 'changed after signing' };
    const rejected = await h.send(owner, 'mission.approve', { approvalId: String(approval['approvalId']), missionRevision: revision, artifactHashes: HASHES, acceptancePolicyVersion: '1.0.0', comments: 'changed after signing', approval: forged }, { groupId: m.groupId, membershipEpoch: 1 });
    expect(rejected.ok ? 'accepted' : rejected.error.code).toBe('AUTH_INVALID_SIGNATURE');
    await h.expectOk(h.send(owner, 'mission.approve', { approvalId: String(approval['approvalId']), missionRevision: revision, artifactHashes: HASHES, acceptancePolicyVersion: '1.0.0', comments: 'Ship it.', approval }, { groupId: m.groupId, membershipEpoch: 1 }));
    const late = await h.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: m.mainConversationId, content: 'reopen?' }, { groupId: m.groupId, membershipEpoch: 1 });
    expect(late.ok ? 'accepted' : late.error.code).toBe('INVALID_STATE_TRANSITION');
    const followUp = missionPayload(h, coordinator, { followUpOfMissionId: m.missionId });
    await h.expectOk(h.send(owner, 'mission.create_follow_up', followUp, { groupId: String(followUp['groupId']) }));
    const [created] = await eventsOf(h.pool, String(followUp['groupId']));
    expect(created).toMatchObject({ kind: 'mission.follow_up.created' });
  });

  it('lets only the human MissionOwner request changes, which reopens the same Mission', async () => {
    const m = await missionWithResult();
    const submitted = await h.expectOk(asCoordinator(m, coordinator, 'mission.submit_for_approval', { artifactHashes: HASHES }));
    const revision = (JSON.parse(submitted.events[0]?.text ?? '{}') as { payload: { missionRevision: number } }).payload.missionRevision;
    const byCoordinator = await asCoordinator(m, coordinator, 'mission.request_changes', { missionRevision: revision, feedback: 'self-review' });
    expect(byCoordinator.ok ? 'accepted' : byCoordinator.error.code).toBe('AUTH_FORBIDDEN');
    await h.expectOk(h.send(owner, 'mission.request_changes', { missionRevision: revision, feedback: 'Add the appendix.' }, { groupId: m.groupId, membershipEpoch: 1 }));
    await h.expectOk(asCoordinator(m, coordinator, 'mission.submit_for_approval', { artifactHashes: HASHES }));
  });
});

describe('Coordinator lease and fencing', () => {
  it('fences the former Coordinator after replacement and accepts the new epoch', async () => {
    const m = await missionWithResult();
    await h.expectOk(asCoordinator(m, coordinator, 'mission.renew_coordinator', { leaseSeconds: 600 }));
    await h.expectOk(h.send(owner, 'mission.assign_coordinator', { coordinatorId: replacement.principal.id }, { groupId: m.groupId, membershipEpoch: 1 }));
    const stale = await asCoordinator(m, coordinator, 'mission.submit_for_approval', { artifactHashes: HASHES }, 1, await membershipEpoch(m.groupId, coordinator));
    expect(stale.ok ? 'accepted' : stale.error.code).toBe('AUTH_STALE_COORDINATOR');
    const wrongEpoch = await asCoordinator(m, replacement, 'mission.submit_for_approval', { artifactHashes: HASHES }, 1, await membershipEpoch(m.groupId, replacement));
    expect(wrongEpoch.ok ? 'accepted' : wrongEpoch.error.code).toBe('AUTH_STALE_COORDINATOR');
    await h.expectOk(asCoordinator(m, replacement, 'mission.submit_for_approval', { artifactHashes: HASHES }, 2, await membershipEpoch(m.groupId, replacement)));
    const report = await verifyGroupHistory(h.pool, m.groupId, { registry: h.authority.registry.current.registry, schemas: h.authority.schemas, authority: h.settings.services.authority, kinds: coreRegistry() });
    expect(report.problems).toEqual([]);
  });

  it('refuses coordination after the lease expired', async () => {
    const m = await createMission(h, owner, coordinator, { coordinatorLeaseSeconds: 60 });
    h.clock.advance(61);
    try {
      const expired = await asCoordinator(m, coordinator, 'mission.submit_for_approval', { artifactHashes: HASHES });
      expect(expired.ok ? 'accepted' : expired.error.code).toBe('WORK_LEASE_EXPIRED');
    } finally {
      h.clock.advance(-61);
    }
  });
});
