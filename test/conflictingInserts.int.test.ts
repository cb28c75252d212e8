/**
 * The store's append-or-find-existing inserts count the rows they really inserted, also when a
 * row conflicts: a receipt, an embedded admission record and a Context Package inserted twice
 * report one and then none. On a Citus coordinator these INSERT … SELECT statements are pulled to
 * the coordinator, whose `rowCount` is the rows selected, conflicting ones included: there the
 * second insert of each reported 1, so a concurrent duplicate receipt or admission went
 * unnoticed (no BatchConflict) and three nodes issuing the same package each said "issued".
 * scripts/citus-suite.txt runs this file on the cluster too.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { insertContextPackage, type NewContextPackage } from '../src/store/sql/contextPackages.js';
import { insertEmbeddedAdmissions, type EmbeddedAdmissionRow } from '../src/store/sql/embeddedAdmissions.js';
import { insertReceipts, type ReceiptRow } from '../src/store/sql/receipts.js';
import type { MissionRefs } from './support/missions.js';
import type { TestDatabase } from './support/database.js';
import { world } from './support/world.js';

let db: TestDatabase;
let mission: MissionRefs;

beforeAll(async () => {
  ({ db, mission } = await world({ humans: { owner: 'owner' }, agents: { coordinator: {} }, mission: { owner: 'owner', coordinator: 'coordinator' } }));
});

it('inserts a receipt once: 1, then 0 for the same Action ID, and 1 of 2 in a batch holding it again', async () => {
  const receipt = (actionId: string, signingHash: string): ReceiptRow => ({
    actorType: 'agent', actorId: 'urn:missionweave:agent:conflicts', actionId, signingHash, kind: 'message.post', groupId: mission.groupId,
    command: '{}', eventIds: [], keyId: 'urn:missionweave:key:conflicts', admissionRecordId: `urn:uuid:${randomUUID()}`, trustedAcceptedAt: '2026-12-05T00:00:00.000Z',
  });
  const first = receipt(`urn:uuid:${randomUUID()}`, `sha256:${randomUUID()}`);
  expect(await insertReceipts(db.pool, [first])).toBe(1);
  expect(await insertReceipts(db.pool, [{ ...first, admissionRecordId: `urn:uuid:${randomUUID()}` }])).toBe(0);
  expect(await insertReceipts(db.pool, [first, receipt(`urn:uuid:${randomUUID()}`, `sha256:${randomUUID()}`)])).toBe(1);
});

it('appends an embedded admission record once: 1, then 0 for the same signed document', async () => {
  const row: EmbeddedAdmissionRow = {
    signingHash: `sha256:${randomUUID()}`, admissionRecordId: `urn:uuid:${randomUUID()}`, documentKind: 'capability-token', keyId: 'urn:missionweave:key:conflicts',
    principalType: 'agent', principalId: 'urn:missionweave:agent:conflicts', trustedAcceptedAt: '2026-12-05T00:00:00.000Z', acceptedById: 'urn:missionweave:service:authority', actionId: null,
  };
  expect(await insertEmbeddedAdmissions(db.pool, 'urn:missionweave:org:conflicts', [row])).toBe(1);
  expect(await insertEmbeddedAdmissions(db.pool, 'urn:missionweave:org:conflicts', [{ ...row, admissionRecordId: `urn:uuid:${randomUUID()}` }])).toBe(0);
});

it('stores one Context Package per cause: true, then false for a second package of the same cause', async () => {
  const pkg = (): NewContextPackage => ({
    contextPackageId: `urn:uuid:${randomUUID()}`, groupId: mission.groupId, recipient: { type: 'agent', id: 'urn:missionweave:agent:conflicts' }, scopeKey: `mission ${mission.missionId}`,
    version: 1, cause: 'membership', causeEpoch: 1, packageHash: `sha256:${randomUUID()}`, document: '{}', createdAt: '2026-12-05T00:00:00.000Z',
  });
  expect(await insertContextPackage(db.pool, pkg())).toBe(true);
  expect(await insertContextPackage(db.pool, pkg())).toBe(false);
  const stored = await db.pool.query('select count(*)::int as n from context_packages where group_id = $1 and recipient_id = $2', [mission.groupId, 'urn:missionweave:agent:conflicts']);
  expect(stored.rows[0]).toEqual({ n: 1 });
});
