/**
 * Directed runs (schedulerDirected.ts), as `missionweave mcp`'s model drives its runtime: given the
 * Events that built a state, when `startRun` or `yieldRun`, then these Events or this refusal.
 */

import { describe, expect, it } from 'vitest';
import { admitted, given, MINUTE, policySet, request, step, T0, when } from './schedulerFixtures.js';

describe('startRun: the model picks the WorkItem', () => {
  it('starts the chosen ready WorkItem, not the fair pick, in the first free slot, paid like a pick', () => {
    const state = given([policySet('g1', { weight: 1, maxConcurrent: 2 }), policySet('g2', { weight: 3, maxConcurrent: 2 }), admitted(request('w1', 'g1')), admitted(request('w2', 'g2'))], 2);
    const decision = when(state, { type: 'startRun', nowMs: T0, workItemId: 'w1' });
    expect(decision).toEqual({ ok: true, events: [{ type: 'run.started', atMs: T0, workItemId: 'w1', groupId: 'g1', slot: 0, earners: ['g1', 'g2'] }] });
    const after = step(state, { type: 'startRun', nowMs: T0, workItemId: 'w1' }).state;
    expect(after.work.w1).toMatchObject({ status: 'running', slot: 0, runs: 1 });
    // Both earned their weight (1 + 3), g1 paid the sum: credits still sum to zero.
    expect(after.groups.g1?.credit).toBe(1 - 4);
    expect(after.groups.g2?.credit).toBe(3);
  });

  it('refuses an unknown WorkItem, one already running, a full runtime and a Group at its quota', () => {
    const base = given([policySet('g1', { maxConcurrent: 1 }), admitted(request('w1', 'g1')), admitted(request('w2', 'g1')), admitted(request('w3', 'g2'))], 2);
    const running = step(base, { type: 'startRun', nowMs: T0, workItemId: 'w1' }).state;
    expect(when(running, { type: 'startRun', nowMs: T0, workItemId: 'nope' })).toEqual({ ok: false, refusal: { code: 'unknown-work-item', workItemId: 'nope' } });
    expect(when(running, { type: 'startRun', nowMs: T0, workItemId: 'w1' })).toEqual({ ok: false, refusal: { code: 'not-ready', workItemId: 'w1', groupId: 'g1' } });
    expect(when(running, { type: 'startRun', nowMs: T0, workItemId: 'w2' })).toEqual({ ok: false, refusal: { code: 'group-at-quota', workItemId: 'w2', groupId: 'g1' } });
    const full = step(running, { type: 'startRun', nowMs: T0, workItemId: 'w3' }).state;
    expect(full.slots).toEqual(['w1', 'w3']);
    expect(when(full, { type: 'startRun', nowMs: T0, workItemId: 'w2' })).toEqual({ ok: false, refusal: { code: 'no-free-slot', workItemId: 'w2', groupId: 'g1' } });
  });
});

describe('yieldRun: the model stops at a checkpoint', () => {
  it('yields only at a safe durable checkpoint of this run, back to the ready queue with its slot free', () => {
    let state = given([admitted(request('w1', 'g1'))]);
    state = step(state, { type: 'startRun', nowMs: T0, workItemId: 'w1' }).state;
    expect(when(state, { type: 'yieldRun', nowMs: T0 + MINUTE, workItemId: 'w1' })).toEqual({ ok: false, refusal: { code: 'no-safe-checkpoint', workItemId: 'w1', groupId: 'g1' } });
    state = step(state, { type: 'reportCheckpoint', nowMs: T0 + MINUTE, workItemId: 'w1', safe: false, durable: true }).state;
    expect(when(state, { type: 'yieldRun', nowMs: T0 + MINUTE, workItemId: 'w1' })).toMatchObject({ ok: false, refusal: { code: 'no-safe-checkpoint' } });
    state = step(state, { type: 'reportCheckpoint', nowMs: T0 + 2 * MINUTE, workItemId: 'w1', safe: true, durable: true }).state;
    const yielded = step(state, { type: 'yieldRun', nowMs: T0 + 3 * MINUTE, workItemId: 'w1' });
    expect(yielded.events).toEqual([{ type: 'run.yielded', atMs: T0 + 3 * MINUTE, workItemId: 'w1', slot: 0 }]);
    expect(yielded.state.work.w1).toMatchObject({ status: 'ready', slot: null, readySinceMs: T0 + 3 * MINUTE });
    expect(yielded.state.slots).toEqual([null]);
    // Started again: the checkpoint of the earlier run does not let the new one yield.
    const again = step(yielded.state, { type: 'startRun', nowMs: T0 + 4 * MINUTE, workItemId: 'w1' }).state;
    expect(again.work.w1?.runs).toBe(2);
    expect(when(again, { type: 'yieldRun', nowMs: T0 + 4 * MINUTE, workItemId: 'w1' })).toMatchObject({ ok: false, refusal: { code: 'no-safe-checkpoint' } });
    expect(when(yielded.state, { type: 'yieldRun', nowMs: T0, workItemId: 'w1' })).toEqual({ ok: false, refusal: { code: 'not-running', workItemId: 'w1' } });
    expect(when(yielded.state, { type: 'yieldRun', nowMs: T0, workItemId: 'nope' })).toEqual({ ok: false, refusal: { code: 'unknown-work-item', workItemId: 'nope' } });
  });
});
