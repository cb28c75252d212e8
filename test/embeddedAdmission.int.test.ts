/**
 * A Signed Document inside a Command (the Approval of `mission.approve`, the Agent Card of a
 * registration) gets the same first admission as the Command (§6.4): a First-Admission Record
 * with the trusted acceptance time, and no acceptance because its signer backdated it to a time
 * its key was still valid.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { timestampOf } from '../src/app/issueDocuments.js';
import { generatePrivateKey, publicKeyBase64url, signDocument, type SigningKey } from '../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import { count, createMission, type MissionRefs } from './support/missions.js';
import { acceptedResult, WORKER_CAPABILITIES } from './support/publishedWork.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import { world } from './support/world.js';

/** The accepted result each Mission submits, published anew in its own Group. */
const CONTENTS = ['admission result'];
const HASHES = CONTENTS.map((c) => sha256ContentHash(c));

let h: Harness;
let owner: Actor;
let coordinator: Actor;
let worker: Actor;

beforeAll(async () => {
  ({ h, owner, coordinator, worker } = await world({ humans: { owner: 'dana' }, agents: { coordinator: {}, worker: WORKER_CAPABILITIES } }));
});

/** Another key of the owner, valid from two minutes ago until `validUntilSecondsAgo` seconds ago. */
async function ownerKey(validUntilSecondsAgo?: number): Promise<SigningKey> {
  const key = { keyId: `urn:uuid:${randomUUID()}`, privateKey: generatePrivateKey() };
  const from = timestampOf(h.clock.millis - 120_000);
  const history = validUntilSecondsAgo === undefined ? [] : [{ sequence: 1, recordedAt: from, validUntil: timestampOf(h.clock.millis - validUntilSecondsAgo * 1000) }];
  await h.authority.enrolKey({ keyId: key.keyId, principal: owner.principal, algorithm: 'Ed25519', publicKey: publicKeyBase64url(key.privateKey), validFrom: from, validityHistory: history });
  return key;
}

async function submitted(): Promise<{ m: MissionRefs; revision: number }> {
  const m = await createMission(h, owner, coordinator);
  await acceptedResult(h, m, { owner, coordinator, worker }, CONTENTS);
  const outcome = await h.expectOk(h.send(coordinator, 'mission.submit_for_approval', { artifactHashes: HASHES }, { groupId: m.groupId, membershipEpoch: 1, coordinatorEpoch: 1 }));
  return { m, revision: (JSON.parse(outcome.events[0]?.text ?? '{}') as { payload: { missionRevision: number } }).payload.missionRevision };
}

function approval(m: MissionRefs, revision: number, key: SigningKey, occurredAt: string, approvalId = `urn:uuid:${randomUUID()}`): JsonObject {
  const document = { approvalId, kind: 'mission_final', decision: 'approved', missionId: m.missionId, groupId: m.groupId, missionRevision: revision, artifactHashes: HASHES, acceptancePolicyVersion: '1.0.0', approver: owner.principal, comments: 'ok', conditions: [], occurredAt };
  return signDocument('approval', document, key) as unknown as JsonObject;
}

function approve(m: MissionRefs, revision: number, signed: JsonObject) {
  return h.send(owner, 'mission.approve', { approvalId: String(signed['approvalId']), missionRevision: revision, artifactHashes: HASHES, acceptancePolicyVersion: '1.0.0', comments: 'ok', approval: signed }, { groupId: m.groupId, membershipEpoch: 1 });
}

async function records(where: string, values: unknown[]): Promise<JsonObject[]> {
  return (await h.pool.query<JsonObject>(`select document_kind, key_id, principal_id, trusted_accepted_at, action_id from embedded_admissions where ${where}`, values)).rows;
}

describe('first admission of an embedded Approval', () => {
  it('records a First-Admission Record bound to the Approval key, at the trusted acceptance time', async () => {
    const { m, revision } = await submitted();
    const signed = approval(m, revision, owner.key, h.now());
    const outcome = await h.expectOk(approve(m, revision, signed));
    const event = JSON.parse(outcome.events[0]?.text ?? '{}') as { occurredAt: string; cause: { id: string } };
    const [record] = await records('key_id = $1 and action_id = $2', [owner.key.keyId, event.cause.id]);
    expect(record).toEqual({ document_kind: 'approval', key_id: owner.key.keyId, principal_id: owner.principal.id, trusted_accepted_at: event.occurredAt, action_id: event.cause.id });
  });

  it('refuses an Approval backdated under a key that is no longer valid, and changes nothing', async () => {
    const { m, revision } = await submitted();
    const expired = await ownerKey(30);
    const signed = approval(m, revision, expired, timestampOf(h.clock.millis - 60_000));
    const before = await count(h.pool, 'events');
    const outcome = await approve(m, revision, signed);
    expect(outcome.ok ? 'accepted' : outcome.error.code).toBe('AUTH_INVALID_SIGNATURE');
    expect(await count(h.pool, 'events')).toBe(before);
    expect(await records('key_id = $1', [expired.keyId])).toEqual([]);
  });

  it('refuses the same Approval bytes re-signed under another key once a record binds them', async () => {
    const { m, revision } = await submitted();
    const approvalId = `urn:uuid:${randomUUID()}`;
    const occurredAt = h.now();
    await h.expectOk(approve(m, revision, approval(m, revision, owner.key, occurredAt, approvalId)));
    const other = await ownerKey();
    const outcome = await approve(m, revision, approval(m, revision, other, occurredAt, approvalId));
    // Without the record check this reached the decider and was refused for the Mission's state.
    expect(outcome.ok ? 'accepted' : outcome.error.code).toBe('AUTH_INVALID_SIGNATURE');
  });
});

describe('first admission of an embedded Agent Card', () => {
  it('records the card under the registry key that issued it', async () => {
    const agent = await h.agent('worker');
    const rows = await records("document_kind = 'agent-card' and key_id = $1", [h.registry.key.keyId]);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(agent.sessionEpoch).toBe(1);
  });
});
