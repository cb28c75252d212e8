/**
 * How the Scheduler ranks ready work (§11.1), in two steps.
 *
 * 1. Across Groups, weighted-fair credit decides (smooth weighted round-robin): at each pick every
 *    eligible Group earns its weight, and the picked Group pays the sum of the eligible weights, so
 *    credits sum to zero and each Group's share of picks tends to its weight's share. A bounded
 *    bonus for the Group's head WorkItem joins the credit: organization priority class, deadline,
 *    aging, quota pressure and effort band, each at most a fixed fraction of the eligible weight
 *    sum (BONUS below, at most BONUS_MAX in all). Because the bonus is bounded, no signal can hold
 *    a Group back for ever: a continuously eligible Group of weight w among n Groups of total
 *    weight W waits fewer than n·W·(1 + BONUS_MAX)/w picks in a row (starvationBound), and after
 *    N picks its share is within (n − 1)·(1 + BONUS_MAX)/N of w/W (shareTolerance). A slot handed
 *    over by a preemption is a pick paid the same way but not an argmax; the bounds count only
 *    argmax picks, and preemptions are rare by their margins and MIN_RUN_BEFORE_PREEMPT_MS.
 * 2. Inside a Group, the Coordinator's requested urgency, the deadline, unbounded aging and the
 *    effort band order its ready queue. Urgency counts only here: a Coordinator orders its own
 *    Mission's work and cannot force it ahead of other Missions (§11.1).
 */

import {
  AGING_STEP_MS,
  CROSS_AGING_FULL_MS,
  DEADLINE_HORIZON_MS,
} from './schedulerLimits.js';
import type { EffortBand, GroupState, HeldWork, PriorityClass, SchedulerState, Urgency } from './schedulerTypes.js';

/** Each cross-Group bonus at its fullest, as a fraction of the eligible weight sum. */
export const BONUS = {
  priorityClass: 1,
  deadline: 1,
  aging: 0.5,
  quotaPressure: 0.25,
  effort: 0.25,
} as const;

export const BONUS_MAX = BONUS.priorityClass + BONUS.deadline + BONUS.aging + BONUS.quotaPressure + BONUS.effort;

const CLASS_FACTOR: Record<PriorityClass, number> = { low: 0, normal: 0.5, high: 1 };
/** Short work first, a little: it frees a slot sooner. Unknown effort ranks as medium-long. */
const EFFORT_FACTOR: Record<EffortBand, number> = { xs: 1, s: 0.75, m: 0.5, unknown: 0.4, l: 0.25, xl: 0 };
const URGENCY_POINTS: Record<Urgency, number> = { routine: 0, normal: 1, high: 2, critical: 3 };

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** 0 far from the deadline (or without one), growing to 1 at and past it. */
export function deadlineFactor(work: HeldWork, nowMs: number): number {
  if (work.deadlineMs === null) return 0;
  return clamp01(1 - (work.deadlineMs - nowMs) / DEADLINE_HORIZON_MS);
}

/** A WorkItem's rank inside its Group: urgency, deadline, unbounded aging, effort. */
export function intraRank(work: HeldWork, nowMs: number): number {
  const waited = Math.max(0, nowMs - work.readySinceMs);
  return URGENCY_POINTS[work.urgency] + 2 * deadlineFactor(work, nowMs) + waited / AGING_STEP_MS + 0.5 * EFFORT_FACTOR[work.effort];
}

/** What may justify preempting inside a Group: urgency and deadline, not aging (a waiting item ages past any run). */
export function preemptRank(work: HeldWork, nowMs: number): number {
  return URGENCY_POINTS[work.urgency] + 2 * deadlineFactor(work, nowMs);
}

/** A Group's ready WorkItems, best first (ranks computed once each, then sorted). */
export function readyQueue(state: SchedulerState, groupId: string, nowMs: number): HeldWork[] {
  return Object.values(state.work)
    .filter((w) => w.groupId === groupId && w.status === 'ready')
    .map((work) => ({ work, rank: intraRank(work, nowMs) }))
    .sort((a, b) => b.rank - a.rank || a.work.seq - b.work.seq)
    .map(({ work }) => work);
}

/** Ready and blocked WorkItems: what counts against a Group's queue quota. */
export function queuedCount(state: SchedulerState, groupId: string): number {
  return Object.values(state.work).filter((w) => w.groupId === groupId && w.status !== 'running').length;
}

/**
 * The cross-Group bonus of a Group whose head is `head` and which holds `queued` ready and
 * blocked WorkItems, as a fraction of the eligible weight sum.
 */
export function groupBonus(group: GroupState, head: HeldWork, queued: number, nowMs: number): number {
  const waited = Math.max(0, nowMs - head.readySinceMs);
  const pressure = clamp01(queued / group.policy.maxQueued);
  return (
    BONUS.priorityClass * CLASS_FACTOR[group.policy.priorityClass] +
    BONUS.deadline * deadlineFactor(head, nowMs) +
    BONUS.aging * clamp01(waited / CROSS_AGING_FULL_MS) +
    BONUS.quotaPressure * pressure +
    BONUS.effort * EFFORT_FACTOR[head.effort]
  );
}

export interface Candidate {
  readonly group: GroupState;
  readonly head: HeldWork;
  /** Credit plus bonus, in credit units. */
  readonly score: number;
}

interface GroupSummary {
  head: HeldWork | undefined;
  headRank: number;
  running: number;
  queued: number;
}

/** Each Group's best ready WorkItem and its counts, in one pass over the held work. */
function summarizeGroups(state: SchedulerState, nowMs: number): Map<string, GroupSummary> {
  const byGroup = new Map<string, GroupSummary>();
  for (const work of Object.values(state.work)) {
    let counts = byGroup.get(work.groupId);
    if (counts === undefined) {
      counts = { head: undefined, headRank: 0, running: 0, queued: 0 };
      byGroup.set(work.groupId, counts);
    }
    if (work.status === 'running') {
      counts.running += 1;
      continue;
    }
    counts.queued += 1;
    if (work.status !== 'ready') continue;
    const rank = intraRank(work, nowMs);
    if (counts.head === undefined || rank > counts.headRank || (rank === counts.headRank && work.seq < counts.head.seq)) {
      counts.head = work;
      counts.headRank = rank;
    }
  }
  return byGroup;
}

/**
 * The eligible Groups (ready work, under their concurrency quota), each with its head and score,
 * best first; ties go to the head admitted first, so the order is a function of the state alone.
 */
export function candidates(state: SchedulerState, nowMs: number): { readonly ranked: Candidate[]; readonly weightSum: number } {
  const byGroup = summarizeGroups(state, nowMs);
  const eligible: { group: GroupState; head: HeldWork; queued: number }[] = [];
  for (const group of Object.values(state.groups)) {
    const counts = byGroup.get(group.groupId);
    if (counts?.head === undefined || counts.running >= group.policy.maxConcurrent) continue;
    eligible.push({ group, head: counts.head, queued: counts.queued });
  }
  const weightSum = eligible.reduce((sum, e) => sum + e.group.policy.weight, 0);
  const ranked = eligible
    .map(({ group, head, queued }) => ({ group, head, score: group.credit + group.policy.weight + weightSum * groupBonus(group, head, queued, nowMs) }))
    .sort((a, b) => b.score - a.score || a.head.seq - b.head.seq);
  return { ranked, weightSum };
}

/** Most picks in a row a continuously eligible Group of `weight` waits, among Groups of `weights`. */
export function starvationBound(weights: readonly number[], weight: number): number {
  const total = weights.reduce((a, b) => a + b, 0);
  return Math.ceil((weights.length * total * (1 + BONUS_MAX)) / weight);
}

/** Largest distance of a Group's share of N picks from its weight's share, for Groups of `weights`. */
export function shareTolerance(weights: readonly number[], picks: number): number {
  return ((weights.length - 1) * (1 + BONUS_MAX)) / picks;
}
