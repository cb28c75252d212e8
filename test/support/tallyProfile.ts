/**
 * A small Extension Profile used by the tests (§18): members keep named tallies in a Group. It
 * adds one Command kind and one Event kind, its own slice of Group state and its evolve, without
 * a line changed in core files. Its limits show a profile bounding its own slice, and its Event
 * type declares a delivery fact as a core one does: the Agents a tally names to `notify` are its
 * addressees, so it reaches them through any attention filter (§8).
 */

import type { ExtensionProfile, ProfileEventType } from '../../src/domain/kinds/profile.js';
import { defineProfileKind, emit } from '../../src/domain/kinds/profile.js';
import { refuse } from '../../src/domain/model.js';

/** The test profile's refusal reasons. */
export const TALLY_REASONS = { tallyLimit: 'tally-limit' } as const;
export type TallyReason = (typeof TALLY_REASONS)[keyof typeof TALLY_REASONS];

export const TALLY_URI = 'urn:missionweave:profile:test:tally:1';

/** A profile's slice must stay small: a Group holds at most this many tallies. */
export const MAX_TALLIES = 4;

export interface TallyState {
  readonly totals: Readonly<Record<string, number>>;
}

/** Agents a tally may name to be told of it. */
export const MAX_NOTIFIED = 8;

export interface TallyPayload {
  readonly label: string;
  readonly delta: number;
  /** Agent IDs told of the new total. */
  readonly notify?: readonly string[];
}

export interface TalliedPayload {
  readonly label: string;
  readonly delta: number;
  readonly total: number;
  readonly notify?: readonly string[];
}

export const tallied: ProfileEventType<TallyState, 'ext.missionweave.tally.tallied', TalliedPayload> = {
  kind: 'ext.missionweave.tally.tallied',
  evolve: (slice, payload) => ({ totals: { ...slice.totals, [payload.label]: payload.total } }),
  addressees: (payload) => payload.notify ?? [],
};

export const tallyAdd = defineProfileKind<TallyState, TallyPayload>()({
  kind: 'ext.missionweave.tally.add',
  authority: ['member'],
  missionStates: ['active'],
  payloadSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    additionalProperties: false,
    required: ['label', 'delta'],
    properties: {
      label: { type: 'string', pattern: '^[a-z][a-z0-9-]{0,31}$' },
      delta: { type: 'integer', minimum: 1, maximum: 100 },
      notify: { type: 'array', maxItems: MAX_NOTIFIED, items: { type: 'string', minLength: 1, maxLength: 256 } },
    },
  },
  events: [tallied],
  decide(slice, _group, command) {
    const { label, delta, notify } = command.payload;
    const current = slice.totals[label];
    if (current === undefined && Object.keys(slice.totals).length >= MAX_TALLIES) {
      return refuse('INVALID_COMMAND', TALLY_REASONS.tallyLimit, `a Group keeps at most ${MAX_TALLIES} tallies`);
    }
    return emit({ kind: 'ext.missionweave.tally.tallied', payload: { label, delta, total: (current ?? 0) + delta, ...(notify === undefined ? {} : { notify }) } });
  },
});

export const tallyProfile: ExtensionProfile<TallyState> = {
  uri: TALLY_URI,
  namespace: 'ext.missionweave.tally.',
  initialState: () => ({ totals: {} }),
  kinds: [tallyAdd],
};
