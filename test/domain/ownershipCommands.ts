/**
 * The Commands and histories the ownership tests (`workOwnership.unit`, `workExecution.unit`)
 * share: offers, acceptances, starts and renewals as a well-behaved actor sends them, and a few
 * ways to move a history to a later instant or into a state other branches' kinds produce.
 */

import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { AgentFacts, RecordedEvent } from '../../src/domain/model.js';
import type { Principal } from '../../src/protocol/principal.js';
import { COORD, SELECTION, WORK, WORKER, WORLD, command, history, stateOf } from './fixtures.js';
import { leasesIn } from './expectedOwnership.js';
import { workItemIn } from './workDocuments.js';

export const ID = 'urn:test:id:when-';
export const FENCE_REASON = 'Ownership expired; fenced before a new offer';

/** The history with the Coordinator's lease renewed for 30 days, so later instants need no renewal. */
export function longCoordinator(events: RecordedEvent[]): RecordedEvent[] {
  return history([(s) => command(s!, COORD, 'mission.renew_coordinator', { leaseSeconds: 30 * 86_400 })], events);
}

/** `events` then one Command at `now` (the history runs at `T0` otherwise). */
export function thenAt(events: RecordedEvent[], now: string, ...next: Parameters<typeof history>[0]): RecordedEvent[] {
  return history(next, events, { now });
}

/**
 * A WorkItem state no kind of this branch produces (submitted, failed, …), stood in for by a
 * `work.progressed` Event carrying the patched WorkItem: its evolve only sets the WorkItem.
 */
export function patched(events: RecordedEvent[], change: object): RecordedEvent[] {
  const state = stateOf(events);
  const workItem = { ...workItemIn(state), ...change };
  const last = events[events.length - 1]!;
  return [...events, { ...last, kind: 'work.progressed', payload: { workItemId: WORK, workItem } as never, sequence: state.lastSequence + 1, eventId: 'urn:test:event:patched' }];
}

export function offer(state: GroupState, candidates: readonly Principal[], extra: object = {}, actor: Principal = COORD, envelope: object = {}) {
  return command(state, actor, 'work.offer', { workItemId: WORK, candidateAgentIds: candidates.map((c) => c.id), selectionBasis: SELECTION, ...extra }, envelope);
}

export function acceptOffer(state: GroupState, actor: Principal = WORKER, extra: object = {}, envelope: object = {}) {
  return command(state, actor, 'work.accept_offer', { workItemId: WORK, ...extra }, envelope);
}

export function start(state: GroupState, actor: Principal = WORKER, ownershipEpoch = 1, extra: object = {}, envelope: object = {}) {
  return command(state, actor, 'work.start', { workItemId: WORK, ownershipEpoch, ...extra }, envelope);
}

export const RENEW = 'ext.missionweaveprotocol.core.work_execution_lease_renew';

export function currentLeaseId(state: GroupState): string {
  return (leasesIn(state)['execution'] as { leaseId: string }).leaseId;
}

export function renew(state: GroupState, claim: { ownershipEpoch?: number; executionLeaseId?: string; leaseSeconds?: number } = {}, actor: Principal = WORKER, envelope: object = {}) {
  return command(state, actor, RENEW, { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: currentLeaseId(state), ...claim }, envelope);
}

export function worldWith(worker: AgentFacts) {
  return { agents: [...WORLD.agents.filter((a) => a.agentId !== worker.agentId), worker] };
}