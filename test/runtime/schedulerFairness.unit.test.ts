/**
 * Weighted fairness and anti-starvation over long runs (§11.1). Three Groups of weights 1:2:5
 * stay backlogged for 10,000 picks while their WorkItems carry random urgency, effort and
 * deadlines (a seeded generator, so a failure replays), and the heavy Groups get the high
 * priority class besides. Each Group's share of picks must sit within the tolerance the ranking
 * proves (shareTolerance), and the light, low-class Group must never wait more picks in a row than
 * its starvation bound — the point of bounding every bonus.
 */

import { describe, expect, it } from 'vitest';
import { BONUS_MAX, shareTolerance, starvationBound } from '../../src/client/runtime/schedulerRanking.js';
import type { EffortBand, SchedulerEvent, SchedulerState, Urgency } from '../../src/client/runtime/schedulerTypes.js';
import { given, MINUTE, policySet, request, step, T0 } from './schedulerFixtures.js';

/** mulberry32: a small seeded generator, enough to vary inputs reproducibly. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const URGENCIES: Urgency[] = ['routine', 'normal', 'high', 'critical'];
const EFFORTS: EffortBand[] = ['xs', 's', 'm', 'l', 'xl', 'unknown'];

interface Simulation {
  readonly picks: string[];
  readonly events: SchedulerEvent[];
  readonly final: SchedulerState;
}

/**
 * Every step, each run ends and the free slots are filled; each Group is topped up to `backlog`
 * ready WorkItems first, so it stays eligible at every pick.
 */
function simulate(weights: Record<string, number>, classes: Record<string, 'low' | 'normal' | 'high'>, slots: number, picks: number, seed: number): Simulation {
  const random = seeded(seed);
  const groups = Object.keys(weights);
  let state = given(groups.map((g) => policySet(g, { weight: weights[g], priorityClass: classes[g], maxConcurrent: slots, maxQueued: 50 })), slots);
  const order: string[] = [];
  const events: SchedulerEvent[] = [];
  const backlog = slots + 2;
  let next = 0;
  let now = T0;
  while (order.length < picks) {
    now += MINUTE;
    for (const workItemId of state.slots) {
      if (workItemId !== null) state = step(state, { type: 'endRun', nowMs: now, workItemId, outcome: 'submitted' }).state;
    }
    for (const groupId of groups) {
      while (Object.values(state.work).filter((w) => w.groupId === groupId).length < backlog) {
        const deadline = random() < 0.5 ? now + Math.floor(random() * 120) * MINUTE + MINUTE : null;
        const work = request(`w${next++}`, groupId, {
          urgency: URGENCIES[Math.floor(random() * 4)] as Urgency,
          effort: EFFORTS[Math.floor(random() * 6)] as EffortBand,
          deadlineMs: deadline,
        });
        state = step(state, { type: 'admit', nowMs: now, work }).state;
      }
    }
    const scheduled = step(state, { type: 'schedule', nowMs: now });
    state = scheduled.state;
    for (const event of scheduled.events) {
      events.push(event);
      if (event.type === 'run.started') order.push(event.groupId);
    }
  }
  return { picks: order.slice(0, picks), events, final: state };
}

function longestWait(order: readonly string[], groupId: string): number {
  let longest = 0;
  let current = 0;
  for (const picked of order) {
    current = picked === groupId ? 0 : current + 1;
    longest = Math.max(longest, current);
  }
  return longest;
}

describe('weighted fairness over 10,000 picks', () => {
  const weights = { A: 5, B: 2, C: 1 };
  const total = 8;
  const N = 10_000;
  const runs = new Map<number, Simulation>();
  /** One long run per slot count, shared by the assertions on it. */
  const run = (slots: number): Simulation => {
    const cached = runs.get(slots) ?? simulate(weights, { A: 'high', B: 'high', C: 'low' }, slots, N, 31 + slots);
    runs.set(slots, cached);
    return cached;
  };

  for (const slots of [1, 3]) {
    it(`gives each Group its weight's share within the proven tolerance (${slots} slot${slots > 1 ? 's' : ''})`, () => {
      const { picks, final } = run(slots);
      const tolerance = shareTolerance(Object.values(weights), N);
      expect(tolerance).toBeCloseTo((2 * (1 + BONUS_MAX)) / N, 12);
      for (const [groupId, weight] of Object.entries(weights)) {
        const share = picks.filter((g) => g === groupId).length / N;
        expect(Math.abs(share - weight / total), `${groupId}: ${share}`).toBeLessThanOrEqual(tolerance);
      }
      const credits = Object.values(final.groups).map((g) => g.credit);
      expect(credits.reduce((a, b) => a + b, 0)).toBe(0);
    });

    it(`bounds the wait of the light, low-class Group behind heavy high-class ones with deadlines (${slots} slot${slots > 1 ? 's' : ''})`, () => {
      const { picks } = run(slots);
      const bound = starvationBound(Object.values(weights), weights.C);
      expect(bound).toBe(Math.ceil(3 * 8 * (1 + BONUS_MAX)));
      expect(longestWait(picks, 'C')).toBeLessThan(bound);
      expect(longestWait(picks, 'B')).toBeLessThan(starvationBound(Object.values(weights), weights.B));
    });
  }

  it('makes the same decisions in the same order from the same inputs', () => {
    const first = simulate(weights, { A: 'normal', B: 'high', C: 'low' }, 2, 1_000, 99);
    const second = simulate(weights, { A: 'normal', B: 'high', C: 'low' }, 2, 1_000, 99);
    expect(second.events).toEqual(first.events);
    expect(JSON.stringify(second.final)).toBe(JSON.stringify(first.final));
  });
});
