/**
 * Seed « La machine à états »: forward only, two steps when an act carries them, side ends
 * reopened only by moderation, and a confirmed closed that accepts no message from anyone.
 */

import { describe, expect, it } from 'vitest';
import { ANSWERED, ASKED, COORD, OWNER, WORKER, WORKER2, say, sliceOf, talk, when } from './parleyFixtures.js';

const state = (events: Parameters<typeof sliceOf>[0]) => sliceOf(events).threads['1']?.state;

describe('the thread state machine', () => {
  it('goes forward open → answered → decided → closed, one state for the whole thread', () => {
    const after = talk(ANSWERED, [OWNER, say('decide', 'btree.', { thread: 1 })], [OWNER, say('close', 'Done.', { thread: 1 })]);
    expect(sliceOf(after).threads['1']?.log.map((c) => `${c.from}→${c.to}`)).toEqual(['open→answered', 'answered→decided', 'decided→closed']);
  });

  it('allows two steps when the act carries them: decide on an open thread, close on an answered one', () => {
    expect(state(talk(ASKED, [OWNER, say('decide', 'No index needed.', { thread: 1 })]))).toBe('decided');
    expect(state(talk(ANSWERED, [OWNER, say('close', 'Settled by the answer.', { thread: 1 })]))).toBe('closed');
  });

  it('refuses three steps at once: close on an open thread', () => {
    when(ASKED, OWNER, say('close', 'x', { thread: 1 })).thenFails('INVALID_STATE_TRANSITION', 'too_many_steps');
  });

  it('never goes backwards: an answer after decide is a message, the state stays decided', () => {
    const decided = talk(ANSWERED, [OWNER, say('decide', 'btree.', { thread: 1 })]);
    const after = talk(decided, [WORKER2, say('answer', 'Late thought.', { parent: 'msg_3' })]);
    expect(state(after)).toBe('decided');
    expect(sliceOf(after).threads['1']?.log).toHaveLength(2);
  });

  // The same situation gets the same answer: what the state forbids to everyone is said first,
  // before whether this speaker could have done it.
  it.each([
    ['its creator', WORKER],
    ['a lock holder', COORD],
    ['the human', OWNER],
    ['another model', WORKER2],
  ])('answers not_ended to %s reopening a thread that has not ended', (_who, actor) => {
    when(ANSWERED, actor, say('reopen', 'Again?', { thread: 1 })).thenFails('INVALID_STATE_TRANSITION', 'not_ended');
  });

  it('answers too_many_steps to anyone closing an open thread, with authority or without', () => {
    when(ASKED, WORKER, say('close', 'x', { thread: 1 })).thenFails('INVALID_STATE_TRANSITION', 'too_many_steps');
    when(ASKED, WORKER2, say('close', 'x', { thread: 1 })).thenFails('INVALID_STATE_TRANSITION', 'too_many_steps');
  });

  it('refuses decide on a proposed closed thread (closed is past decided)', () => {
    const proposed = talk(ANSWERED, [WORKER, say('close', 'I think we are done.', { thread: 1 })]);
    when(proposed, WORKER, say('decide', 'x', { thread: 1 })).thenFails('INVALID_STATE_TRANSITION', 'not_forward');
  });

  describe('a confirmed closed is locked', () => {
    const closed = talk(ANSWERED, [OWNER, say('close', 'Done.', { thread: 1 })]);
    it.each([
      ['a Worker\'s answer', WORKER2, say('answer', 'x', { parent: 'msg_1' })],
      ['the creator\'s ask', WORKER, say('ask', 'x', { thread: 1 })],
      ['the human\'s own answer', OWNER, say('answer', 'x', { parent: 'msg_2' })],
      ['a lock holder\'s decide', COORD, say('decide', 'x', { thread: 1 })],
    ])('refuses %s', (_who, actor, payload) => {
      when(closed, actor, payload).thenFails('INVALID_STATE_TRANSITION', 'thread_closed');
    });
    it('accepts messages again once reopened', () => {
      const reopened = talk(closed, [OWNER, say('reopen', 'One more question.', { thread: 1 })]);
      expect(state(reopened)).toBe('open');
      expect(state(talk(reopened, [WORKER2, say('answer', 'ok', { parent: 'msg_1' })]))).toBe('answered');
    });
  });

  it('a proposed closed does not lock: others may still speak', () => {
    const proposed = talk(ANSWERED, [WORKER, say('close', 'Done, I think.', { thread: 1 })]);
    expect(sliceOf(proposed).threads['1']).toMatchObject({ state: 'closed', stateConfirmedAt: null, turn: { to: 'authority' } });
    const after = talk(proposed, [WORKER2, say('object', 'Not yet: benchmarks.', { parent: 'msg_3' })]);
    expect(sliceOf(after).messages['4']?.kind).toBe('object');
  });

  describe('side ends deferred · obsolete · rejected', () => {
    const deferred = talk(ASKED, [COORD, say('shelve', 'Later.', { thread: 1, end: 'deferred' })]);
    it('accept no message once confirmed', () => {
      when(deferred, WORKER2, say('answer', 'x', { parent: 'msg_1' })).thenFails('INVALID_STATE_TRANSITION', 'thread_ended');
    });
    it('are not reopened by the creator', () => {
      when(deferred, WORKER, say('reopen', 'x', { thread: 1 })).thenFails('AUTH_FORBIDDEN', 'token_right_missing');
    });
    it('are reopened by moderation: a lock holder or the human', () => {
      expect(state(talk(deferred, [COORD, say('reopen', 'Now.', { thread: 1 })]))).toBe('open');
      expect(state(talk(deferred, [OWNER, say('reopen', 'Now.', { thread: 1 })]))).toBe('open');
    });
    it('are reached from any state before closed', () => {
      expect(state(talk(ANSWERED, [OWNER, say('shelve', 'Superseded by th_2.', { thread: 1, end: 'obsolete' })]))).toBe('obsolete');
    });
  });
});
