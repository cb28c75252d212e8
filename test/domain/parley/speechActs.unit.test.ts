/**
 * Seed « Les neuf actes de langage »: exactly nine; acts that expect a reply set `awaiting`;
 * exactly one open turn, named by the last message. One positive and one negative case per act.
 */

import { describe, expect, it } from 'vitest';
import { SPEECH_ACTS } from '../../../src/domain/parley/speechActs.js';
import { parleyManifest } from '../../../src/domain/parley/manifest.js';
import { ANSWERED, ASKED, COORD, OWNER, T0, W1, W2, WORKER, WORKER2, say, sliceOf, talk, when } from './parleyFixtures.js';

const thread = (events: Parameters<typeof sliceOf>[0]) => sliceOf(events).threads['1'];
const last = (events: Parameters<typeof sliceOf>[0]) => {
  const slice = sliceOf(events);
  return slice.messages[String(slice.nextMessage - 1)];
};

describe('the nine speech acts', () => {
  it('are exactly nine, ask, answer and decide among them, and the manifest publishes them', () => {
    expect(SPEECH_ACTS).toHaveLength(9);
    expect(new Set(SPEECH_ACTS).size).toBe(9);
    expect(SPEECH_ACTS).toEqual(expect.arrayContaining(['ask', 'answer', 'decide']));
    expect(parleyManifest().acts.map((a) => a.name)).toEqual([...SPEECH_ACTS]);
  });

  describe('ask', () => {
    it('inside a thread, awaits the party it names', () => {
      const after = talk(ASKED, [WORKER, say('ask', 'Worker-8, your view?', { thread: 'th_1', to: { identity: W2, extension: 'main' } })]);
      expect(thread(after)?.turn).toEqual({ to: 'party', identity: W2, extension: 'main' });
      expect(thread(after)?.state).toBe('open');
    });
    it('that opens a thread cannot name a parent', () => {
      when(ASKED, WORKER2, say('ask', 'x', { parent: 'msg_1' })).thenFails('SCHEMA_VALIDATION_FAILED', 'invalid_body');
    });
  });

  describe('answer', () => {
    it('marks open → answered (a model\'s proposal) and awaits the asker', () => {
      expect(thread(ANSWERED)).toMatchObject({ state: 'answered', stateOrigin: 'llm', stateConfirmedAt: null, turn: { to: 'party', identity: W1, extension: 'main' } });
      expect(last(ANSWERED)?.awaiting).toEqual({ to: 'party', identity: W1, extension: 'main' });
    });
    it('names the message it answers', () => {
      when(ASKED, WORKER2, say('answer', 'x', { thread: 'th_1' })).thenFails('SCHEMA_VALIDATION_FAILED', 'invalid_body');
    });
  });

  describe('clarify', () => {
    it('asks the author back without moving the state', () => {
      const after = talk(ANSWERED, [WORKER, say('clarify', 'Why created_at?', { parent: 'msg_2' })]);
      expect(thread(after)).toMatchObject({ state: 'answered', turn: { to: 'party', identity: W2, extension: 'main' } });
    });
    it('is a reply, so the loop guard applies', () => {
      when(ANSWERED, WORKER2, say('clarify', 'x', { parent: 'msg_2' })).thenFails('INVALID_COMMAND', 'self_reply');
    });
  });

  describe('object', () => {
    it('contests a message, keeps the state, and awaits its author', () => {
      const after = talk(ANSWERED, [WORKER, say('object', 'A hash index is enough.', { parent: 'msg_2' })]);
      expect(thread(after)).toMatchObject({ state: 'answered', turn: { to: 'party', identity: W2 } });
      expect(thread(after)?.log).toHaveLength(1);
    });
    it('names the message it contests', () => {
      when(ANSWERED, WORKER, say('object', 'x', { thread: 1 })).thenFails('SCHEMA_VALIDATION_FAILED', 'invalid_body');
    });
  });

  describe('decide', () => {
    it('by the creator (a model without lock) is a proposal awaiting the authority', () => {
      const after = talk(ANSWERED, [WORKER, say('decide', 'btree it is.', { thread: 1 })]);
      expect(thread(after)).toMatchObject({ state: 'decided', stateOrigin: 'llm', stateConfirmedAt: null, turn: { to: 'authority' } });
    });
    it('by someone without authority over the thread is refused', () => {
      when(ANSWERED, WORKER2, say('decide', 'mine', { thread: 1 })).thenFails('AUTH_FORBIDDEN', 'thread_authority_missing');
    });
  });

  describe('close', () => {
    it('by the human after decide is confirmed and awaits no one', () => {
      const after = talk(ANSWERED, [OWNER, say('decide', 'btree.', { thread: 1 })], [OWNER, say('close', 'Done.', { thread: 1 })]);
      expect(thread(after)).toMatchObject({ state: 'closed', stateOrigin: 'user', stateConfirmedAt: T0 });
      expect(thread(after)?.turn).toBeUndefined();
    });
    it('by someone without authority is refused', () => {
      when(ANSWERED, WORKER2, say('close', 'x', { thread: 1 })).thenFails('AUTH_FORBIDDEN', 'thread_authority_missing');
    });
  });

  describe('shelve', () => {
    it('by a lock holder ends a thread aside, confirmed', () => {
      const after = talk(ASKED, [COORD, say('shelve', 'Out of scope.', { thread: 1, end: 'rejected' })]);
      expect(thread(after)).toMatchObject({ state: 'rejected', stateOrigin: 'llm', stateConfirmedAt: T0 });
    });
    it('names which side end', () => {
      when(ASKED, COORD, say('shelve', 'x', { thread: 1 })).thenFails('SCHEMA_VALIDATION_FAILED', 'invalid_body');
    });
  });

  describe('reopen', () => {
    it('reopens a closed thread and awaits anyone', () => {
      const closed = talk(ANSWERED, [OWNER, say('close', 'Done.', { thread: 1 })]);
      const after = talk(closed, [WORKER, say('reopen', 'New data.', { thread: 1 })]);
      expect(thread(after)).toMatchObject({ state: 'open', turn: { to: 'anyone' } });
    });
    it('refuses a thread that has not ended', () => {
      when(ANSWERED, OWNER, say('reopen', 'x', { thread: 1 })).thenFails('INVALID_STATE_TRANSITION', 'not_ended');
    });
  });

  describe('confirm', () => {
    it('by the human confirms a proposal, keeping its origin', () => {
      const proposed = talk(ANSWERED, [WORKER, say('decide', 'btree.', { thread: 1 })]);
      const after = talk(proposed, [OWNER, say('confirm', 'Agreed.', { thread: 1 })]);
      expect(thread(after)).toMatchObject({ state: 'decided', stateOrigin: 'llm', stateConfirmedAt: T0, turn: { to: 'party', identity: W1 } });
      expect(thread(after)?.log.at(-1)).toMatchObject({ from: 'decided', to: 'decided', origin: 'user', confirmedAt: T0 });
    });
    it('refuses when nothing is proposed', () => {
      const confirmed = talk(ANSWERED, [OWNER, say('decide', 'btree.', { thread: 1 })]);
      when(confirmed, OWNER, say('confirm', 'x', { thread: 1 })).thenFails('INVALID_STATE_TRANSITION', 'nothing_to_confirm');
    });
  });

  it('keeps exactly one open turn: each message names who answers next', () => {
    const after = talk(
      ASKED,
      [WORKER2, say('answer', 'btree', { parent: 'msg_1' })],
      [WORKER, say('clarify', 'why?', { parent: 'msg_2' })],
      [WORKER2, say('answer', 'range scans', { parent: 'msg_3' })],
    );
    const slice = sliceOf(after);
    expect(slice.threads['1']?.turn).toEqual(slice.messages['4']?.awaiting);
    expect(slice.threads['1']?.turn).toEqual({ to: 'party', identity: W1, extension: 'main' });
  });
});
