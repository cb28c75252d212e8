/**
 * A Group pins the Extension Profile major versions it uses (§18), on the real pipeline and
 * PostgreSQL: a profile Command in a Group that has not pinned its profile is refused
 * UNKNOWN_CRITICAL_EXTENSION and appends nothing; `ext.missionweaveprotocol.core.profile_pin`
 * pins a registered major and the same Command is then accepted; only a major the Organization
 * registered can be pinned, at `mission.create` or later; a critical extension needs its major pinned.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { GroupAuthority } from '../src/app/groupAuthority.js';
import { verifyGroupHistory } from '../src/app/verifyGroupHistory.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { TestDatabase } from './support/database.js';
import type { Harness, Actor } from './support/harness.js';
import { count, createMission, eventsOf, missionPayload, type MissionRefs } from './support/missions.js';
import { registerTallyDocument } from './support/profileDocuments.js';
import { TALLY_URI, tallyProfile } from './support/tallyProfile.js';
import { world } from './support/world.js';
import { buildKindRegistry } from '../src/domain/coreModules.js';

let db: TestDatabase;
let h: Harness;
let owner: Actor;
let coordinator: Actor;
let mission: MissionRefs;

const PIN = 'ext.missionweaveprotocol.core.profile_pin';

beforeAll(async () => {
  ({ db, h, owner, coordinator } = await world({
    humans: { owner: 'pin-owner' },
    agents: { coordinator: { handle: 'pin-coordinator' } },
    profiles: [tallyProfile],
  }));
  expect((await registerTallyDocument(h, owner)).ok).toBe(true);
  mission = await createMission(h, owner, coordinator);
});

function tally(refs: MissionRefs, label = 'bugs'): JsonObject {
  return h.sign(owner, 'ext.missionweave.tally.add', { label, delta: 1 }, { groupId: refs.groupId, membershipEpoch: 1 });
}

function postWith(refs: MissionRefs, version: string, critical: boolean): JsonObject {
  const extensions = { [TALLY_URI]: { version, critical, data: { note: 'x' } } };
  return h.sign(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: refs.mainConversationId, content: 'x' }, { groupId: refs.groupId, membershipEpoch: 1, extensions });
}

describe('pinning', () => {
  it('refuses a profile Command in a Group without the pin, then accepts it once the MissionOwner pinned the registered major', async () => {
    const before = await count(h.pool, 'events', 'group_id = $1', [mission.groupId]);
    const refused = await h.authority.submit(tally(mission));
    expect(!refused.ok && [refused.error.code, refused.error.details]).toEqual(['UNKNOWN_CRITICAL_EXTENSION', { profileUri: TALLY_URI, majorVersion: 1 }]);
    expect(await count(h.pool, 'events', 'group_id = $1', [mission.groupId])).toBe(before);

    const unregistered = await h.send(owner, PIN, { profileUri: TALLY_URI, majorVersion: 2 }, { groupId: mission.groupId, membershipEpoch: 1 });
    expect(!unregistered.ok && unregistered.error.code).toBe('UNKNOWN_CRITICAL_EXTENSION');
    const byCoordinator = await h.send(coordinator, PIN, { profileUri: TALLY_URI, majorVersion: 1 }, { groupId: mission.groupId, membershipEpoch: 1 });
    expect(byCoordinator.ok).toBe(false);

    const pinned = await h.expectOk(h.send(owner, PIN, { profileUri: TALLY_URI, majorVersion: 1 }, { groupId: mission.groupId, membershipEpoch: 1 }));
    expect(JSON.parse(pinned.events[0]?.text ?? '{}')).toMatchObject({ kind: 'ext.missionweaveprotocol.core.profile_pinned', payload: { pin: { profileUri: TALLY_URI, majorVersion: 1 }, mission: { pinnedProfiles: [{ profileUri: TALLY_URI, majorVersion: 1 }] } } });
    await h.expectOk(h.authority.submit(tally(mission)));
  });

  it('keeps the pin in the stored Mission: a cold Group Authority accepts the profile Command too', async () => {
    const peer = await GroupAuthority.start({ pool: db.pool, settings: h.settings, clock: h.clock, logger: h.authority.logger, kinds: buildKindRegistry([tallyProfile]) });
    const outcome = await peer.submit(tally(mission, 'docs'));
    expect(outcome.ok).toBe(true);
    await peer.close();
  });

  it('replays and verifies the pinned Group: the pin is folded from its Event like any other', async () => {
    const verifier = { registry: h.authority.registry.current.registry, schemas: h.authority.schemas, authority: h.settings.services.authority, kinds: h.authority.kinds };
    expect((await verifyGroupHistory(h.pool, mission.groupId, verifier)).problems).toEqual([]);
  });

  it('pins at mission.create only registered majors; a refused creation leaves no Group', async () => {
    const good = await createMission(h, owner, coordinator, { pinnedProfiles: [{ profileUri: TALLY_URI, majorVersion: 1 }] });
    await h.expectOk(h.authority.submit(tally(good)));
    const payload = missionPayload(h, coordinator, { pinnedProfiles: [{ profileUri: 'urn:example:profile:never-registered', majorVersion: 1 }] });
    const refused = await h.send(owner, 'mission.create', payload, { groupId: String(payload['groupId']) });
    expect(!refused.ok && refused.error.code).toBe('UNKNOWN_CRITICAL_EXTENSION');
    expect(await eventsOf(h.pool, String(payload['groupId']))).toEqual([]);
  });

  it('a critical extension of the profile needs its major pinned; a noncritical one does not', async () => {
    const other = await createMission(h, owner, coordinator);
    const critical = await h.authority.submit(postWith(other, '1.0.0', true));
    expect(!critical.ok && critical.error.code).toBe('UNKNOWN_CRITICAL_EXTENSION');
    await h.expectOk(h.authority.submit(postWith(other, '1.0.0', false)));
    await h.expectOk(h.authority.submit(postWith(mission, '1.2.0', true)));
    const major2 = await h.authority.submit(postWith(mission, '2.0.0', true));
    expect(!major2.ok && major2.error.code).toBe('UNKNOWN_CRITICAL_EXTENSION');
  });
});
