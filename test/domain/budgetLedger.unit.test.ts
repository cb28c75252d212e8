/**
 * The budget ledger's rules (§12, §4.11, §14), given / when / then: cumulative allocation (every
 * dimension, an ungranted dimension, the currency, what a finished WorkItem holds, a delegated
 * sub-WorkItem and a child Mission allocated from their WorkItem), a usage charge and its
 * overflow in each dimension, the charge over the complete ancestry (a child Mission's Group and
 * its parent's, one Event in each), and exhaustion pausing the work until a revision.
 */

import { describe, expect, it } from 'vitest';
import type { WorkItem } from '../../src/domain/documents.js';
import type { GroupState } from '../../src/domain/group/groupState.js';
import type { Decision, RecordedEvent } from '../../src/domain/model.js';
import { decideGroupCommand } from '../../src/domain/group/decideGroup.js';
import { evolveGroup } from '../../src/domain/group/evolveGroup.js';
import { budgetPauseOf, usageOf } from '../../src/domain/workItem/resourceUsage.js';
import { testContext } from '../support/specification.js';
import { CHILD_GROUP, CHILD_MISSION, CONTRACT, COORD, COORD2, MISSION, OWNER, SELECTION, T0, WORK, WORKER, WORLD, command, groupSpec, history, stateOf, steps } from './fixtures.js';
import { leasesIn } from './expectedOwnership.js';
import { EXEC_CHECKPOINT } from './execFixtures.js';

const RECORD = 'ext.missionweaveprotocol.core.resource_usage_record';
const W2 = 'urn:missionweave:work-item:w2';
const W3 = 'urn:missionweave:work-item:w3';
const CW = 'urn:missionweave:work-item:child-w1';
const MISSION_BUDGET = { currency: 'EUR', financialLimit: 1200, modelTokenLimit: 4000000, toolCallLimit: 5000, computeSecondsLimit: 864000, wallClockSecondsLimit: 1209600 };
/** Five of six dimensions, small enough to overflow in one charge. */
const SMALL = { currency: 'EUR', financialLimit: 1, modelTokenLimit: 10, toolCallLimit: 10, computeSecondsLimit: 10, wallClockSecondsLimit: 10 };
const runnable = (budget: object, extra: object = {}) => ({ ...CONTRACT, executionApproval: 'not_required', budget, ...extra });

function authorize(workItemId: string, budget: object, extra: object = {}) {
  return (s: GroupState | null) => command(s!, COORD, 'work.authorize', { workItemId, contract: runnable(budget), ...extra });
}

/** w1 active under WORKER with `budget`. */
function activeWith(budget: object): RecordedEvent[] {
  return history([steps.create, steps.addMember(WORKER), authorize(WORK, budget), steps.offer(), steps.acceptOffer(), steps.startWork()]);
}

function leaseIdOf(state: GroupState, workItemId = WORK): string {
  return (leasesIn(state, workItemId)['execution'] as { leaseId: string }).leaseId;
}

function record(state: GroupState, usageDelta: object, workItemId = WORK) {
  return command(state, WORKER, RECORD, { workItemId, ownershipEpoch: 1, executionLeaseId: leaseIdOf(state, workItemId), usageDelta });
}

function expectAccepted(given: readonly RecordedEvent[], cmd: ReturnType<typeof command>): void {
  expect(refusalOf(decideGroupCommand(stateOf(given), cmd, testContext(WORLD)))).toBe('accepted');
}

function refusalOf(decision: Decision): unknown {
  return decision.ok ? 'accepted' : { code: decision.error.code, reason: decision.error.reason, dimension: decision.error.details?.['dimension'] };
}

describe('cumulative allocation (§12)', () => {
  const base = history([steps.create, authorize(WORK, { currency: 'EUR', financialLimit: 1000 })]);

  it('accepts allocations that together fit the Mission budget, to the microunit', () => {
    expectAccepted(base, authorize(W2, { currency: 'EUR', financialLimit: 200 })(stateOf(base)));
  });

  it('refuses an allocation that would take the sum past the Mission budget, naming the dimension (BUDGET_EXCEEDED)', () => {
    const s = stateOf(base);
    groupSpec.given(base).when(authorize(W2, { currency: 'EUR', financialLimit: 200.000001 })(s)).thenFails('BUDGET_EXCEEDED', 'allocation-exceeds');
    const twice = history([authorize(W2, { toolCallLimit: 4000 })], base);
    for (const [dimension, budget] of [
      ['toolCalls', { toolCallLimit: 1001 }],
      ['modelTokens', { modelTokenLimit: 1 }],
      ['computeSeconds', { computeSecondsLimit: 1 }],
      ['wallClockSeconds', { wallClockSecondsLimit: 1 }],
    ] as const) {
      const decision = decideGroupCommand(stateOf(twice), authorize(W3, budget)(stateOf(twice)), testContext(WORLD));
      expect(refusalOf(decision)).toEqual(dimension === 'toolCalls' ? { code: 'BUDGET_EXCEEDED', reason: 'allocation-exceeds', dimension } : 'accepted');
    }
    // w1 holds every token, compute and wall-clock second: one more of each is refused.
    const full = history([steps.create, authorize(WORK, MISSION_BUDGET)]);
    for (const [dimension, budget] of [
      ['modelTokens', { modelTokenLimit: 1 }],
      ['computeSeconds', { computeSecondsLimit: 1 }],
      ['wallClockSeconds', { wallClockSecondsLimit: 1 }],
      ['financialMicrounits', { currency: 'EUR', financialLimit: 0.000001 }],
    ] as const) {
      const decision = decideGroupCommand(stateOf(full), authorize(W2, budget)(stateOf(full)), testContext(WORLD));
      expect(refusalOf(decision)).toEqual({ code: 'BUDGET_EXCEEDED', reason: 'allocation-exceeds', dimension });
    }
  });

  it('refuses a dimension the Mission or parent WorkItem leaves unset, and money in another currency', () => {
    const s = stateOf(base);
    groupSpec.given(base).when(authorize(W2, { externalSideEffectLimit: 1 })(s)).thenFails('BUDGET_EXCEEDED', 'allocation-not-granted');
    // Against the Mission alone the contract check already refuses another currency.
    groupSpec.given(base).when(authorize(W2, { currency: 'USD', financialLimit: 1 })(s)).thenFails('INVALID_COMMAND', 'budget-exceeds-mission');
    // A parent WorkItem that grants no money: money allocated under it has no currency to match.
    const tokens = history([authorize(W2, { modelTokenLimit: 10 })], base);
    groupSpec.given(tokens).when(authorize(W3, { currency: 'EUR', financialLimit: 1 }, { parentWorkItemId: W2 })(stateOf(tokens))).thenFails('BUDGET_EXCEEDED', 'allocation-currency');
  });

  it('lets a cancelled WorkItem hold only what it used, releasing the rest', () => {
    const cancelled = history([(s) => command(s!, COORD, 'work.cancel', { workItemId: WORK, reason: 'replanned' })], base);
    expect(stateOf(cancelled).workItems.get(WORK)?.state).toBe('cancelled');
    expectAccepted(cancelled, authorize(W2, { currency: 'EUR', financialLimit: 1200 })(stateOf(cancelled)));
  });

  it('allocates a delegated sub-WorkItem from its parent WorkItem, not the Mission', () => {
    const parent = history([steps.create, authorize(WORK, { currency: 'EUR', financialLimit: 100 }), authorize(W2, { currency: 'EUR', financialLimit: 60 }, { parentWorkItemId: WORK })]);
    const s = stateOf(parent);
    expectAccepted(parent, authorize(W3, { currency: 'EUR', financialLimit: 40 }, { parentWorkItemId: WORK })(s));
    groupSpec.given(parent).when(authorize(W3, { currency: 'EUR', financialLimit: 41 }, { parentWorkItemId: WORK })(s)).thenFails('BUDGET_EXCEEDED', 'allocation-exceeds');
    groupSpec.given(parent).when(authorize(W3, { toolCallLimit: 1 }, { parentWorkItemId: WORK })(s)).thenFails('BUDGET_EXCEEDED', 'allocation-not-granted');
  });

  it('allocates a child Mission from the WorkItem it is promoted from', () => {
    const parent = history([steps.create, authorize(WORK, { currency: 'EUR', financialLimit: 100 }), authorize(W2, { currency: 'EUR', financialLimit: 60 }, { parentWorkItemId: WORK })]);
    const s = stateOf(parent);
    const child = (budget: object) => command(s, COORD, 'mission.create_child', { ...CHILD, budget });
    groupSpec.given(parent).when(child({ currency: 'EUR', financialLimit: 41 })).thenFails('BUDGET_EXCEEDED', 'allocation-exceeds');
    const decision = decideGroupCommand(s, child({ currency: 'EUR', financialLimit: 40 }), testContext(WORLD));
    expect(decision.ok).toBe(true);
  });
});

const CHILD = {
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

describe('a usage charge (resource_usage_record)', () => {
  it('adds to the WorkItem and Mission, cumulatively', () => {
    const given = activeWith(SMALL);
    const once = history([(s) => record(s!, { toolCalls: 3 })], given);
    const s = stateOf(once);
    expect(usageOf(s.workItems.get(WORK)!).toolCalls).toBe(3);
    const decision = decideGroupCommand(s, record(s, { toolCalls: 4, modelTokens: 2 }), testContext(WORLD));
    expect(decision.ok && decision.events[0]?.payload).toMatchObject({ cumulativeUsage: { toolCalls: 7, modelTokens: 2 }, remainingBudget: { toolCalls: 3, modelTokens: 8 }, missionUsage: { cumulativeUsage: { toolCalls: 7 } } });
  });

  it('refuses an overflow in each dimension, and in an ungranted one, with nothing changed (BUDGET_EXCEEDED)', () => {
    const given = activeWith(SMALL);
    const s = stateOf(given);
    for (const [dimension, delta] of [
      ['financialMicrounits', { financialMicrounits: 1_000_001 }],
      ['modelTokens', { modelTokens: 11 }],
      ['toolCalls', { toolCalls: 11 }],
      ['computeSeconds', { computeSeconds: 11 }],
      ['wallClockSeconds', { wallClockSeconds: 11 }],
      ['externalActions', { externalActions: 1 }],
    ] as const) {
      expect(refusalOf(decideGroupCommand(s, record(s, delta), testContext(WORLD)))).toEqual({ code: 'BUDGET_EXCEEDED', reason: 'work-item-budget', dimension });
    }
    expectAccepted(given, record(s, { financialMicrounits: 1_000_000 }));
  });

  it('is sent by the owner under its live Execution Lease, or by the Group Authority; the state must be active', () => {
    const given = activeWith(SMALL);
    const s = stateOf(given);
    groupSpec.given(given).when(command(s, WORKER, RECORD, { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: 'urn:x:other', usageDelta: { toolCalls: 1 } })).thenFails('WORK_LEASE_EXPIRED', 'execution-lease-not-current');
    groupSpec.given(given).when(command(s, WORKER, RECORD, { workItemId: WORK, ownershipEpoch: 2, executionLeaseId: leaseIdOf(s), usageDelta: { toolCalls: 1 } })).thenFails('WORK_STALE_OWNERSHIP', 'ownership-epoch-stale');
    groupSpec.given(given).when(command(s, COORD, RECORD, { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: leaseIdOf(s), usageDelta: { toolCalls: 1 } })).thenFails('AUTH_FORBIDDEN', 'not-a-worker');
    groupSpec.given(given).when(command(s, WORKER, RECORD, { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: leaseIdOf(s), usageDelta: { toolCalls: 1 }, capabilityTokenId: 'urn:x:token' })).thenFails('AUTH_FORBIDDEN', 'capability-charge-not-authority');
    const queued = history([steps.create, steps.addMember(WORKER), authorize(WORK, SMALL), steps.offer(), steps.acceptOffer()]);
    groupSpec.given(queued).when(command(stateOf(queued), WORKER, RECORD, { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: 'urn:x:none', usageDelta: { toolCalls: 1 } })).thenFails('INVALID_STATE_TRANSITION', 'work-item-state');
  });
});

describe('exhaustion pauses the work (§12)', () => {
  it('records the pause when a charge leaves a granted dimension at nothing, and refuses to renew or start under it', () => {
    const given = activeWith(SMALL);
    const spent = history([(s) => record(s!, { toolCalls: 10 })], given);
    const s = stateOf(spent);
    expect(budgetPauseOf(s.workItems.get(WORK)!)).toEqual({ dimension: 'toolCalls', accountId: WORK, since: T0 });
    groupSpec.given(spent).when(command(s, WORKER, 'ext.missionweaveprotocol.core.work_execution_lease_renew', { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: leaseIdOf(s) })).thenFails('BUDGET_EXCEEDED', 'budget-exhausted');
    // Checkpointed back to queued, the paused WorkItem is not started again.
    const queued = history([(x) => command(x!, WORKER, 'work.checkpoint', { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: leaseIdOf(x!), checkpoint: EXEC_CHECKPOINT })], spent);
    expect(stateOf(queued).workItems.get(WORK)?.state).toBe('queued');
    groupSpec.given(queued).when(steps.startWork()(stateOf(queued))).thenFails('BUDGET_EXCEEDED', 'budget-exhausted');
    // A charge that leaves something does not pause.
    const partly = stateOf(history([(x) => record(x!, { toolCalls: 9 })], given));
    expect(budgetPauseOf(partly.workItems.get(WORK)!)).toBeUndefined();
  });
});

/** The parent Group with w1 promoted to the child Mission, and the child Group with its WorkItem active. */
function family(childBudget: object, workBudget: object) {
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
  );
  return { parent, child: stateOf(childEvents) };
}

describe('a charge over the complete ancestry (§12, §14)', () => {
  it('updates the child WorkItem and Mission and, in the parent Group, the parent WorkItem and Mission', () => {
    const { parent, child } = family({ currency: 'EUR', financialLimit: 10, toolCallLimit: 10 }, { currency: 'EUR', financialLimit: 5, toolCallLimit: 10 });
    const decision = decideGroupCommand(child, record(child, { toolCalls: 4 }, CW), { ...testContext(WORLD), ancestors: [parent] });
    expect(decision.ok).toBe(true);
    if (!decision.ok) return;
    expect(decision.events.map((e) => [e.kind, e.groupId])).toEqual([
      ['ext.missionweaveprotocol.core.resource_usage_recorded', undefined],
      ['ext.missionweave.core.child_usage_recorded', parent.groupId],
    ]);
    expect(decision.events[1]?.payload).toMatchObject({
      workItemId: WORK,
      childMissionId: CHILD_MISSION,
      origin: { groupId: CHILD_GROUP, workItemId: CW },
      cumulativeUsage: { toolCalls: 4 },
      missionUsage: { missionId: MISSION, cumulativeUsage: { toolCalls: 4 }, remainingBudget: { toolCalls: 4996 } },
    });
    // The WorkItem's effective remaining is the least over the ancestry: the child Mission's 10 − 4.
    expect(decision.events[0]?.payload).toMatchObject({ remainingBudget: { toolCalls: 6 } });
  });

  it('refuses the whole charge when an ancestor account would overflow, or does not grant the dimension', () => {
    // The child WorkItem grants 10 tool calls; its parent WorkItem has used 95 of its 100 elsewhere.
    const { parent, child } = family({ currency: 'EUR', financialLimit: 10, toolCallLimit: 10 }, { currency: 'EUR', financialLimit: 5, toolCallLimit: 10 });
    const w1 = parent.workItems.get(WORK)!;
    const used = { ...parent, workItems: new Map(parent.workItems).set(WORK, { ...w1, extensions: { ...w1.extensions, 'urn:missionweave:extension:resource-usage': { version: '0.1.0', critical: false, data: { usage: { ...usageOf(w1), toolCalls: 95 } } } } }) };
    const over = decideGroupCommand(child, record(child, { toolCalls: 6 }, CW), { ...testContext(WORLD), ancestors: [used] });
    expect(refusalOf(over)).toEqual({ code: 'BUDGET_EXCEEDED', reason: 'work-item-budget', dimension: 'toolCalls' });
    expect(over.ok ? undefined : over.error.details?.['groupId']).toBe(parent.groupId);
    // Exactly what the parent WorkItem has left passes, and its exhaustion pauses the child's work.
    const decision = decideGroupCommand(child, record(child, { toolCalls: 5 }, CW), { ...testContext(WORLD), ancestors: [used] });
    expect(decision.ok && budgetPauseOf((decision.events[0]?.payload as { workItem: WorkItem }).workItem)).toEqual({ dimension: 'toolCalls', accountId: WORK, since: T0 });
  });

  it('refuses when the loaded ancestry is not the Mission parent link', () => {
    const { child } = family({ currency: 'EUR', financialLimit: 10, toolCallLimit: 10 }, { currency: 'EUR', financialLimit: 5, toolCallLimit: 10 });
    const stranger = stateOf(history([steps.create]));
    const other: GroupState = { ...stranger, mission: { ...stranger.mission, missionId: 'urn:x:other' } };
    const decision = decideGroupCommand(child, record(child, { toolCalls: 1 }, CW), { ...testContext(WORLD), ancestors: [other] });
    expect(refusalOf(decision)).toEqual({ code: 'INVALID_COMMAND', reason: 'ancestry-mismatch', dimension: undefined });
  });
});

const REVISE = 'ext.missionweave.core.budget_revise';

describe('the escalation: budget_revise (ours)', () => {
  const spent = () => history([(s) => record(s!, { toolCalls: 10 })], activeWith(SMALL));

  it('lets the Coordinator raise a paused WorkItem within the Mission, lifting the pause; its Worker renews again', () => {
    const given = spent();
    const s = stateOf(given);
    const raised = { ...SMALL, toolCallLimit: 20 };
    const after = groupSpec.given(given).when(command(s, COORD, REVISE, { workItemId: WORK, budget: raised, reason: 'more calls' })).then(
      [
        {
          kind: 'work.contract.revised',
          payload: {
            workItemId: WORK,
            workItem: (() => {
              const before = s.workItems.get(WORK)!;
              const data = { usage: usageOf(before) };
              return { ...before, contract: { ...before.contract, budget: raised, contractVersion: before.contract.contractVersion + 1 }, revision: before.revision + 1, updatedAt: T0, extensions: { ...before.extensions, 'urn:missionweave:extension:resource-usage': { version: '0.1.0', critical: false, data } } };
            })(),
            contractVersion: s.workItems.get(WORK)!.contract.contractVersion + 1,
            revokedLeases: [],
            previousBudget: SMALL,
            reason: 'more calls',
          },
        },
      ],
    );
    expect(budgetPauseOf(after!.workItems.get(WORK)!)).toBeUndefined();
    const renew = command(after!, WORKER, 'ext.missionweaveprotocol.core.work_execution_lease_renew', { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: leaseIdOf(after!) });
    expect(refusalOf(decideGroupCommand(after, renew, testContext(WORLD)))).toBe('accepted');
  });

  it('refuses a WorkItem revision beyond the Mission remainder, below its usage, or by anyone but the Coordinator', () => {
    const given = spent();
    const s = stateOf(given);
    groupSpec.given(given).when(command(s, COORD, REVISE, { workItemId: WORK, budget: { ...SMALL, toolCallLimit: 5001 }, reason: 'x' })).thenFails('BUDGET_EXCEEDED', 'allocation-exceeds');
    groupSpec.given(given).when(command(s, COORD, REVISE, { workItemId: WORK, budget: { ...SMALL, toolCallLimit: 9 }, reason: 'x' })).thenFails('BUDGET_EXCEEDED', 'revision-below-usage');
    groupSpec.given(given).when(command(s, COORD, REVISE, { workItemId: WORK, budget: { ...SMALL, currency: 'USD' }, reason: 'x' })).thenFails('INVALID_COMMAND', 'budget-currency-change');
    groupSpec.given(given).when(command(s, COORD, REVISE, { budget: MISSION_BUDGET, reason: 'x' })).thenFails('AUTH_FORBIDDEN', 'mission-owner-required');
    groupSpec.given(given).when(command(s, WORKER, REVISE, { workItemId: WORK, budget: SMALL, reason: 'x' })).thenFails('AUTH_FORBIDDEN', 'not-authorized');
  });

  it('lets the MissionOwner revise the Mission budget, never below what is allocated, and resumes work left something', () => {
    const given = spent();
    const s = stateOf(given);
    groupSpec.given(given).when(command(s, OWNER, REVISE, { budget: { ...MISSION_BUDGET, toolCallLimit: 9 }, reason: 'x' })).thenFails('BUDGET_EXCEEDED', 'revision-below-usage');
    groupSpec.given(given).when(command(s, OWNER, REVISE, { budget: { ...MISSION_BUDGET, modelTokenLimit: 9 }, reason: 'x' })).thenFails('BUDGET_EXCEEDED', 'revision-below-allocations');
    groupSpec.given(given).when(command(s, OWNER, REVISE, { workItemId: WORK, budget: SMALL, reason: 'x' })).thenFails('AUTH_FORBIDDEN', 'coordinator-required');
    // A pause whose account has something again is lifted by the Mission's revision.
    const w1 = s.workItems.get(WORK)!;
    const paused = { ...s, workItems: new Map(s.workItems).set(WORK, { ...w1, contract: { ...w1.contract, budget: { ...SMALL, toolCallLimit: 20 } } }) };
    const decision = decideGroupCommand(paused, command(paused, OWNER, REVISE, { budget: MISSION_BUDGET, reason: 'x' }), testContext(WORLD));
    expect(decision.ok && (decision.events[0]?.payload as { resumedWorkItems: WorkItem[] }).resumedWorkItems.map((w) => [w.workItemId, budgetPauseOf(w)])).toEqual([[WORK, undefined]]);
  });

  it('revises a child Mission only within what its parent WorkItem can allocate, recording it there', () => {
    const { parent, child } = family({ currency: 'EUR', financialLimit: 10, toolCallLimit: 10 }, { currency: 'EUR', financialLimit: 5, toolCallLimit: 10 });
    const ctx = { ...testContext(WORLD), ancestors: [parent] };
    const over = decideGroupCommand(child, command(child, COORD, REVISE, { budget: { currency: 'EUR', financialLimit: 10, toolCallLimit: 101 }, reason: 'x' }), ctx);
    expect(refusalOf(over)).toEqual({ code: 'BUDGET_EXCEEDED', reason: 'allocation-exceeds', dimension: 'toolCalls' });
    const fits = decideGroupCommand(child, command(child, COORD, REVISE, { budget: { currency: 'EUR', financialLimit: 10, toolCallLimit: 100 }, reason: 'x' }), ctx);
    expect(fits.ok && fits.events.map((e) => [e.kind, e.groupId])).toEqual([
      ['ext.missionweave.core.mission_budget_revised', undefined],
      ['ext.missionweave.core.child_budget_revised', parent.groupId],
    ]);
  });
});
