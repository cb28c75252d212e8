/**
 * Shared givens of the budget ledger tests (`budgetLedger.unit`, `budgetRevise.unit`): an active
 * WorkItem under a given budget, a usage record citing its live lease, and a parent Group with
 * its WorkItem promoted to a child Mission whose own WorkItem is active.
 */

import { expect } from 'vitest';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { Decision, RecordedEvent } from '../../src/domain/model.js';
import { decideGroupCommand } from '../support/coreDecider.js';
import { evolveGroup } from '../support/coreDecider.js';
import { testContext } from '../support/specification.js';
import { CHILD_GROUP, CHILD_MISSION, CONTRACT, COORD, COORD2, SELECTION, T0, WORK, WORKER, WORLD, command, history, stateOf, steps } from './fixtures.js';
import { leasesIn } from './expectedOwnership.js';

export const RECORD = 'ext.missionweaveprotocol.core.resource_usage_record';
export const W2 = 'urn:missionweave:work-item:w2';
export const W3 = 'urn:missionweave:work-item:w3';
export const CW = 'urn:missionweave:work-item:child-w1';
export const MISSION_BUDGET = { currency: 'EUR', financialLimit: 1200, modelTokenLimit: 4000000, toolCallLimit: 5000, computeSecondsLimit: 864000, wallClockSecondsLimit: 1209600 };
/** Five of six dimensions, small enough to overflow in one charge. */
export const SMALL = { currency: 'EUR', financialLimit: 1, modelTokenLimit: 10, toolCallLimit: 10, computeSecondsLimit: 10, wallClockSecondsLimit: 10 };
export const runnable = (budget: object, extra: object = {}) => ({ ...CONTRACT, executionApproval: 'not_required', budget, ...extra });

export function authorize(workItemId: string, budget: object, extra: object = {}) {
  return (s: GroupState | null) => command(s!, COORD, 'work.authorize', { workItemId, contract: runnable(budget), ...extra });
}

/** w1 active under WORKER with `budget`. */
export function activeWith(budget: object): RecordedEvent[] {
  return history([steps.create, steps.addMember(WORKER), authorize(WORK, budget), steps.offer(), steps.acceptOffer(), steps.startWork()]);
}

export function leaseIdOf(state: GroupState, workItemId = WORK): string {
  return (leasesIn(state, workItemId)['execution'] as { leaseId: string }).leaseId;
}

export function record(state: GroupState, usageDelta: object, workItemId = WORK) {
  return command(state, WORKER, RECORD, { workItemId, ownershipEpoch: 1, executionLeaseId: leaseIdOf(state, workItemId), usageDelta });
}

export function expectAccepted(given: readonly RecordedEvent[], cmd: ReturnType<typeof command>): void {
  expect(refusalOf(decideGroupCommand(stateOf(given), cmd, testContext(WORLD)))).toBe('accepted');
}

export function refusalOf(decision: Decision): unknown {
  return decision.ok ? 'accepted' : { code: decision.error.code, reason: decision.error.reason, dimension: decision.error.details?.['dimension'] };
}

export const CHILD = {
  missionId: CHILD_MISSION,
  groupId: CHILD_GROUP,
  parentWorkItemId: WORK,
  coordinatorId: COORD2.id,
  title: 'Child',
  objective: 'A part of the work.',
  definitionOfDone: [{ criterionId: 'c1', description: 'done', evidenceRequired: ['human_review'] }],
  budget: { currency: 'EUR', financialLimit: 10, toolCallLimit: 10 },
  deadline: '2026-09-10T00:00:00Z',
};


/** The parent Group with w1 promoted to the child Mission, and the child Group with its WorkItem active. */
export function family(childBudget: object, workBudget: object) {
  const before = history([steps.create, steps.addMember(WORKER), authorize(WORK, { currency: 'EUR', financialLimit: 100, toolCallLimit: 100 })]);
  const pre = stateOf(before);
  const ctx = testContext({ ...WORLD, idPrefix: 'urn:test:id:family-' });
  const created = decideGroupCommand(pre, command(pre, COORD, 'mission.create_child', { ...CHILD, budget: childBudget }), ctx);
  if (!created.ok) throw new Error(created.error.reason);
  const [inParent, inChild] = created.events;
  const recorded = (draft: NonNullable<typeof inParent>, sequence: number): RecordedEvent => ({
    kind: draft.kind,
    payload: JSON.parse(JSON.stringify(draft.payload)),
    actor: COORD,
    occurredAt: T0,
    sequence,
    eventId: draft.eventId ?? `urn:test:family:${sequence}`,
  });
  const parent = evolveGroup(pre, recorded(inParent!, pre.lastSequence + 1));
  const childEvents = history(
    [
      (s) => command(s!, COORD, 'membership.change', { principal: WORKER, roles: ['worker'] }),
      (s) => command(s!, COORD2, 'work.authorize', { workItemId: CW, contract: runnable(workBudget, { deadline: '2026-09-09T00:00:00Z' }) }),
      (s) => command(s!, COORD2, 'work.offer', { workItemId: CW, candidateAgentIds: [WORKER.id], selectionBasis: SELECTION }),
      steps.acceptOffer(WORKER, CW),
      steps.startWork(WORKER, 1, CW),
    ],
    [recorded(inChild!, 1)],
    { ancestors: [parent] },
  );
  return { parent, child: stateOf(childEvents) };
}

