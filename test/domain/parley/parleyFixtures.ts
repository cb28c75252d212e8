/**
 * The world of the Parley tests: the domain fixtures' Group g1 (OWNER the human MissionOwner,
 * COORD the Coordinator), with Workers, a Reviewer and a human observer, decided with the core
 * kinds plus the Parley profile, so every Parley Command goes through the real plug-in point
 * (Membership, epochs and Mission state checked before the profile's decide).
 */

import { expect } from 'vitest';
import { decideWithKinds } from '../../../src/domain/decideGroup.js';
import type { GroupState } from '../../../src/domain/kinds/groupState.js';
import { coreRegistry } from '../../support/coreDecider.js';
import type { CommandEnvelope, RecordedEvent } from '../../../src/domain/model.js';
import { PARLEY_URI, parleyProfile } from '../../../src/domain/parley/parleyProfile.js';
import { initialParleyState, type ParleyState } from '../../../src/domain/parley/parleyTypes.js';
import type { Principal } from '../../../src/protocol/principal.js';
import { recordDrafts, specification, testContext, type Decider } from '../../support/specification.js';
import { command, createCommand, CREATE_PAYLOAD, history, steps, STRANGER, REVIEWER, WORKER, WORKER2, WORLD } from '../fixtures.js';

const coreKinds = coreRegistry();

export { COORD, OWNER, REVIEWER, STRANGER, T0, WORKER, WORKER2, at } from '../fixtures.js';

export const POST = 'ext.missionweave.parley.post';
export const CLAIM = 'ext.missionweave.parley.claim';
export const POSTED = 'ext.missionweave.parley.posted';
export const CLAIMED = 'ext.missionweave.parley.claimed';

export const parleyKinds = coreKinds.withProfiles([parleyProfile]);

export const parleyDecider: Decider<GroupState | null> = {
  initialState: () => null,
  decide: (state, cmd, ctx) => decideWithKinds(parleyKinds, state, cmd, ctx),
  evolve: (state, event) => parleyKinds.evolve(state, event),
  nextSequence: (state) => (state?.lastSequence ?? 0) + 1,
};

export const parleySpec = specification(parleyDecider, WORLD);

/** Parley v1 registered by the operator and pinned by g1 at its founding (§18). */
export const PARLEY_PIN = { profileUri: PARLEY_URI, majorVersion: 1 };

/** g1 with two Workers, a Reviewer and STRANGER, a human who only observes. */
export const GROUP_EVENTS: readonly RecordedEvent[] = history([
  () => createCommand({ ...CREATE_PAYLOAD, pinnedProfiles: [PARLEY_PIN] }),
  steps.addMember(WORKER),
  steps.addMember(WORKER2),
  steps.addMember(REVIEWER, 'reviewer'),
  steps.addMember(STRANGER, 'observer'),
], [], { profiles: [PARLEY_PIN] });

export function groupOf(events: readonly RecordedEvent[]): GroupState {
  const state = events.reduce(parleyDecider.evolve, null as GroupState | null);
  if (state === null) throw new Error('no Group in these Events');
  return state;
}

export function sliceOf(events: readonly RecordedEvent[]): ParleyState {
  return (groupOf(events).extensions.get(PARLEY_URI)?.state as ParleyState | undefined) ?? initialParleyState();
}

/** A Parley Command from `actor` on the Group after `events`. */
export function parley(events: readonly RecordedEvent[], actor: Principal, payload: object, kind: string = POST): CommandEnvelope {
  return command(groupOf(events), actor, kind, payload);
}

/** An envelope from `extension` (default `main`). */
export function say(kind: string, body: string, extra: object = {}, extension = 'main'): object {
  return { parley: '1', kind, body, from: { extension }, ...extra };
}

/** Actor, payload, Command kind (default post), acceptance time (default T0). */
export type Turn = readonly [Principal, object, string?, string?];

let counter = 0;

/** Runs Parley Commands after `given`; each must be accepted. */
export function talk(given: readonly RecordedEvent[], ...turns: readonly Turn[]): RecordedEvent[] {
  const events = [...given];
  for (const [actor, payload, kind, now] of turns) {
    const state = groupOf(events);
    const cmd = parley(events, actor, payload, kind);
    const ctx = testContext({ ...WORLD, ...(now === undefined ? {} : { now }), idPrefix: `urn:test:id:p${++counter}-` });
    const decision = parleyDecider.decide(state, cmd, ctx);
    if (!decision.ok) expect.fail(`${JSON.stringify(payload)} refused: ${decision.error.code} ${decision.error.reason}`);
    events.push(...recordDrafts(parleyDecider, state, decision.events, cmd, ctx));
  }
  return events;
}

/** Given `given`, when `actor` sends `payload`: the specification's outcome (then / thenFails). */
export function when(given: readonly RecordedEvent[], actor: Principal, payload: object, kind: string = POST, now?: string) {
  return parleySpec.given(given).when(parley(given, actor, payload, kind), now === undefined ? {} : { now });
}

export const W1 = WORKER.id;
export const W2 = WORKER2.id;

/** th_1 opened by WORKER (msg_1), awaiting anyone. */
export const ASKED = talk(GROUP_EVENTS, [WORKER, say('ask', 'Which index fits the orders table?')]);
/** WORKER2 answered msg_1 (msg_2): a model's mark, proposed. */
export const ANSWERED = talk(ASKED, [WORKER2, say('answer', 'A btree on (customer, created_at).', { parent: 'msg_1' })]);
