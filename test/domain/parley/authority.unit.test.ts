/**
 * Seed « Proposition et confirmation », « Autorité », « Identité et extensions »: a human's mark
 * is confirmed, a model's is a proposal; only a lock holder or the human confirms; creator, lock
 * and human authority; rights from the Membership, never from the extension label; the
 * per-(identity, extension) loop guard.
 */

import { describe, expect, it } from 'vitest';
import { rightsOf } from '../../../src/domain/parley/authority.js';
import { parleyManifest } from '../../../src/domain/parley/manifest.js';
import { ANSWERED, ASKED, COORD, OWNER, REVIEWER, STRANGER, T0, W1, W2, WORKER, WORKER2, say, sliceOf, talk, when } from './parleyFixtures.js';

const thread = (events: Parameters<typeof sliceOf>[0]) => sliceOf(events).threads['1'];
const human = { type: 'human', id: 'urn:missionweave:human:h' } as const;
const agent = { type: 'agent', id: 'urn:missionweave:agent:a' } as const;

describe('rights come from the Membership role', () => {
  it.each([
    ['a human MissionOwner', human, 'mission_owner', { write: true, lock: true, human: true, verify: true }],
    ['a Coordinator', agent, 'coordinator', { write: true, lock: true, human: false, verify: false }],
    ['a Worker', agent, 'worker', { write: true, lock: false, human: false, verify: false }],
    ['a Reviewer', agent, 'reviewer', { write: true, lock: false, human: false, verify: true }],
    ['a human observer', human, 'observer', { write: false, lock: false, human: false, verify: false }],
  ] as const)('%s', (_who, member, role, rights) => {
    expect(rightsOf({ member, role, state: 'active' })).toEqual(rights);
    expect(rightsOf({ member, role, state: 'ended' }).write).toBe(false);
  });

  it('an observer may not write: token_right_missing', () => {
    when(ASKED, STRANGER, say('ask', 'May I?')).thenFails('AUTH_FORBIDDEN', 'token_right_missing');
  });

  it('an extension label grants nothing: a Worker calling itself "human" or "lock" still only proposes', () => {
    const proposed = talk(ANSWERED, [WORKER, say('decide', 'btree.', { thread: 1 }, 'human')]);
    expect(thread(proposed)).toMatchObject({ stateOrigin: 'llm', stateConfirmedAt: null });
    when(proposed, WORKER, say('confirm', 'x', { thread: 1 }, 'lock')).thenFails('AUTH_FORBIDDEN', 'token_right_missing');
  });

  it('the creator is the line, whichever extension speaks: another extension of the creator may decide', () => {
    expect(thread(talk(ANSWERED, [WORKER, say('decide', 'btree.', { thread: 1 }, 'planner')]))?.state).toBe('decided');
  });
});

describe('proposal and confirmation', () => {
  it('a human\'s mark is confirmed with state_origin user', () => {
    expect(thread(talk(ASKED, [OWNER, say('answer', 'Use btree.', { parent: 'msg_1' })]))).toMatchObject({ state: 'answered', stateOrigin: 'user', stateConfirmedAt: T0 });
  });

  it('a model\'s mark is a proposal with state_origin llm, unconfirmed', () => {
    expect(thread(ANSWERED)).toMatchObject({ stateOrigin: 'llm', stateConfirmedAt: null });
  });

  it('a lock holder\'s mark is confirmed (origin llm, as it is a model)', () => {
    expect(thread(talk(ANSWERED, [COORD, say('decide', 'btree.', { thread: 1 })]))).toMatchObject({ stateOrigin: 'llm', stateConfirmedAt: T0 });
  });

  it('a lock holder confirms a proposal by marking the same state', () => {
    const proposed = talk(ANSWERED, [WORKER, say('close', 'Done.', { thread: 1 })]);
    const after = talk(proposed, [COORD, say('close', 'Confirmed.', { thread: 1 })]);
    expect(thread(after)).toMatchObject({ state: 'closed', stateConfirmedAt: T0 });
    when(after, WORKER2, say('answer', 'x', { parent: 'msg_1' })).thenFails('INVALID_STATE_TRANSITION', 'thread_closed');
  });

  it('a model without lock cannot confirm', () => {
    const proposed = talk(ANSWERED, [WORKER, say('decide', 'btree.', { thread: 1 })]);
    when(proposed, WORKER2, say('confirm', 'x', { thread: 1 })).thenFails('AUTH_FORBIDDEN', 'token_right_missing');
    when(proposed, WORKER, say('confirm', 'x', { thread: 1 })).thenFails('AUTH_FORBIDDEN', 'token_right_missing');
  });
});

describe('authority over threads', () => {
  it('the lock right extends to others\' threads', () => {
    expect(thread(talk(ANSWERED, [COORD, say('close', 'Moderated.', { thread: 1 })]))).toMatchObject({ state: 'closed', stateConfirmedAt: T0 });
  });

  it('a decide anywhere in the thread marks the whole thread', () => {
    const deep = talk(ANSWERED, [WORKER, say('clarify', 'why?', { parent: 'msg_2' })], [WORKER2, say('answer', 'scans', { parent: 'msg_3' })]);
    const after = talk(deep, [OWNER, say('decide', 'btree.', { thread: 1, parent: 'msg_4' })]);
    expect(thread(after)?.state).toBe('decided');
  });

  it('the lock right is visible as « KI · <label> » on a lock holder\'s messages and marks, never on a model without it nor on the human', () => {
    const slice = sliceOf(talk(ANSWERED, [COORD, say('decide', 'btree.', { thread: 1 })]));
    expect(slice.messages['3']?.from.label).toBe(`KI · ${COORD.id} · main`);
    expect(slice.threads['1']?.log.at(-1)?.label).toBe(`KI · ${COORD.id} · main`);
    expect([slice.messages['2']?.from.label, slice.threads['1']?.log[0]?.label]).toEqual([`${W2} · main`, `${W2} · main`]);
    const human = sliceOf(talk(ASKED, [OWNER, say('answer', 'Use btree.', { parent: 'msg_1' }, 'console')]));
    expect(human.messages['2']?.from.label).toBe(`${OWNER.id} · console`);
    expect(parleyManifest().labels).toEqual({ member: '<identity> · <extension>', lockHolder: 'KI · <identity> · <extension>' });
  });

  it('reopening a closed thread: the creator yes, another model no, the human always', () => {
    const closed = talk(ANSWERED, [OWNER, say('close', 'Done.', { thread: 1 })]);
    expect(thread(talk(closed, [WORKER, say('reopen', 'Mine.', { thread: 1 })]))?.state).toBe('open');
    when(closed, WORKER2, say('reopen', 'x', { thread: 1 })).thenFails('AUTH_FORBIDDEN', 'thread_authority_missing');
    expect(thread(talk(closed, [OWNER, say('reopen', 'Human.', { thread: 1 })]))?.state).toBe('open');
  });

  it('the human is above all: marks a thread it did not open, never as a proposal', () => {
    expect(thread(talk(ASKED, [OWNER, say('shelve', 'Not now.', { thread: 1, end: 'deferred' })]))).toMatchObject({ state: 'deferred', stateOrigin: 'user', stateConfirmedAt: T0 });
  });

  it('a Reviewer (write, no lock) has no authority over another\'s thread', () => {
    when(ANSWERED, REVIEWER, say('shelve', 'x', { thread: 1, end: 'obsolete' })).thenFails('AUTH_FORBIDDEN', 'thread_authority_missing');
  });
});

describe('the loop guard self_reply', () => {
  it('refuses an (identity, extension) answering its own message', () => {
    when(ASKED, WORKER, say('answer', 'Answering myself.', { parent: 'msg_1' })).thenFails('INVALID_COMMAND', 'self_reply');
  });

  it('lets extension B of the same identity answer extension A', () => {
    const after = talk(ASKED, [WORKER, say('answer', 'From my reviewer sub-agent.', { parent: 'msg_1' }, 'reviewer')]);
    expect(sliceOf(after).messages['2']?.from).toEqual({ identity: W1, extension: 'reviewer', authorKind: 'agent', label: `${W1} · reviewer` });
  });

  // Seed: « ne peut pas répondre à son propre message » — any message whose parent is its own.
  it.each([
    ['an ask inside the thread', say('ask', 'And also the partial index?', { thread: 1, parent: 'msg_1' })],
    ['a decide', say('decide', 'No index needed.', { thread: 1, parent: 'msg_1' })],
    ['a shelve', say('shelve', 'Later.', { thread: 1, parent: 'msg_1', end: 'deferred' })],
  ])('covers every act with a parent: %s on its own message is self_reply', (_what, payload) => {
    when(ASKED, WORKER, payload).thenFails('INVALID_COMMAND', 'self_reply');
    expect(thread(talk(ASKED, [WORKER, { ...payload, from: { extension: 'helper' } }]))?.lastMessage).toBe(2);
  });

  it('holds for the human too, by extension', () => {
    const asked = talk(ASKED, [OWNER, say('ask', 'Human question', {}, 'console')]);
    when(asked, OWNER, say('answer', 'x', { parent: 'msg_2' }, 'console')).thenFails('INVALID_COMMAND', 'self_reply');
  });
});
