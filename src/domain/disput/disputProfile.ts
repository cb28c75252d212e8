/**
 * disput v0 (seed `disput-v0.fr.txt`) as an Extension Profile (§18) through the plug-in point of
 * `kinds/profile.ts`. A turn is a signed Command of the Mission's Group carrying the turn file
 * exactly as committed; the core checks (Membership and epochs, live Mission, signature,
 * idempotency, ordering) run first, then `checkTurn.ts` enforces what the Authority can see of
 * the seed's rules. The slice holds the recorded turns and the pinned config only: item state is
 * folded from the turns whenever it is needed (§5), never stored as authority.
 */

import type { ExtensionProfile, ProfileDraftOf, ProfileEventType } from '../kinds/profile.js';
import { defineProfileKind, emit } from '../kinds/profile.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { checkTurn } from './checkTurn.js';
import { isRefusal } from './disputRefusals.js';
import { initialDisputState, type BacklogSummary, type DisputConfig, type DisputState, type RecordedTurn } from './disputTypes.js';
import { parseSubmission } from './submission.js';

export const DISPUT_URI = 'urn:missionweave:profile:disput:0';
export const DISPUT_NAMESPACE = 'ext.missionweave.disput.';
/** The seed is v0, a draft; a Group pins major 0. */
export const DISPUT_MAJOR = 0;

/** `config_pinned`: the `disput.toml` text as committed and what it says, from turn `turn` on. */
export interface ConfigPinnedPayload {
  readonly turn: number;
  readonly text: string;
  readonly config: DisputConfig;
}

/**
 * `turn_recorded`: the file as committed (the log keeps it whole, so a changed file is found by
 * comparing texts) and the turn as the Authority read it.
 */
export interface TurnRecordedPayload {
  readonly fileName: string;
  readonly text: string;
  readonly commit: string;
  readonly changedPaths: readonly string[];
  readonly turn: RecordedTurn;
  readonly backlog?: BacklogSummary;
}

export const disputConfigPinned: ProfileEventType<DisputState, 'ext.missionweave.disput.config_pinned', ConfigPinnedPayload> = {
  kind: 'ext.missionweave.disput.config_pinned',
  evolve: (slice, payload) => ({ ...slice, config: payload.config, configTurn: payload.turn }),
};

export const disputTurnRecorded: ProfileEventType<DisputState, 'ext.missionweave.disput.turn_recorded', TurnRecordedPayload> = {
  kind: 'ext.missionweave.disput.turn_recorded',
  evolve: (slice, payload) => ({ ...slice, turns: [...slice.turns, payload.turn], backlog: payload.backlog ?? slice.backlog }),
};

type DisputDraft = ProfileDraftOf<typeof disputConfigPinned | typeof disputTurnRecorded>;

const PAYLOAD_SCHEMA = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' } as const;

export const disputTurn = defineProfileKind<DisputState, JsonObject>()({
  kind: 'ext.missionweave.disput.turn',
  authority: ['member'],
  missionStates: ['active'],
  payloadSchema: { ...PAYLOAD_SCHEMA },
  events: [disputConfigPinned, disputTurnRecorded],
  decide(slice, _group, command, ctx) {
    const submission = parseSubmission(command.payload);
    if (isRefusal(submission)) return submission;
    const checked = checkTurn(slice, submission, command.actor, ctx.now);
    if (isRefusal(checked)) return checked;
    const recorded = {
      kind: 'ext.missionweave.disput.turn_recorded' as const,
      payload: {
        fileName: submission.fileName,
        text: submission.text,
        commit: submission.commit,
        changedPaths: submission.changedPaths,
        turn: checked.turn,
        ...(checked.backlog === undefined ? {} : { backlog: checked.backlog }),
      },
    };
    if (checked.config === undefined || submission.config === undefined) return emit(recorded);
    const pinned: DisputDraft = { kind: 'ext.missionweave.disput.config_pinned', payload: { turn: checked.turn.number, text: submission.config, config: checked.config } };
    return emit<DisputDraft>(pinned, recorded);
  },
});

export const disputProfile: ExtensionProfile<DisputState> = {
  uri: DISPUT_URI,
  namespace: DISPUT_NAMESPACE,
  majorVersion: DISPUT_MAJOR,
  initialState: initialDisputState,
  kinds: [disputTurn],
};
