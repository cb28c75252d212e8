/**
 * Extension Profile pins (§18), given / when / then: `ext.missionweaveprotocol.core.profile_pin`
 * pins a registered major version (the MissionOwner only, once, within the limit), `mission.create`
 * pins at founding, and a profile Command or critical profile extension needs its pin.
 */

import { describe, expect, it } from 'vitest';
import { decideWithKinds } from '../../src/domain/decideGroup.js';
import { MAX_PINNED_PROFILES } from '../../src/domain/group/profileLimits.js';
import { coreRegistry } from '../support/coreDecider.js';
import { testContext } from '../support/specification.js';
import { TALLY_URI, tallyProfile } from '../support/tallyProfile.js';
import { COORD, CREATE_PAYLOAD, MISSION, OWNER, WORLD, command, createCommand, groupSpec, history, stateOf, steps } from './fixtures.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';

const coreKinds = coreRegistry();

const PIN = 'ext.missionweaveprotocol.core.profile_pin';
const REGISTERED = { profiles: [{ profileUri: TALLY_URI, majorVersion: 1 }, { profileUri: TALLY_URI, majorVersion: 2 }] };
const withTally = coreKinds.withProfiles([tallyProfile]);

describe('profile_pin (ours)', () => {
  const created = () => history([steps.create]);

  it('pins a registered major version for the MissionOwner, revising the Mission', () => {
    const given = created();
    const s = stateOf(given);
    const pin = { profileUri: TALLY_URI, majorVersion: 2 };
    const after = groupSpec
      .given(given)
      .when(command(s, OWNER, PIN, pin), REGISTERED)
      .then([{ kind: 'ext.missionweaveprotocol.core.profile_pinned', payload: { missionId: MISSION, pin, mission: { ...s.mission, pinnedProfiles: [pin], revision: s.mission.revision + 1 } }, aggregate: { type: 'mission', id: MISSION, revision: s.mission.revision + 1 } }]);
    expect(after?.mission.pinnedProfiles).toEqual([pin]);
  });

  it('refuses an unregistered profile or major, a second pin of the same, anyone but the MissionOwner, and pins beyond the limit', () => {
    const given = created();
    const s = stateOf(given);
    groupSpec.given(given).when(command(s, OWNER, PIN, { profileUri: TALLY_URI, majorVersion: 3 }), REGISTERED).thenFails('UNKNOWN_CRITICAL_EXTENSION', GROUP_REASONS.profileNotRegistered);
    groupSpec.given(given).when(command(s, OWNER, PIN, { profileUri: 'urn:example:profile:other', majorVersion: 1 }), REGISTERED).thenFails('UNKNOWN_CRITICAL_EXTENSION', GROUP_REASONS.profileNotRegistered);
    groupSpec.given(given).when(command(s, COORD, PIN, { profileUri: TALLY_URI, majorVersion: 1 }), REGISTERED).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    const pinned = history([(st) => command(st!, OWNER, PIN, { profileUri: TALLY_URI, majorVersion: 1 })], given, REGISTERED);
    groupSpec.given(pinned).when(command(stateOf(pinned), OWNER, PIN, { profileUri: TALLY_URI, majorVersion: 1 }), REGISTERED).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.profileAlreadyPinned);
    const many = Array.from({ length: MAX_PINNED_PROFILES }, (_, i) => ({ profileUri: `urn:example:profile:p${i}`, majorVersion: 1 }));
    const full = history([() => createCommand({ ...CREATE_PAYLOAD, pinnedProfiles: many })], [], { profiles: many });
    groupSpec.given(full).when(command(stateOf(full), OWNER, PIN, { profileUri: TALLY_URI, majorVersion: 1 }), REGISTERED).thenFails('INVALID_COMMAND', GROUP_REASONS.tooManyPins);
  });
});

describe('pins at mission.create, and the pin a profile Command needs', () => {
  it('mission.create keeps registered pins in the Mission and refuses an unregistered one', () => {
    const pins = [{ profileUri: TALLY_URI, majorVersion: 1 }];
    const state = stateOf(history([() => createCommand({ ...CREATE_PAYLOAD, pinnedProfiles: pins })], [], REGISTERED));
    expect(state.mission.pinnedProfiles).toEqual(pins);
    groupSpec.given([]).when(createCommand({ ...CREATE_PAYLOAD, pinnedProfiles: [{ profileUri: TALLY_URI, majorVersion: 7 }] }), REGISTERED).thenFails('UNKNOWN_CRITICAL_EXTENSION', GROUP_REASONS.profileNotRegistered);
  });

  it('refuses a profile kind or a critical profile extension the Group has not pinned at that major; a noncritical one passes', () => {
    const unpinned = stateOf(history([steps.create]));
    const pinned = stateOf(history([() => createCommand({ ...CREATE_PAYLOAD, pinnedProfiles: [{ profileUri: TALLY_URI, majorVersion: 1 }] })], [], REGISTERED));
    const ctx = testContext(WORLD);
    const tally = (s: typeof pinned) => command(s, OWNER, 'ext.missionweave.tally.add', { label: 'bugs', delta: 1 });
    const refused = decideWithKinds(withTally, unpinned, tally(unpinned), ctx);
    expect(!refused.ok && [refused.error.code, refused.error.reason]).toEqual(['UNKNOWN_CRITICAL_EXTENSION', 'profile-not-pinned']);
    expect(decideWithKinds(withTally, pinned, tally(pinned), ctx).ok).toBe(true);
    const post = (s: typeof pinned, version: string, critical: boolean) =>
      command(s, OWNER, 'message.post', { messageId: 'urn:test:message:x', conversationId: s.group.mainConversationId, content: 'x' }, { extensions: { [TALLY_URI]: { version, critical, data: {} } } });
    const major2 = decideWithKinds(withTally, pinned, post(pinned, '2.0.0', true), ctx);
    expect(!major2.ok && major2.error.reason).toBe('profile-not-pinned');
    expect(decideWithKinds(withTally, pinned, post(pinned, '1.4.0', true), ctx).ok).toBe(true);
    expect(decideWithKinds(withTally, unpinned, post(unpinned, '1.0.0', false), ctx).ok).toBe(true);
  });
});
