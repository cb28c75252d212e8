/**
 * disput v0 as an Extension Profile (§18): its kinds in `ext.missionweave.disput.`, its payload
 * schema compiled with the core ones, the core checks before its decide, refusals carrying
 * `details.reason`, and the dialogue (implementer → reviewer with two items → answers →
 * a REJETÉ escalated to the human → decider turn → DONE) played as Commands of Group g1, with the
 * item state rebuilt from the recorded Events alone.
 */

import { describe, expect, it } from 'vitest';
import { profileSchemaDocuments, schemaRegistryWith } from '../../../src/app/profiles.js';
import { parseDisputConfig } from '../../../src/domain/disput/disputConfig.js';
import { DISPUT_MAJOR, DISPUT_NAMESPACE, DISPUT_URI, disputProfile } from '../../../src/domain/disput/disputProfile.js';
import { initialDisputState, type DisputConfig, type DisputState } from '../../../src/domain/disput/disputTypes.js';
import { foldItems } from '../../../src/domain/disput/items.js';
import { nextTurn } from '../../../src/domain/disput/schedule.js';
import { decideWithKinds } from '../../../src/domain/decideGroup.js';
import type { GroupState } from '../../../src/domain/kinds/groupState.js';
import { coreRegistry } from '../../support/coreDecider.js';
import { profileEntries } from '../../../src/domain/kinds/profile.js';
import type { RecordedEvent } from '../../../src/domain/model.js';
import type { Principal } from '../../../src/protocol/principal.js';
import { recordDrafts, specification, testContext, type Decider } from '../../support/specification.js';
import { COORD2, T0, command, createCommand, CREATE_PAYLOAD, envelope, history, OWNER, REVIEWER, steps, WORKER, WORKER2, WORLD } from '../fixtures.js';
import { ACTORS, BACKLOG, CONFIG, commitOf, submission, T1, T2, T3, T4, T5, T6, type Play } from './disputFixtures.js';
import { GROUP_REASONS } from '../../../src/domain/group/groupReasons.js';
import { buildKindRegistry } from '../../../src/domain/coreModules.js';

const coreKinds = coreRegistry();

const TURN = 'ext.missionweave.disput.turn';
const kinds = coreKinds.withProfiles([disputProfile]);
const decider: Decider<GroupState | null> = {
  initialState: () => null,
  decide: (state, cmd, ctx) => decideWithKinds(kinds, state, cmd, ctx),
  evolve: (state, event) => kinds.evolve(state, event),
  nextSequence: (state) => (state?.lastSequence ?? 0) + 1,
};
const spec = specification(decider, WORLD);
const PIN = { profileUri: DISPUT_URI, majorVersion: DISPUT_MAJOR };

const GROUP_EVENTS = history(
  [() => createCommand({ ...CREATE_PAYLOAD, pinnedProfiles: [PIN] }), steps.addMember(WORKER), steps.addMember(WORKER2), steps.addMember(REVIEWER, 'reviewer')],
  [],
  { profiles: [PIN] },
);

function groupOf(events: readonly RecordedEvent[]): GroupState {
  const state = events.reduce(decider.evolve, null as GroupState | null);
  if (state === null) throw new Error('no Group');
  return state;
}

function sliceOf(events: readonly RecordedEvent[]): DisputState {
  return (groupOf(events).extensions.get(DISPUT_URI)?.state as DisputState | undefined) ?? initialDisputState();
}

function turnCommand(events: readonly RecordedEvent[], play: Play, actor: Principal = ACTORS[play.who] as Principal) {
  return command(groupOf(events), actor, TURN, submission(play));
}

let counter = 0;

function play(given: readonly RecordedEvent[], ...plays: readonly Play[]): RecordedEvent[] {
  const events = [...given];
  for (const p of plays) {
    const state = groupOf(events);
    const cmd = turnCommand(events, p);
    const ctx = testContext({ ...WORLD, idPrefix: `urn:test:id:d${++counter}-` });
    const decision = decider.decide(state, cmd, ctx);
    if (!decision.ok) expect.fail(`turn ${p.n} refused: ${decision.error.code} ${decision.error.reason} ${decision.error.message}`);
    events.push(...recordDrafts(decider, state, decision.events, cmd, ctx));
  }
  return events;
}

describe('disput as an Extension Profile', () => {
  it('declares one Command kind and two Event kinds inside ext.missionweave.disput.', () => {
    expect(DISPUT_NAMESPACE).toBe('ext.missionweave.disput.');
    expect(DISPUT_URI).toBe('urn:missionweave:profile:disput:0');
    expect(profileEntries(disputProfile).map((k) => [k.kind, k.events.map((e) => e.kind)])).toEqual([[TURN, ['ext.missionweave.disput.config_pinned', 'ext.missionweave.disput.turn_recorded']]]);
  });

  it('registers as the app registers profiles: its payload schema compiles with the core ones', () => {
    const documents = profileSchemaDocuments([disputProfile]);
    expect(documents.map((d) => d.name)).toEqual([TURN]);
    expect(() => schemaRegistryWith(documents)).not.toThrow();
    expect(buildKindRegistry([disputProfile]).groupKind(TURN)?.kind).toBe(TURN);
  }, 60_000);

  it('runs the core checks first: a non-member learns nothing of the Group', () => {
    const refusal = spec.given(GROUP_EVENTS).when(envelope(TURN, COORD2, submission(T1), { sessionEpoch: 1 })).decision;
    expect(!refusal.ok && refusal.error.code).toBe('GROUP_NOT_FOUND');
  });

  it('is refused in a Group that has not pinned it (§18)', () => {
    const unpinned = history([steps.create, steps.addMember(WORKER)]);
    spec.given(unpinned).when(command(groupOf(unpinned), WORKER, TURN, submission(T1))).thenFails('UNKNOWN_CRITICAL_EXTENSION', GROUP_REASONS.profileNotPinned);
  });

  it('the first turn pins the config, then records the turn file exactly as committed', () => {
    const sent = submission(T1);
    const config = parseDisputConfig(CONFIG, { requirePrincipals: true }) as DisputConfig;
    spec.given(GROUP_EVENTS).when(turnCommand(GROUP_EVENTS, T1)).then(
      [
        { kind: 'ext.missionweave.disput.config_pinned', payload: { turn: 1, text: CONFIG, config }, aggregate: { type: 'extension', id: DISPUT_URI, revision: 1 } },
        {
          kind: 'ext.missionweave.disput.turn_recorded',
          payload: {
            fileName: '0001-claude-implementer.md',
            text: sent.text,
            commit: commitOf(1),
            changedPaths: ['.disput/turns/0001-claude-implementer.md', 'src/login.ts'],
            turn: {
              number: 1,
              fileName: '0001-claude-implementer.md',
              participant: 'claude',
              role: 'implementer',
              status: 'CONTINUE',
              base: '0000000',
              commit: commitOf(1),
              answers: [],
              items: [],
              codeChanged: true,
              triggered: ['reviewer'],
              recordedAt: T0,
            },
            backlog: { open: 3, next: 'Ajouter la connexion' },
          },
          aggregate: { type: 'extension', id: DISPUT_URI, revision: 2 },
        },
      ],
      (after) => {
        const slice = after?.extensions.get(DISPUT_URI)?.state as DisputState;
        expect([slice.configTurn, slice.turns.length, slice.config?.roles.length]).toEqual([1, 1, 3]);
      },
    );
  });

  it('refuses with the §19 code and the stable reason in details.reason', () => {
    const started = play(GROUP_EVENTS, T1);
    const refusal = spec.given(started).when(turnCommand(started, { ...T2, who: 'codex' })).decision;
    expect(!refusal.ok && [refusal.error.code, refusal.error.reason, refusal.error.details?.reason, refusal.error.details?.participant]).toEqual(['INVALID_STATE_TRANSITION', 'not_your_turn', 'not_your_turn', 'vibe']);
    // The Command's actor must be the participant's principal, whoever the file names.
    spec.given(started).when(turnCommand(started, T2, REVIEWER)).thenFails('AUTH_FORBIDDEN', 'participant_not_actor');
  });
});

describe('the issue\'s dialogue, as Commands of the Group', () => {
  it('implementer → reviewer with two items → accepted and rejected → fixed → a REJETÉ escalated to the human → decider → DONE', () => {
    const events = play(GROUP_EVENTS, T1, T2, T3, T4, T5, T6, { n: 7, who: 'user', role: 'decider', status: 'DONE' });
    const turns = events.filter((e) => e.kind === 'ext.missionweave.disput.turn_recorded');
    expect(turns.map((e) => (e.payload as { fileName: string }).fileName)).toEqual([
      '0001-claude-implementer.md',
      '0002-vibe-reviewer.md',
      '0003-claude-implementer.md',
      '0004-claude-implementer.md',
      '0005-vibe-reviewer.md',
      '0006-user-decider.md',
      '0007-user-decider.md',
    ]);
    expect(turns.map((e) => e.actor)).toEqual([WORKER, WORKER2, WORKER, WORKER, WORKER2, OWNER, OWNER]);
    // The log keeps each file whole: a changed file in the folder is found by comparing texts.
    expect((turns[1]?.payload as { text: string }).text).toBe(submission(T2).text);
    // Item state from the recorded Events alone, folded from scratch.
    const rebuilt = sliceOf(events);
    expect(foldItems(rebuilt.turns).map((i) => [i.id, i.status])).toEqual([
      ['I-0002-1', 'CLOS'],
      ['I-0002-2', 'CLOS'],
    ]);
    expect(nextTurn({ config: rebuilt.config as DisputConfig, turns: rebuilt.turns, backlog: rebuilt.backlog }).step).toBe('done');
    // A second Command for a recorded turn is refused: rule 2, through the Group.
    spec.given(events).when(turnCommand(events, { ...T2, items: ['- [I-0002-1] → @claude : réécrit'] })).thenFails('INVALID_STATE_TRANSITION', 'turn_recorded');
  });

  it('a USER status waits for the human, whose turn goes on with the backlog', () => {
    const asked = play(GROUP_EVENTS, T1, { n: 2, who: 'vibe', role: 'reviewer', status: 'USER', decision: '1. oui 2. non' });
    spec.given(asked).when(turnCommand(asked, { n: 3, who: 'vibe', role: 'implementer', paths: ['src/x.ts'] })).thenFails('INVALID_STATE_TRANSITION', 'not_your_turn');
    const decided = play(asked, { n: 3, who: 'user', role: 'decider', backlog: BACKLOG });
    expect(nextTurn({ config: sliceOf(decided).config as DisputConfig, turns: sliceOf(decided).turns, backlog: sliceOf(decided).backlog })).toMatchObject({ step: 'backlog', participant: 'vibe' });
  });
});
