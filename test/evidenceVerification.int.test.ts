/**
 * The Evidence of a `work.submit` on the real pipeline and PostgreSQL (§6.4, §13.2): a WorkItem
 * made `active` by the real `work.offer`, `work.accept_offer` and `work.start`; a submission
 * whose second Evidence carries a forged signature is refused AUTH_INVALID_SIGNATURE, naming the
 * element, and appends nothing (no Event, no receipt, no First-Admission Record); the same
 * submission with every Evidence signed by its producer is accepted, with one First-Admission
 * Record per Evidence at the Command's trusted acceptance time.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Submission } from '../src/app/groupAuthority.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import { publishedArtifact } from './support/publishedWork.js';
import type { Harness, Actor } from './support/harness.js';
import { count, createMission, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { world } from './support/world.js';

/** The submitted Artifact: published by each WorkItem before it submits (§13.1). */
const CONTENT = 'evidence verification result';
const HASH = sha256ContentHash(CONTENT);
const SELECTION = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let worker: Actor;

beforeAll(async () => {
  ({ h, owner, coordinator, worker } = await world({ humans: { owner: 'dana' }, agents: { coordinator: {}, worker: ['acme.sql-migration@1.5.0'] } }));
});

function ok(outcome: Submission): JsonObject {
  if (!outcome.ok) throw new Error(`refused: ${outcome.error.code} ${outcome.error.message}`);
  return (JSON.parse(outcome.events[0]?.text ?? '{}') as { payload: JsonObject }).payload;
}

interface ActiveWork {
  readonly m: MissionRefs;
  readonly workItemId: string;
  readonly executionLeaseId: string;
}

/** A WorkItem offered to `worker`, accepted and started by it, through the pipeline. */
async function activeWork(): Promise<ActiveWork> {
  const m = await createMission(h, owner, coordinator);
  const asMember = { groupId: m.groupId, membershipEpoch: 1 };
  const asCoordinator = { ...asMember, coordinatorEpoch: 1 };
  await h.expectOk(h.send(owner, 'membership.change', { principal: { ...worker.principal }, roles: ['worker'] }, asMember));
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const contract = { ...EXAMPLE_WORK_CONTRACT, dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(h.clock.millis + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 80 } };
  await h.expectOk(h.send(coordinator, 'work.authorize', { workItemId, contract }, asCoordinator));
  await h.expectOk(h.send(coordinator, 'work.offer', { workItemId, candidateAgentIds: [worker.principal.id], selectionBasis: SELECTION }, asCoordinator));
  await h.expectOk(h.send(worker, 'work.accept_offer', { workItemId, ownershipLeaseSeconds: 900 }, asMember));
  const started = ok(await h.send(worker, 'work.start', { workItemId, ownershipEpoch: 1, executionLeaseSeconds: 900 }, asMember));
  const work = { m, workItemId, executionLeaseId: (started['executionLease'] as { leaseId: string }).leaseId };
  await publishedArtifact(h, { ...work, worker }, CONTENT);
  return work;
}

/** The Worker's Evidence about the WorkItem, signed with its key. */
function evidence(work: ActiveWork): JsonObject {
  const now = new Date(h.clock.millis).toISOString();
  const unsigned = {
    evidenceId: `urn:missionweave:evidence:${randomUUID()}`,
    missionId: work.m.missionId,
    groupId: work.m.groupId,
    workItemId: work.workItemId,
    type: 'deterministic_test',
    subject: { type: 'work_item', id: work.workItemId },
    criterionIds: EXAMPLE_WORK_CONTRACT.acceptanceCriteria.map((c) => c.criterionId),
    method: 'ran the migration on a copy',
    result: 'passed',
    artifactHashes: [HASH],
    generatedBy: { ...worker.principal },
    createdAt: now,
  };
  return signDocument('evidence', unsigned, worker.key) as unknown as JsonObject;
}

function submit(work: ActiveWork, items: readonly JsonObject[]) {
  const payload = { workItemId: work.workItemId, ownershipEpoch: 1, executionLeaseId: work.executionLeaseId, artifactHashes: [HASH], evidence: [...items] };
  return h.send(worker, 'work.submit', payload, { groupId: work.m.groupId, membershipEpoch: 1 });
}

async function written(groupId: string): Promise<number[]> {
  return [await count(h.pool, 'events', 'group_id = $1', [groupId]), await count(h.pool, 'receipts'), await count(h.pool, 'embedded_admissions')];
}

describe('work.submit with Evidence', () => {
  it('refuses a submission whose Evidence 1 has a forged signature, appending nothing', async () => {
    const work = await activeWork();
    const before = await written(work.m.groupId);
    const forged = { ...evidence(work), method: 'claimed to run the migration' };
    const outcome = await submit(work, [evidence(work), forged]);
    expect(outcome.ok ? 'accepted' : [outcome.error.code, outcome.error.details]).toEqual(['AUTH_INVALID_SIGNATURE', { index: 1 }]);
    expect(await written(work.m.groupId)).toEqual(before);
  });

  it('accepts the submission with every Evidence signed, recording each one first admitted', async () => {
    const work = await activeWork();
    const items = [evidence(work), evidence(work)];
    const outcome = await h.expectOk(submit(work, items));
    const event = JSON.parse(outcome.events[0]?.text ?? '{}') as { kind: string; occurredAt: string; cause: { id: string } };
    expect(event.kind).toBe('work.submitted');
    const records = await h.pool.query<JsonObject>('select document_kind, key_id, principal_id, trusted_accepted_at from embedded_admissions where action_id = $1', [event.cause.id]);
    expect(records.rows).toEqual(items.map(() => ({ document_kind: 'evidence', key_id: worker.key.keyId, principal_id: worker.principal.id, trusted_accepted_at: event.occurredAt })));
  });
});
