/**
 * How each Scheduler Event changes the state. Total over valid Events (each applies what decide
 * checked) and copy-on-write: the state given is never changed, so a snapshot taken of it stays
 * what it was.
 */

import { defaultGroupPolicy } from './schedulerAdmission.js';
import type { GroupState, HeldWork, SchedulerEvent, SchedulerState } from './schedulerTypes.js';

function withWork(state: SchedulerState, work: HeldWork): SchedulerState {
  return { ...state, work: { ...state.work, [work.workItemId]: work } };
}

function withSlot(state: SchedulerState, slot: number, workItemId: string | null): SchedulerState {
  return { ...state, slots: state.slots.map((s, i) => (i === slot ? workItemId : s)) };
}

/**
 * A Group whose ready queue empties keeps no positive credit: credit is earned by waiting, and a
 * Group with nothing to wait for must not bank it for later bursts. Debt (negative credit) stays
 * while it holds work. A Group that holds nothing and whose policy nobody set is forgotten, so it
 * no longer counts against MAX_GROUPS; its debt goes with it (it took no picks while it held
 * nothing, and comes back as a new Group would).
 */
function settle(state: SchedulerState, groupId: string): SchedulerState {
  const group = state.groups[groupId];
  if (group === undefined) return state;
  const held = Object.values(state.work).filter((w) => w.groupId === groupId);
  if (held.length === 0 && !group.policySet) {
    const groups = { ...state.groups };
    delete groups[groupId];
    return { ...state, groups };
  }
  if (group.credit <= 0 || held.some((w) => w.status === 'ready')) return state;
  return { ...state, groups: { ...state.groups, [groupId]: { ...group, credit: 0 } } };
}

/** Out of its slot, back to its Group's ready queue (a yield) or to `status`. */
function release(state: SchedulerState, work: HeldWork, slot: number, atMs: number, status: 'ready' | 'blocked'): SchedulerState {
  const next: HeldWork = { ...work, status, slot: null, runStartedAtMs: null, preemptRequestedAtMs: null, preemptFor: null, readySinceMs: atMs };
  return withSlot(withWork(state, next), slot, null);
}

function without(state: SchedulerState, workItemId: string): SchedulerState {
  const work = { ...state.work };
  delete work[workItemId];
  return { ...state, work };
}

export function evolve(state: SchedulerState, event: SchedulerEvent): SchedulerState {
  switch (event.type) {
    case 'work.admitted': {
      const { work } = event;
      const groups = state.groups[work.groupId] === undefined
        ? { ...state.groups, [work.groupId]: { groupId: work.groupId, policy: defaultGroupPolicy(state.slots.length), credit: 0, policySet: false } }
        : state.groups;
      const held: HeldWork = {
        ...work,
        status: 'ready',
        seq: state.nextSeq,
        admittedAtMs: event.atMs,
        readySinceMs: event.atMs,
        runs: 0,
        slot: null,
        runStartedAtMs: null,
        preemptRequestedAtMs: null,
        preemptFor: null,
        lastSafeCheckpointAtMs: null,
      };
      return withWork({ ...state, groups, nextSeq: state.nextSeq + 1 }, held);
    }
    case 'group.policy.set': {
      const group: GroupState = state.groups[event.groupId] ?? { groupId: event.groupId, policy: event.policy, credit: 0, policySet: true };
      return { ...state, groups: { ...state.groups, [event.groupId]: { ...group, policy: event.policy, policySet: true } } };
    }
    case 'run.started': {
      const groups: Record<string, GroupState> = { ...state.groups };
      let paid = 0;
      for (const groupId of event.earners) {
        const group = groups[groupId];
        if (group === undefined) continue;
        groups[groupId] = { ...group, credit: group.credit + group.policy.weight };
        paid += group.policy.weight;
      }
      const picked = groups[event.groupId];
      if (picked !== undefined) groups[event.groupId] = { ...picked, credit: picked.credit - paid };
      const work = state.work[event.workItemId] as HeldWork;
      const next: HeldWork = { ...work, status: 'running', slot: event.slot, runs: work.runs + 1, runStartedAtMs: event.atMs, preemptRequestedAtMs: null, preemptFor: null };
      return settle(withSlot(withWork({ ...state, groups }, next), event.slot, event.workItemId), event.groupId);
    }
    case 'preemption.requested': {
      const work = state.work[event.workItemId] as HeldWork;
      return withWork(state, { ...work, preemptRequestedAtMs: event.atMs, preemptFor: event.forWorkItemId });
    }
    case 'checkpoint.recorded': {
      if (!event.safe || !event.durable) return state;
      const work = state.work[event.workItemId] as HeldWork;
      return withWork(state, { ...work, lastSafeCheckpointAtMs: event.atMs });
    }
    case 'run.yielded':
      return release(state, state.work[event.workItemId] as HeldWork, event.slot, event.atMs, 'ready');
    case 'run.ended': {
      const work = state.work[event.workItemId] as HeldWork;
      if (event.outcome === 'blocked') return release(state, work, event.slot, event.atMs, 'blocked');
      return settle(withSlot(without(state, event.workItemId), event.slot, null), work.groupId);
    }
    case 'work.unblocked': {
      const work = state.work[event.workItemId] as HeldWork;
      return withWork(state, { ...work, status: 'ready', readySinceMs: event.atMs });
    }
    case 'work.withdrawn': {
      const work = state.work[event.workItemId] as HeldWork;
      const freed = work.slot === null ? state : withSlot(state, work.slot, null);
      return settle(without(freed, event.workItemId), work.groupId);
    }
    case 'run.interrupted':
      return release(state, state.work[event.workItemId] as HeldWork, event.slot, event.atMs, event.resumable ? 'ready' : 'blocked');
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}
