/**
 * Redaction on the real pipeline (§7.4): after `message.redact`, the redacted words are in no
 * Group Snapshot (replay, archival) nor in the stored Message row, while the signed Event chain is
 * untouched — the `message.posted` Event keeps its ID, sequence and signed text, and the Group's
 * history still verifies from its Events.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { archiveGroup } from '../src/app/archiveGroup.js';
import { issueSnapshot } from '../src/app/groupSnapshots.js';
import { verifyGroupHistory } from '../src/app/verifyGroupHistory.js';
import type { Harness, Actor } from './support/harness.js';
import { eventsOf, type MissionRefs } from './support/missions.js';
import { world } from './support/world.js';
import { coreRegistry } from './support/coreDecider.js';

const SECRET = 'the vault code is 4711';
let h: Harness;
let owner: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ h, owner, mission } = await world({
    humans: { owner: 'dana' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
  }));
});

describe('a redacted Message', () => {
  it('is served as its tombstone by every snapshot, and the signed history still verifies', async () => {
    const messageId = `urn:uuid:${randomUUID()}`;
    const extra = { groupId: mission.groupId, membershipEpoch: 1 };
    await h.expectOk(h.send(owner, 'message.post', { messageId, conversationId: mission.mainConversationId, content: SECRET }, extra));
    const posted = (await eventsOf(h.pool, mission.groupId)).find((e) => e['kind'] === 'message.posted');
    expect(JSON.stringify(posted)).toContain(SECRET);
    await h.expectOk(h.send(owner, 'message.redact', { amendmentId: `urn:uuid:${randomUUID()}`, messageId, reason: 'leaked secret' }, extra));

    const row = await h.pool.query<{ document: string }>("select document::text from aggregates where group_id = $1 and aggregate_type = 'message' and aggregate_id = $2", [mission.groupId, messageId]);
    expect(row.rows[0]?.document).not.toContain(SECRET);
    expect(row.rows[0]?.document).toContain('[Message redacted under policy]');
    const replay = await issueSnapshot(h.pool, mission.groupId, h.settings, h.clock.millis, 'replay');
    expect(replay.body).not.toContain(SECRET);

    // The Event log is never rewritten: the same Event, ID and sequence, with its signed text.
    const after = (await eventsOf(h.pool, mission.groupId)).find((e) => e['eventId'] === posted?.['eventId']);
    expect(after).toEqual(posted);
    const verifier = { registry: h.authority.registry.current.registry, schemas: h.authority.schemas, authority: h.settings.services.authority, kinds: coreRegistry() };
    expect((await verifyGroupHistory(h.pool, mission.groupId, verifier)).problems).toEqual([]);

    await h.expectOk(h.send(owner, 'mission.cancel', { reason: 'done' }, extra));
    const archived = await archiveGroup(h.authority, h.pool, mission.groupId);
    expect(archived.submission.ok).toBe(true);
    const body = await h.pool.query<{ body: string }>('select body from group_snapshots where snapshot_hash = $1', [archived.snapshotHash]);
    expect(body.rows[0]?.body).not.toContain(SECRET);
    expect((await verifyGroupHistory(h.pool, mission.groupId, verifier)).problems).toEqual([]);
  });
});
