/**
 * Group state as store rows and back, and what evolve promises: new objects only for what an
 * Event changed, never a mutated input, and loud failure on history it cannot fold.
 */

import { describe, expect, it } from 'vitest';
import { evolveGroup } from '../support/coreDecider.js';
import { fromAggregates, toAggregates } from '../../src/domain/coreModules.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import {
  GROUP,
  MAIN,
  MISSION,
  OWNER,
  WORK,
  WORKER,
  busyGroup,
  command,
  history,
  stateOf,
  steps,
  verifiedWorkHistory,
} from './fixtures.js';

const M1 = 'urn:missionweave:message:m-1';
const busy = busyGroup();
const approved = history([steps.submit(), steps.approve()], verifiedWorkHistory(busy));

/** What the store hands back: rows through JSON, as jsonb keeps them. */
function stored(state: GroupState) {
  return JSON.parse(JSON.stringify(toAggregates(state))) as ReturnType<typeof toAggregates>;
}

describe('toAggregates / fromAggregates', () => {
  it('round-trips a Group state exactly, but for the derived rate windows (§20), which are not stored', () => {
    for (const events of [busy, approved]) {
      const state = { ...stateOf(events), rateWindows: new Map() };
      expect(fromAggregates(GROUP, state.lastSequence, stored(state))).toEqual(state);
      expect(fromAggregates(GROUP, state.lastSequence, toAggregates(state))).toEqual(state);
    }
  });

  it('emits one row per aggregate with its revision', () => {
    const state = stateOf(approved);
    const rows = toAggregates(state).map((r) => [r.type, r.id, r.revision]);
    expect(rows).toEqual([
      ['group', GROUP, 1],
      ['mission', MISSION, 3],
      ['coordinator-lease', state.coordinatorLease.leaseId, 1],
      ...[...state.memberships.values()].map((m) => ['membership', m.membershipId, m.membershipEpoch]),
      ['conversation', MAIN, 1],
      ['conversation', state.workItems.get(WORK)?.conversationId, 0],
      ['message', M1, 1],
      ['work-item', WORK, 1],
    ]);
    const missionRow = toAggregates(state).find((r) => r.type === 'mission');
    expect(missionRow?.document).toEqual({ mission: state.mission, notes: state.missionNotes });
  });

  it('counts a Message row’s revision by its status', () => {
    const redacted = history([(s) => command(s!, OWNER, 'message.redact', { amendmentId: 'urn:x:r', messageId: M1, reason: 'policy' })], busy);
    const rows = toAggregates(stateOf(redacted)).filter((r) => r.type === 'message');
    expect(rows.map((r) => [r.id, r.revision, (r.document as { status: string }).status])).toEqual([
      [M1, 4, 'redacted'],
      ['urn:x:r', 1, 'posted'],
    ]);
  });

  it('rebuilds a partial view from the rows the app loads', () => {
    const state = stateOf(busy);
    const withoutMessages = toAggregates(state).filter((r) => r.type !== 'message');
    expect(fromAggregates(GROUP, state.lastSequence, withoutMessages).messages.size).toBe(0);
  });

  it('refuses rows that are not one Group’s state', () => {
    const rows = toAggregates(stateOf(busy));
    expect(() => fromAggregates(GROUP, 5, rows.filter((r) => r.type !== 'mission'))).toThrow(/required/);
    expect(() => fromAggregates('urn:missionweave:group:other', 5, rows)).toThrow(/loaded as/);
    expect(() => fromAggregates(GROUP, 5, [...rows, { type: 'budget', id: 'x', revision: 1, document: {} }])).toThrow(/unknown aggregate/);
  });
});

describe('evolveGroup', () => {
  it('shares what an Event did not change and never mutates its input', () => {
    const before = stateOf(busy);
    const snapshot = structuredClone(before);
    const next = history([steps.post(WORKER, 'urn:x:m2', 'more')], busy);
    const after = evolveGroup(before, next[next.length - 1]!);
    expect(before).toEqual(snapshot);
    expect(after.mission).toBe(before.mission);
    expect(after.memberships).toBe(before.memberships);
    expect(after.workItems).toBe(before.workItems);
    expect(after.coordinatorLease).toBe(before.coordinatorLease);
    expect(after.conversations).not.toBe(before.conversations);
    expect(after.conversations.get(MAIN)).not.toBe(before.conversations.get(MAIN));
    expect(after.conversations.get(MAIN)?.revision).toBe(2);
    expect(after.lastSequence).toBe(before.lastSequence + 1);
  });

  it('folds an amendment whose target the partial view did not load', () => {
    const events = history([(s) => command(s!, WORKER, 'message.retract', { amendmentId: 'urn:x:a', messageId: M1, reason: 'x' })], busy);
    const partial = { ...stateOf(busy), messages: new Map() };
    const after = evolveGroup(partial, events[events.length - 1]!);
    expect([...after.messages.keys()]).toEqual(['urn:x:a']);
    expect(after.conversations.get(MAIN)?.revision).toBe(2);
  });

  it('throws on history it cannot fold', () => {
    const [created] = busy as [RecordedEvent, ...RecordedEvent[]];
    const state = stateOf(busy);
    expect(() => evolveGroup(state, created)).toThrow(/existing Group/);
    expect(() => evolveGroup(null, busy[1]!)).toThrow(/before the Group/);
    expect(() => evolveGroup(state, { ...created, kind: 'ext.example.not_an_event' })).toThrow(/unknown Group Event/);
    const { sequence: _s, ...unordered } = created;
    expect(() => evolveGroup(null, unordered)).toThrow(/no sequence/);
    const stray = { ...busy[3]!, payload: { message: { ...(busy[3]!.payload['message'] as object), conversationId: 'urn:x:none' } } };
    expect(() => evolveGroup(state, stray)).toThrow(/unknown Conversation/);
  });
});
