/**
 * Seed « L'enveloppe »: kind and a body of at most 500 characters; server-set members ignored;
 * unknown member, missing kind, empty body → invalid_body; thread and parent by key or number.
 */

import { describe, expect, it } from 'vitest';
import { parseEnvelope, referenceNumber } from '../../../src/domain/parley/envelope.js';
import { parleyLimits } from '../../../src/domain/parley/parleyLimits.js';
import { ASKED, GROUP_EVENTS, POSTED, T0, W1, WORKER, WORKER2, say, sliceOf, talk, when } from './parleyFixtures.js';

describe('the Parley envelope', () => {
  it('given a Group, when a Worker asks, then one posted Event records the thread, its message and who must answer', () => {
    when(GROUP_EVENTS, WORKER, say('ask', 'Which index?', { provenance: { model: 'm-1', client: 'c-1' } })).then([
      {
        kind: POSTED,
        payload: {
          message: {
            number: 1,
            thread: 1,
            kind: 'ask',
            from: { identity: W1, extension: 'main', authorKind: 'agent', label: `${W1} · main` },
            body: 'Which index?',
            provenance: { model: 'm-1', client: 'c-1' },
            createdAt: T0,
            awaiting: { to: 'anyone' },
            depth: 0,
          },
          thread: { number: 1, creator: { identity: W1, extension: 'main', authorKind: 'agent', label: `${W1} · main` }, state: 'open', stateOrigin: 'llm', stateConfirmedAt: null, turn: { to: 'anyone' } },
        },
        aggregate: { type: 'extension', id: 'urn:missionweave:profile:parley:1', revision: 1 },
      },
    ]);
  });

  it('ignores the members the server sets: id, from.identity, author_kind, created_at', () => {
    const spoofed = say('ask', 'Spoof?', { id: 'msg_999', author_kind: 'human', created_at: '2001-01-01T00:00:00Z', from: { extension: 'main', identity: 'human:boss' } });
    const message = sliceOf(talk(GROUP_EVENTS, [WORKER, spoofed])).messages['1'];
    expect(message?.from).toEqual({ identity: W1, extension: 'main', authorKind: 'agent', label: `${W1} · main` });
    expect(message?.createdAt).toBe(T0);
    expect(message?.number).toBe(1);
  });

  it.each([
    ['an unknown member', say('ask', 'x', { colour: 'red' })],
    ['an unknown member of from', { kind: 'ask', body: 'x', from: { extension: 'main', role: 'admin' } }],
    ['a missing kind', { body: 'x', from: { extension: 'main' } }],
    ['a kind outside the nine', say('vote', 'x')],
    ['an empty body', say('ask', '')],
    ['a blank body', say('ask', '   ')],
    ['a body over 500 characters', say('ask', 'é'.repeat(parleyLimits.bodyMaxChars + 1))],
    ['a missing from.extension', { kind: 'ask', body: 'x' }],
    ['another Parley version', say('ask', 'x', { parley: '2' })],
    ['a malformed thread key', say('answer', 'x', { thread: 'thread-1', parent: 1 })],
    ['a malformed parent key', say('answer', 'x', { parent: 'msg_0' })],
    ['a shelve end that is not a side end', say('shelve', 'x', { thread: 1, end: 'closed' })],
    ['a provenance that is not short text', say('ask', 'x', { provenance: { model: 7 } })],
    ['a to on an act that names no party', say('answer', 'x', { parent: 1, to: { identity: 'x' } })],
    ['an end on an act other than shelve', say('close', 'x', { thread: 1, end: 'deferred' })],
  ])('refuses %s with invalid_body', (_what, payload) => {
    when(GROUP_EVENTS, WORKER, payload).thenFails('SCHEMA_VALIDATION_FAILED', 'invalid_body');
  });

  it('accepts a body of exactly 500 characters, counted as characters', () => {
    expect('ok' in (parseEnvelope(say('ask', 'é'.repeat(parleyLimits.bodyMaxChars))) as object)).toBe(false);
    expect(parseEnvelope(say('ask', '😀'.repeat(parleyLimits.bodyMaxChars)))).toMatchObject({ kind: 'ask' });
  });

  it('reads thread and parent as the opaque key or the plain number', () => {
    expect([referenceNumber('th_12', 'th_'), referenceNumber(12, 'th_'), referenceNumber('msg_88', 'msg_')]).toEqual([12, 12, 88]);
    expect([referenceNumber('msg_1', 'th_'), referenceNumber(0, 'th_'), referenceNumber(1.5, 'th_'), referenceNumber('12', 'th_')]).toEqual([undefined, undefined, undefined, undefined]);
    const byKey = sliceOf(talk(ASKED, [WORKER2, say('answer', 'by key', { thread: 'th_1', parent: 'msg_1' })]));
    const byNumber = sliceOf(talk(ASKED, [WORKER2, say('answer', 'by number', { thread: 1, parent: 1 })]));
    expect([byKey.messages['2']?.parent, byNumber.messages['2']?.parent]).toEqual([1, 1]);
  });

  it('refuses a thread or parent that does not exist, and a parent from another thread', () => {
    when(ASKED, WORKER2, say('answer', 'x', { parent: 'msg_7' })).thenFails('INVALID_COMMAND', 'unknown_parent');
    when(ASKED, WORKER2, say('ask', 'x', { thread: 'th_9' })).thenFails('INVALID_COMMAND', 'unknown_thread');
    const two = talk(ASKED, [WORKER2, say('ask', 'Another?')]);
    when(two, WORKER, say('answer', 'x', { thread: 'th_1', parent: 'msg_2' })).thenFails('INVALID_COMMAND', 'unknown_parent');
  });
});
