/**
 * Archival over the real pipeline and PostgreSQL (§7.4, §15.2): the operator's archival of a
 * terminal Mission's Group appends `group.snapshot.created` and `group.archived` atomically; the
 * stored snapshot is fetchable by its hash, signed by the Authority, linked to the Group's Policy
 * Log; the Group's history still verifies; every later Command is refused; a live Mission's Group
 * and a forged snapshot are refused with nothing appended.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { archiveGroup } from '../src/app/archiveGroup.js';
import { issueSnapshot } from '../src/app/groupSnapshots.js';
import { signCommand, timestampOf } from '../src/app/issueDocuments.js';
import { verifyGroupHistory } from '../src/app/verifyGroupHistory.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import { verifySignedDocument } from '../src/protocol/signing/verifySignedDocument.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { readSnapshot } from '../src/store/sql/snapshots.js';
import type { Harness, Actor } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { world } from './support/world.js';
import { coreRegistry } from './support/coreDecider.js';

let h: Harness;
let owner: Actor;
let coordinator: Actor;

beforeAll(async () => {
  ({ h, owner, coordinator } = await world({ humans: { owner: 'dana' }, agents: { coordinator: {} } }));
});

function post(m: MissionRefs, content: string, issuedAt = h.now()) {
  return h.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: m.mainConversationId, content }, { groupId: m.groupId, membershipEpoch: 1, issuedAt });
}

async function cancelled(): Promise<MissionRefs> {
  const m = await createMission(h, owner, coordinator);
  await h.expectOk(post(m, 'before the end'));
  await h.expectOk(h.send(owner, 'mission.cancel', { reason: 'no longer needed' }, { groupId: m.groupId, membershipEpoch: 1 }));
  return m;
}

/** The archive Command carrying `snapshot`, signed by the Authority. */
function archiveCommand(m: MissionRefs, snapshot: JsonObject): JsonObject {
  const { services, authorityKey } = h.settings;
  return signCommand({ actor: services.authority, kind: 'ext.missionweaveprotocol.core.group_archive', payload: { snapshot }, issuedAt: timestampOf(h.clock.millis), groupId: m.groupId }, authorityKey);
}

describe('archiving a terminal Mission’s Group', () => {
  it('appends both archival Events, serves the signed snapshot, keeps the history verifiable and refuses every later Command', async () => {
    const m = await cancelled();
    // A refused Command naming the Group (signed before its key was valid): the snapshot links it.
    expect((await post(m, 'too early', new Date(h.clock.millis - 1_000_000).toISOString())).ok).toBe(false);
    await h.authority.policyLog.flush();
    const before = await count(h.pool, 'events', 'group_id = $1', [m.groupId]);

    const { submission, snapshotHash } = await archiveGroup(h.authority, h.pool, m.groupId);
    if (!submission.ok) throw new Error(`${submission.error.code}: ${submission.error.message}`);
    const events = submission.events.map((e) => JSON.parse(e.text) as { kind: string; sequence: number; payload: JsonObject });
    expect(events.map((e) => [e.kind, e.sequence])).toEqual([['group.snapshot.created', before + 1], ['group.archived', before + 2]]);

    const body = await readSnapshot(h.pool, m.groupId, snapshotHash);
    expect(sha256ContentHash(body ?? '')).toBe(snapshotHash);
    const { snapshot, state } = JSON.parse(body ?? '{}') as { snapshot: JsonObject & { policyLog: JsonObject[]; eventIds: string[] }; state: { type: string }[] };
    const verified = verifySignedDocument('group-snapshot', Buffer.from(JSON.stringify(snapshot)), h.authority.registry.current.registry, h.authority.schemas);
    expect(verified.ok).toBe(true);
    expect(events[0]?.payload).toEqual({ snapshotId: snapshot['snapshotId'], throughSequence: before, stateHash: snapshot['stateHash'] });
    expect(events[1]?.payload).toMatchObject({ snapshotId: snapshot['snapshotId'], group: { state: 'archived', archiveSnapshotId: snapshot['snapshotId'] } });
    expect(snapshot.eventIds).toHaveLength(before);
    expect(snapshot.policyLog.map((e) => e['details'])).toEqual([{ code: 'AUTH_INVALID_SIGNATURE', occurrences: 1 }, {}]);
    // §7.4: decisions (Mission with its notes), WorkItems, approvals and Artifacts are the state rows.
    expect(new Set(state.map((r) => r.type))).toContain('mission');

    const report = await verifyGroupHistory(h.pool, m.groupId, { registry: h.authority.registry.current.registry, schemas: h.authority.schemas, authority: h.settings.services.authority, kinds: coreRegistry() });
    expect(report).toEqual({ groupId: m.groupId, events: before + 2, problems: [] });

    for (const later of [await post(m, 'after the end'), (await archiveGroup(h.authority, h.pool, m.groupId)).submission]) {
      expect(later).toMatchObject({ ok: false, error: { code: 'INVALID_STATE_TRANSITION' } });
    }
    expect(await count(h.pool, 'events', 'group_id = $1', [m.groupId])).toBe(before + 2);
  });
});

describe('archival refused', () => {
  it('for a live Mission’s Group, with nothing appended', async () => {
    const m = await createMission(h, owner, coordinator);
    const { submission } = await archiveGroup(h.authority, h.pool, m.groupId);
    expect(submission).toMatchObject({ ok: false, error: { code: 'INVALID_STATE_TRANSITION' } });
    expect(await count(h.pool, 'events', 'group_id = $1', [m.groupId])).toBe(1);
  });

  it('for a snapshot that does not match the store, even signed by the Authority', async () => {
    const m = await cancelled();
    const built = await issueSnapshot(h.pool, m.groupId, h.settings, h.clock.millis, 'archival');
    const { signature: _signature, ...unsigned } = built.snapshot as JsonObject;
    const forged = signDocument('group-snapshot', { ...unsigned, stateHash: sha256ContentHash('another state') }, h.settings.authorityKey);
    const outcome = await h.authority.submit(archiveCommand(m, forged as unknown as JsonObject));
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INVALID_COMMAND' } });
    // The same snapshot, unchanged, archives.
    expect((await h.authority.submit(archiveCommand(m, built.snapshot as JsonObject))).ok).toBe(true);
    expect((await eventsOf(h.pool, m.groupId)).at(-1)).toMatchObject({ kind: 'group.archived' });
  });

  it('for a snapshot signed by another key than the Authority’s (AUTH_INVALID_SIGNATURE)', async () => {
    const m = await cancelled();
    const built = await issueSnapshot(h.pool, m.groupId, h.settings, h.clock.millis, 'archival');
    const { signature: _signature, ...unsigned } = built.snapshot as JsonObject;
    const forged = signDocument('group-snapshot', unsigned, owner.key);
    expect(await h.authority.submit(archiveCommand(m, forged as unknown as JsonObject))).toMatchObject({ ok: false, error: { code: 'AUTH_INVALID_SIGNATURE' } });
  });
});
