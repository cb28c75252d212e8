/**
 * Seed « Lecture »: a thread is a tree in creation order; every state change is logged with
 * origin, label, time and confirmation; the inbox lists threads awaiting you, from `since` or an
 * opaque `cursor`, masking your own extension's questions.
 */

import { describe, expect, it } from 'vitest';
import { rightsOf } from '../../../src/domain/parley/authority.js';
import { parleyLimits } from '../../../src/domain/parley/parleyLimits.js';
import { inbox, stateLog, threadTree, type InboxPage, type MessageNode } from '../../../src/domain/parley/reads.js';
import { ANSWERED, ASKED, GROUP_EVENTS, OWNER, POST, T0, W1, W2, WORKER, WORKER2, at, say, sliceOf, talk } from './parleyFixtures.js';

const workerRights = rightsOf({ member: WORKER, role: 'worker', state: 'active' });
const ownerRights = rightsOf({ member: OWNER, role: 'mission_owner', state: 'active' });

function shape(nodes: readonly MessageNode[]): unknown[] {
  return nodes.map((n) => [n.message.number, ...(n.replies.length === 0 ? [] : [shape(n.replies)])]);
}

function page(result: ReturnType<typeof inbox>): InboxPage {
  if ('ok' in result) throw new Error(result.error.reason);
  return result;
}

describe('reading a thread', () => {
  it('returns its messages nested by parent, in creation order', () => {
    const events = talk(
      ANSWERED,
      [OWNER, say('answer', 'Or a hash index.', { parent: 'msg_1' })],
      [WORKER, say('clarify', 'why?', { parent: 'msg_2' })],
      [WORKER2, say('answer', 'Range scans.', { parent: 'msg_4' })],
    );
    expect(shape(threadTree(sliceOf(events), 1) ?? [])).toEqual([[1, [[2, [[4, [[5]]]]], [3]]]]);
    expect(threadTree(sliceOf(events), 9)).toBeUndefined();
  });
});

describe('the state-change log', () => {
  it('records each change with origin, label, time and confirmation', () => {
    const events = talk(ANSWERED, [OWNER, say('decide', 'btree.', { thread: 1 }, 'console'), POST, at(60)]);
    expect(stateLog(sliceOf(events), 1)).toEqual([
      { message: 2, from: 'open', to: 'answered', origin: 'llm', label: `${W2} · main`, at: T0, confirmedAt: null },
      { message: 3, from: 'answered', to: 'decided', origin: 'user', label: `${OWNER.id} · console`, at: at(60), confirmedAt: at(60) },
    ]);
  });
});

describe('the inbox', () => {
  it('lists the threads whose turn is yours and not others\'', () => {
    // th_1: WORKER2 answered WORKER, so the turn is WORKER's; th_2 asks WORKER2 by name.
    const events = talk(ANSWERED, [OWNER, say('ask', 'Worker-8: status?', { to: { identity: W2 } })]);
    const mine = page(inbox(sliceOf(events), { identity: W1, extension: 'main', rights: workerRights }));
    expect(mine.threads.map((t) => [t.key, t.awaiting])).toEqual([['th_1', { to: 'party', identity: W1, extension: 'main' }]]);
    const theirs = page(inbox(sliceOf(events), { identity: W2, rights: workerRights }));
    expect(theirs.threads.map((t) => t.key)).toEqual(['th_2']);
  });

  it('keeps what awaits you under another extension: rights and turns are the line\'s, the label only says who asked', () => {
    // th_1: WORKER2 answered WORKER's question asked as `main`; WORKER now reads as `gpt`.
    const switched = page(inbox(sliceOf(ANSWERED), { identity: W1, extension: 'gpt', rights: workerRights }));
    expect(switched.threads.map((t) => [t.key, t.awaiting])).toEqual([['th_1', { to: 'party', identity: W1, extension: 'main' }]]);
  });

  it('masks your own extension\'s questions, but not your other extensions\'', () => {
    expect(page(inbox(sliceOf(ASKED), { identity: W1, extension: 'main', rights: workerRights })).threads).toEqual([]);
    expect(page(inbox(sliceOf(ASKED), { identity: W1, extension: 'helper', rights: workerRights })).threads.map((t) => t.key)).toEqual(['th_1']);
    expect(page(inbox(sliceOf(ASKED), { identity: W2, rights: workerRights })).threads.map((t) => t.key)).toEqual(['th_1']);
  });

  it('shows proposals awaiting confirmation to lock holders and the human only', () => {
    const proposed = sliceOf(talk(ANSWERED, [WORKER, say('decide', 'btree.', { thread: 1 })]));
    expect(page(inbox(proposed, { identity: OWNER.id, rights: ownerRights })).threads.map((t) => [t.key, t.confirmed])).toEqual([['th_1', false]]);
    expect(page(inbox(proposed, { identity: W2, rights: workerRights })).threads).toEqual([]);
  });

  it('leaves out threads at a confirmed end', () => {
    const closed = sliceOf(talk(ANSWERED, [OWNER, say('close', 'Done.', { thread: 1 })]));
    expect(page(inbox(closed, { identity: W1, rights: workerRights })).threads).toEqual([]);
  });

  it('returns only what is new since an instant', () => {
    const events = talk(GROUP_EVENTS, [OWNER, say('ask', 'Early?'), POST, at(10)], [OWNER, say('ask', 'Late?'), POST, at(100)]);
    const fresh = page(inbox(sliceOf(events), { identity: W1, rights: workerRights }, { since: at(50) }));
    expect(fresh.threads.map((t) => t.key)).toEqual(['th_2']);
  });

  it('pages with an opaque cursor that remembers the position', () => {
    const events = talk(GROUP_EVENTS, [OWNER, say('ask', 'one')], [OWNER, say('ask', 'two')], [OWNER, say('ask', 'three')]);
    const slice = sliceOf(events);
    const reader = { identity: W1, rights: workerRights };
    const first = page(inbox(slice, reader, { limit: 2 }));
    expect(first.threads.map((t) => t.key)).toEqual(['th_1', 'th_2']);
    expect(first.cursor).not.toMatch(/^\d+$/);
    const second = page(inbox(slice, reader, { cursor: first.cursor, limit: 2 }));
    expect(second.threads.map((t) => t.key)).toEqual(['th_3']);
    const none = page(inbox(slice, reader, { cursor: second.cursor }));
    expect([none.threads, none.cursor]).toEqual([[], second.cursor]);
    // A new message on th_1 brings it back after the cursor.
    const later = sliceOf(talk(events, [WORKER2, say('answer', 'one!', { parent: 'msg_1' })]));
    expect(page(inbox(later, { identity: OWNER.id, rights: ownerRights }, { cursor: second.cursor })).threads.map((t) => t.key)).toEqual(['th_1']);
  });

  it('caps the page at the manifest limit and refuses a forged cursor or a bad since', () => {
    expect(parleyLimits.inboxMaxPage).toBeGreaterThan(0);
    const slice = sliceOf(ASKED);
    const refused = inbox(slice, { identity: W2, rights: workerRights }, { cursor: '12' });
    expect('ok' in refused && refused.error.reason).toBe('invalid_cursor');
    const badSince = inbox(slice, { identity: W2, rights: workerRights }, { since: 'yesterday' });
    expect('ok' in badSince && badSince.error.reason).toBe('invalid_since');
    expect(page(inbox(slice, { identity: W2, rights: workerRights }, { limit: 10_000 })).threads).toHaveLength(1);
  });
});
