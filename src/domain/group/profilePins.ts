/**
 * Extension Profile pins (§18 "A Group pins the supported major versions of profiles it uses").
 *
 * - `ext.missionweaveprotocol.core.profile_pin` (ours; the spec names no Command for it): the
 *   MissionOwner pins one more registered major version; `mission.create` may pin some at once.
 *   Only a major version the Organization registered (`missionweave profile add`) can be pinned.
 * - `checkProfilePins`: a Command of a profile kind, or one carrying a critical extension of a
 *   profile this Authority interprets, is refused `UNKNOWN_CRITICAL_EXTENSION` unless the Group
 *   pinned that profile at the major version concerned. A noncritical extension needs no pin: it
 *   is relayed uninterpreted (§18). Critical extensions of profiles this Authority does not
 *   interpret never reach a decision (the stateless front refuses them, app/verifyCommand.ts).
 */

import type { Mission, ProfilePin } from '../documents.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import type { KindRegistry } from '../kinds/kindRegistry.js';
import { accept, refuse, type CommandEnvelope, type Decision, type DecisionContext, type EventDraft, type Refusal } from '../model.js';
import type { GroupState } from '../kinds/groupState.js';
import { MAX_PINNED_PROFILES } from './profileLimits.js';
import { GROUP_REASONS } from './groupReasons.js';
import { GROUP_EXAMPLES } from './groupExamples.js';

export interface ProfilePinnedPayload {
  readonly missionId: string;
  readonly pin: ProfilePin;
  readonly mission: Mission;
}

export const profilePinned = defineEvent<ProfilePinnedPayload>()({
  kind: 'ext.missionweaveprotocol.core.profile_pinned',
  evolve: (state, payload) => ({ ...state, mission: payload.mission }),
});

function isPinned(mission: Mission, profileUri: string, majorVersion: number): boolean {
  return (mission.pinnedProfiles ?? []).some((p) => p.profileUri === profileUri && p.majorVersion === majorVersion);
}

/** The pins a Command names must be registered by the Organization at that major (§18). */
export function checkRegisteredPins(pins: readonly ProfilePin[], ctx: DecisionContext): Refusal | null {
  for (const pin of pins) {
    if (!(ctx.registeredMajors?.(pin.profileUri) ?? []).includes(pin.majorVersion)) {
      return refuse('UNKNOWN_CRITICAL_EXTENSION', GROUP_REASONS.profileNotRegistered, `${pin.profileUri} major ${pin.majorVersion} is not a registered Extension Profile`, { profileUri: pin.profileUri });
    }
  }
  return null;
}

function decideProfilePin(state: GroupState, command: CommandOf<'ext.missionweaveprotocol.core.profile_pin'>, ctx: DecisionContext): Decision<EventDraft<typeof profilePinned.kind, ProfilePinnedPayload>> {
  const pin: ProfilePin = { profileUri: command.payload.profileUri, majorVersion: command.payload.majorVersion };
  const { mission } = state;
  if (isPinned(mission, pin.profileUri, pin.majorVersion)) return refuse('INVALID_STATE_TRANSITION', GROUP_REASONS.profileAlreadyPinned, 'the Group already pins this profile major version');
  const pins = mission.pinnedProfiles ?? [];
  if (pins.length >= MAX_PINNED_PROFILES) return refuse('INVALID_COMMAND', GROUP_REASONS.tooManyPins, `a Group pins at most ${MAX_PINNED_PROFILES} profile versions`);
  const registered = checkRegisteredPins([pin], ctx);
  if (registered !== null) return registered;
  const next: Mission = { ...mission, pinnedProfiles: [...pins, pin], revision: mission.revision + 1 };
  return accept({
    kind: profilePinned.kind,
    payload: { missionId: mission.missionId, pin, mission: next },
    aggregate: { type: 'mission', id: mission.missionId, revision: next.revision },
  });
}

export const profilePin = defineKind({
  kind: 'ext.missionweaveprotocol.core.profile_pin',
  examples: GROUP_EXAMPLES['ext.missionweaveprotocol.core.profile_pin'],
  scope: 'group',
  authority: ['mission-owner'],
  missionStates: ['active', 'awaiting_approval'],
  events: [profilePinned],
  preload: { profiles: (command) => [command.payload.profileUri] },
  target: (state) => state.mission.revision,
  decide: decideProfilePin,
});

function majorOf(version: string): number {
  return Number(version.split('.')[0]);
}

/** A Command of a profile the Group did not pin at the major concerned is refused (§18). */
export function checkProfilePins(kinds: KindRegistry, state: GroupState, command: CommandEnvelope): Decision | null {
  const unpinned = (profileUri: string, majorVersion: number): Decision =>
    refuse('UNKNOWN_CRITICAL_EXTENSION', GROUP_REASONS.profileNotPinned, `the Group does not pin ${profileUri} major ${majorVersion}`, { profileUri, majorVersion });
  for (const profile of kinds.profiles) {
    const major = profile.majorVersion ?? 1;
    if (command.kind.startsWith(profile.namespace) && !isPinned(state.mission, profile.uri, major)) return unpinned(profile.uri, major);
    const extension = command.extensions?.[profile.uri];
    if (extension?.critical === true && !isPinned(state.mission, profile.uri, majorOf(extension.version))) return unpinned(profile.uri, majorOf(extension.version));
  }
  return null;
}
