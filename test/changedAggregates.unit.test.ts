/**
 * What a write transaction stores of a batch (`changedAggregates`): exactly the rows of the
 * aggregates its Events changed, found by row identity first (the slice codecs hand back the
 * same rows for what evolve left alone) and by revision and content after that.
 */

import { describe, expect, it } from 'vitest';
import { changedAggregates } from '../src/app/groupStates.js';
import { fromAggregates, toAggregates } from '../src/domain/coreModules.js';
import { coreRegistry, evolveGroup } from './support/coreDecider.js';
import { GROUP, MAIN, WORKER, busyGroup, history, stateOf, steps } from './domain/fixtures.js';

const KINDS = coreRegistry();

const busy = busyGroup();
const posted = history([steps.post(WORKER, 'urn:x:m2', 'more')], busy);
const before = stateOf(busy);
const after = evolveGroup(before, posted[posted.length - 1]!);
const keys = (rows: readonly { type: string; id: string; revision: number }[]) => rows.map((r) => `${r.type} ${r.id} ${r.revision}`);

describe('changedAggregates', () => {
  it('stores every row of a new Group', () => {
    expect(keys(changedAggregates(KINDS, null, after))).toEqual(keys(toAggregates(after)));
  });

  it('stores only the Conversation and the Message a post changed, and nothing of an unchanged state', () => {
    expect(keys(changedAggregates(KINDS, before, after))).toEqual([`conversation ${MAIN} ${after.conversations.get(MAIN)?.revision}`, 'message urn:x:m2 1']);
    expect(changedAggregates(KINDS, after, after)).toEqual([]);
  });

  it('hands back the same rows for a state it encoded before, and new ones for what changed', () => {
    const [first, second] = [toAggregates(after), toAggregates(after)];
    expect(second).not.toBe(first);
    // Rows of map slices are the same objects; every row's document is the same object.
    second.forEach((row, i) => expect(row.document).toBe(first[i]?.document));
    expect(second.filter((row, i) => row !== first[i]).map((r) => r.type)).toEqual(['group', 'mission', 'coordinator-lease']);
    const membership = toAggregates(before).find((r) => r.type === 'membership');
    expect(toAggregates(after).find((r) => r.type === 'membership')).toBe(membership);
    expect(toAggregates(after).find((r) => r.type === 'conversation' && r.id === MAIN)).not.toBe(toAggregates(before).find((r) => r.type === 'conversation' && r.id === MAIN));
  });

  it('compares the rows of a reloaded state by revision and content', () => {
    const reloaded = fromAggregates(GROUP, before.lastSequence, JSON.parse(JSON.stringify(toAggregates(before))) as ReturnType<typeof toAggregates>);
    expect(changedAggregates(KINDS, reloaded, { ...before, lastSequence: before.lastSequence })).toEqual([]);
    const renamed = { ...before, mission: { ...before.mission, title: 'Renamed' } };
    expect(keys(changedAggregates(KINDS, reloaded, renamed))).toEqual([`mission ${before.mission.missionId} ${before.mission.revision}`]);
  });
});
