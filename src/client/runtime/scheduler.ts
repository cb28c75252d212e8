/**
 * The Agent runtime's Scheduler (§11.1, §11.3) as a pure decider: `decide(state, command)` returns
 * the Events of a decision or a typed refusal, `evolve(state, event)` applies one Event, and
 * `initialSchedulerState(slots)` starts it. Time comes in with each Command and nothing is random:
 * the same Commands from the same state give the same Events in the same order.
 *
 * One runtime serves many Groups: a ready queue per Group, a fixed number of execution slots,
 * per-Group quotas, and weighted-fair picks across Groups (schedulerRanking.ts). Preemption is
 * cooperative (§11.3): `schedule` may mark one run "preempt requested"; the run keeps its slot
 * until it reports a checkpoint that is both safe and durable, and only then yields back to its
 * Group's ready queue. A checkpoint that is unsafe or not yet durable is recorded and changes
 * nothing else.
 */

import { admit, validPolicy } from './schedulerAdmission.js';
import { startRun, yieldRun } from './schedulerDirected.js';
import { evolve } from './schedulerEvolve.js';
import { CROSS_PREEMPT_MARGIN, INTRA_PREEMPT_MARGIN, MAX_SLOTS, MIN_RUN_BEFORE_PREEMPT_MS } from './schedulerLimits.js';
import { candidates, groupBonus, preemptRank, queuedCount, readyQueue } from './schedulerRanking.js';
import type { HeldWork, SchedulerCommand, SchedulerDecision, SchedulerEvent, SchedulerState } from './schedulerTypes.js';

export { evolve } from './schedulerEvolve.js';

export function initialSchedulerState(slots: number): SchedulerState {
  if (!Number.isInteger(slots) || slots < 1 || slots > MAX_SLOTS) throw new RangeError(`slots must be an integer in 1..${MAX_SLOTS}`);
  return { version: 1, groups: {}, work: {}, slots: Array.from({ length: slots }, () => null), nextSeq: 0 };
}

export function decide(state: SchedulerState, command: SchedulerCommand): SchedulerDecision {
  switch (command.type) {
    case 'admit':
      return admit(state, command.work, command.nowMs);
    case 'setGroupPolicy':
      if (command.groupId === '' || !validPolicy(command.policy, state.slots.length)) {
        return { ok: false, refusal: { code: 'invalid-policy', groupId: command.groupId } };
      }
      return { ok: true, events: [{ type: 'group.policy.set', groupId: command.groupId, policy: command.policy }] };
    case 'schedule':
      return { ok: true, events: schedule(state, command.nowMs) };
    case 'reportCheckpoint': {
      const work = running(state, command.workItemId);
      if ('code' in work) return { ok: false, refusal: work };
      const { nowMs: atMs, workItemId, safe, durable } = command;
      const recorded: SchedulerEvent = { type: 'checkpoint.recorded', atMs, workItemId, safe, durable };
      if (!safe || !durable || work.preemptRequestedAtMs === null) return { ok: true, events: [recorded] };
      return { ok: true, events: [recorded, ...yieldSlot(state, work, recorded, atMs)] };
    }
    case 'endRun': {
      const work = running(state, command.workItemId);
      if ('code' in work) return { ok: false, refusal: work };
      const event = { type: 'run.ended', atMs: command.nowMs, workItemId: work.workItemId, slot: work.slot as number, outcome: command.outcome } as const;
      return { ok: true, events: [event] };
    }
    case 'unblock': {
      const work = state.work[command.workItemId];
      if (work === undefined) return { ok: false, refusal: { code: 'unknown-work-item', workItemId: command.workItemId } };
      if (work.status !== 'blocked') return { ok: false, refusal: { code: 'not-blocked', workItemId: command.workItemId } };
      return { ok: true, events: [{ type: 'work.unblocked', atMs: command.nowMs, workItemId: command.workItemId }] };
    }
    case 'withdraw': {
      if (state.work[command.workItemId] === undefined) {
        return { ok: false, refusal: { code: 'unknown-work-item', workItemId: command.workItemId } };
      }
      return { ok: true, events: [{ type: 'work.withdrawn', atMs: command.nowMs, workItemId: command.workItemId }] };
    }
    case 'recoverRuns':
      return { ok: true, events: interruptedRuns(state, command.nowMs) };
    case 'startRun':
      return startRun(state, command.workItemId, command.nowMs);
    case 'yieldRun':
      return yieldRun(state, command.workItemId, command.nowMs);
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

/** Decides and applies: the new state and the Events, or the refusal. */
export function apply(
  state: SchedulerState,
  command: SchedulerCommand,
): { readonly ok: true; readonly state: SchedulerState; readonly events: readonly SchedulerEvent[] } | Extract<SchedulerDecision, { ok: false }> {
  const decision = decide(state, command);
  if (!decision.ok) return decision;
  return { ok: true, state: decision.events.reduce(evolve, state), events: decision.events };
}

function running(state: SchedulerState, workItemId: string): HeldWork | { code: 'unknown-work-item' | 'not-running'; workItemId: string } {
  const work = state.work[workItemId];
  if (work === undefined) return { code: 'unknown-work-item', workItemId };
  if (work.status !== 'running' || work.slot === null) return { code: 'not-running', workItemId };
  return work;
}

/**
 * After a restart nothing runs, whatever the snapshot says (§11.5): each run leaves its slot. One
 * with a safe durable checkpoint is ready again, to resume from it once the runtime has re-checked
 * its Ownership Epoch and Execution Lease with the Authority (and withdrawn it if they are gone);
 * one without is blocked, which the runtime reports to its Coordinator as `runtime-session-lost`.
 */
function interruptedRuns(state: SchedulerState, nowMs: number): SchedulerEvent[] {
  return state.slots.flatMap((workItemId, slot) => {
    const work = workItemId === null ? undefined : state.work[workItemId];
    if (work === undefined) return [];
    return [{ type: 'run.interrupted', atMs: nowMs, workItemId: work.workItemId, slot, resumable: work.lastSafeCheckpointAtMs !== null } as const];
  });
}

/**
 * The run yields its slot, which passes to the head of the Group the yield was asked for (the
 * WorkItem it was asked for, unless a better one of that Group arrived since), as a pick paid like
 * any other. Otherwise the next `schedule` could give the slot to a third Group and leave the
 * WorkItem that caused the preemption waiting. If that Group can no longer run (its work was
 * withdrawn, or it is at its quota), the slot stays free for `schedule`.
 */
function yieldSlot(state: SchedulerState, run: HeldWork, recorded: SchedulerEvent, atMs: number): SchedulerEvent[] {
  const slot = run.slot as number;
  const yielded: SchedulerEvent = { type: 'run.yielded', atMs, workItemId: run.workItemId, slot };
  const after = evolve(evolve(state, recorded), yielded);
  const beneficiary = run.preemptFor === null ? undefined : after.work[run.preemptFor];
  const { ranked } = candidates(after, atMs);
  const target = ranked.find((c) => c.group.groupId === beneficiary?.groupId);
  if (target === undefined || target.head.workItemId === run.workItemId) return [yielded];
  const earners = ranked.map((c) => c.group.groupId).sort();
  return [yielded, { type: 'run.started', atMs, workItemId: target.head.workItemId, groupId: target.group.groupId, slot, earners }];
}

/** Fills free slots by fair picks, then asks at most one run to yield if better work still waits. */
function schedule(initial: SchedulerState, nowMs: number): SchedulerEvent[] {
  const events: SchedulerEvent[] = [];
  let state = initial;
  for (;;) {
    const slot = state.slots.indexOf(null);
    if (slot < 0) break;
    const { ranked } = candidates(state, nowMs);
    const best = ranked[0];
    if (best === undefined) break;
    const event: SchedulerEvent = {
      type: 'run.started',
      atMs: nowMs,
      workItemId: best.head.workItemId,
      groupId: best.group.groupId,
      slot,
      earners: ranked.map((c) => c.group.groupId).sort(),
    };
    events.push(event);
    state = evolve(state, event);
  }
  const preemption = preemptionFor(state, nowMs);
  if (preemption !== null) events.push(preemption);
  return events;
}

/**
 * When every slot is taken and ready work outranks a run by a margin, one run is asked to yield:
 * the one outranked most, by the best eligible WorkItem across Groups, or by its own Group's head
 * (which counts even while that Group is at its concurrency quota: a critical arrival may displace
 * its own Group's routine run). Nothing is asked while an earlier request is still open, so one
 * arrival never empties several slots.
 */
function preemptionFor(state: SchedulerState, nowMs: number): SchedulerEvent | null {
  if (state.slots.includes(null)) return null;
  const runs = Object.values(state.work).filter((w) => w.status === 'running');
  if (runs.some((w) => w.preemptRequestedAtMs !== null)) return null;
  const { ranked, weightSum } = candidates(state, nowMs);
  const best = ranked[0];
  let choice: { victim: HeldWork; forWork: HeldWork; gain: number } | null = null;
  for (const run of runs) {
    if (!run.preemptible || nowMs - (run.runStartedAtMs as number) < MIN_RUN_BEFORE_PREEMPT_MS) continue;
    const head = readyQueue(state, run.groupId, nowMs)[0];
    const options: { forWork: HeldWork; gain: number }[] = [];
    if (head !== undefined) options.push({ forWork: head, gain: preemptRank(head, nowMs) - preemptRank(run, nowMs) - INTRA_PREEMPT_MARGIN });
    if (best !== undefined && best.group.groupId !== run.groupId) {
      options.push({ forWork: best.head, gain: crossGain(state, best.score, run, weightSum, nowMs) });
    }
    for (const option of options) {
      if (option.gain > 0 && (choice === null || option.gain > choice.gain)) choice = { victim: run, ...option };
    }
  }
  if (choice === null) return null;
  return { type: 'preemption.requested', atMs: nowMs, workItemId: choice.victim.workItemId, forWorkItemId: choice.forWork.workItemId };
}

/** How far the best waiting Group outscores a run's Group, in eligible weight sums, beyond the margin. */
function crossGain(state: SchedulerState, waitingScore: number, run: HeldWork, weightSum: number, nowMs: number): number {
  const group = state.groups[run.groupId];
  if (group === undefined) return 0;
  // The run's Group scored as if the run were its head and it were eligible now.
  const runScore = group.credit + group.policy.weight + weightSum * groupBonus(group, { ...run, readySinceMs: nowMs }, queuedCount(state, run.groupId), nowMs);
  return (waitingScore - runScore) / Math.max(weightSum, 1) - CROSS_PREEMPT_MARGIN;
}
