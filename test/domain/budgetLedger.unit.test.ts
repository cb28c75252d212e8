/**
 * The budget ledger's rules (§12, §4.11, §14), given / when / then: cumulative allocation (every
 * dimension, an ungranted dimension, the currency, what a finished WorkItem holds, a delegated
 * sub-WorkItem and a child Mission allocated from their WorkItem), a usage charge and its
 * overflow in each dimension, the charge over the complete ancestry (a child Mission's Group and
 * its parent's, one Event in each), and exhaustion pausing the work. The escalation that lifts
 * the pause is `budgetRevise.unit`.
 */

import { MAX_LEDGER_ANCESTRY } from '../../src/domain/workItem/budgetLimits.js';
import { describe, expect, it } from 'vitest';
import type { WorkItem } from '../../src/domain/documents.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import { decideGroupCommand } from '../support/coreDecider.js';
import { budgetPauseOf, usageOf } from '../../src/domain/workItem/usageAccount.js';
import { testContext } from '../support/specification.js';
import { AUTHORITY, CHILD_GROUP, CHILD_MISSION, COORD, MISSION, T0, WORK, WORKER, WORLD, command, groupSpec, history, stateOf, steps } from './fixtures.js';
import { EXEC_CHECKPOINT } from './execFixtures.js';
import { CHILD, CW, MISSION_BUDGET, SMALL, W2, W3, activeWith, authorize, expectAccepted, family, leaseIdOf, record, refusalOf } from './budgetFixtures.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';
import { BUDGET_REASONS } from '../../src/domain/budget/budgetReasons.js';
import { AUTHORIZATION_REASONS } from '../../src/domain/authorization/authorizationReasons.js';
import { workItemIn } from './workDocuments.js';
import { workRecordOf } from '../../src/domain/workItem/workRecord.js';

const RECORD = 'ext.missionweaveprotocol.core.resource_usage_record';

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
    groupSpec.given(base).when(authorize(W2, { currency: 'USD', financialLimit: 1 })(s)).thenFails('INVALID_COMMAND', WORK_REASONS.budgetExceedsMission);
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

describe('a usage charge (resource_usage_record)', () => {
  it('records the delta, the cumulative usage and the least remaining over the ancestry, stated whole', () => {
    const given = activeWith(SMALL);
    const s = stateOf(given);
    const before = workItemIn(s, WORK);
    const usage = { financialMicrounits: 250_000, modelTokens: 0, toolCalls: 3, computeSeconds: 0, wallClockSeconds: 0, externalActions: 0 };
    const workItem = { ...before, revision: before.revision + 1, updatedAt: T0, extensions: { ...before.extensions, 'urn:missionweave:extension:resource-usage': { version: '0.1.0', critical: false, data: { usage } } } };
    groupSpec.given(given).when(command(s, WORKER, RECORD, { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: leaseIdOf(s), usageDelta: { toolCalls: 3, financialMicrounits: 250_000 } })).then([
      {
        kind: RECORD.replace('_record', '_recorded'),
        payload: {
          workItemId: WORK,
          workItem,
          ownershipEpoch: 1,
          executionLeaseId: leaseIdOf(s),
          usageDelta: usage,
          cumulativeUsage: usage,
          remainingBudget: { financialMicrounits: 750_000, modelTokens: 10, toolCalls: 7, computeSeconds: 10, wallClockSeconds: 10 },
          missionUsage: {
            missionId: MISSION,
            cumulativeUsage: usage,
            remainingBudget: { financialMicrounits: 1_199_750_000, modelTokens: 4_000_000, toolCalls: 4_997, computeSeconds: 864_000, wallClockSeconds: 1_209_600 },
          },
        },
      },
    ]);
  });

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
    groupSpec.given(given).when(command(s, COORD, RECORD, { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: leaseIdOf(s), usageDelta: { toolCalls: 1 } })).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notAWorker);
    groupSpec.given(given).when(command(s, WORKER, RECORD, { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: leaseIdOf(s), usageDelta: { toolCalls: 1 }, capabilityTokenId: 'urn:x:token' })).thenFails('AUTH_FORBIDDEN', BUDGET_REASONS.capabilityChargeNotAuthority);
    // The Group Authority (a tool call charged through the Authorization Service) cites the epoch and live lease.
    const byAuthority = (payload: object) => command(s, AUTHORITY, RECORD, { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: leaseIdOf(s), usageDelta: { toolCalls: 1 }, ...payload });
    expectAccepted(given, byAuthority({}));
    groupSpec.given(given).when(byAuthority({ executionLeaseId: 'urn:x:other' })).thenFails('WORK_LEASE_EXPIRED', 'execution-lease-not-current');
    groupSpec.given(given).when(byAuthority({ ownershipEpoch: 2 })).thenFails('WORK_STALE_OWNERSHIP', 'ownership-epoch-stale');
    // A named token is judged by capabilityCharge.ts before anything is charged (no token exists yet).
    groupSpec.given(given).when(byAuthority({ capabilityTokenId: 'urn:x:token' })).thenFails('AUTH_FORBIDDEN', AUTHORIZATION_REASONS.capabilityUnknown);
    const queued = history([steps.create, steps.addMember(WORKER), authorize(WORK, SMALL), steps.offer(), steps.acceptOffer()]);
    groupSpec.given(queued).when(command(stateOf(queued), WORKER, RECORD, { workItemId: WORK, ownershipEpoch: 1, executionLeaseId: 'urn:x:none', usageDelta: { toolCalls: 1 } })).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
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
    const w1 = workItemIn(parent);
    const used = { ...parent, workItems: new Map(parent.workItems).set(WORK, workRecordOf({ ...w1, extensions: { ...w1.extensions, 'urn:missionweave:extension:resource-usage': { version: '0.1.0', critical: false, data: { usage: { ...usageOf(parent.workItems.get(WORK)!), toolCalls: 95 } } } } })) };
    const over = decideGroupCommand(child, record(child, { toolCalls: 6 }, CW), { ...testContext(WORLD), ancestors: [used] });
    expect(refusalOf(over)).toEqual({ code: 'BUDGET_EXCEEDED', reason: 'work-item-budget', dimension: 'toolCalls' });
    expect(over.ok ? undefined : over.error.details?.['groupId']).toBe(parent.groupId);
    // Exactly what the parent WorkItem has left passes, and its exhaustion pauses the child's work.
    const decision = decideGroupCommand(child, record(child, { toolCalls: 5 }, CW), { ...testContext(WORLD), ancestors: [used] });
    expect(decision.ok && budgetPauseOf(workRecordOf((decision.events[0]?.payload as { workItem: WorkItem }).workItem))).toEqual({ dimension: 'toolCalls', accountId: WORK, since: T0 });
  });

  it('refuses when the loaded ancestry is not the Mission parent link', () => {
    const { child } = family({ currency: 'EUR', financialLimit: 10, toolCallLimit: 10 }, { currency: 'EUR', financialLimit: 5, toolCallLimit: 10 });
    const stranger = stateOf(history([steps.create]));
    const other: GroupState = { ...stranger, mission: { ...stranger.mission, missionId: 'urn:x:other' } };
    const decision = decideGroupCommand(child, record(child, { toolCalls: 1 }, CW), { ...testContext(WORLD), ancestors: [other] });
    expect(refusalOf(decision)).toEqual({ code: 'INVALID_COMMAND', reason: 'ancestry-mismatch', dimension: undefined });
  });

  it(`refuses a charge whose ancestry is deeper than the ${MAX_LEDGER_ANCESTRY} Groups the ledger charges, rather than charge part of it`, () => {
    const { parent, child } = family({ currency: 'EUR', financialLimit: 10, toolCallLimit: 10 }, { currency: 'EUR', financialLimit: 5, toolCallLimit: 10 });
    const deepest = Array.from({ length: MAX_LEDGER_ANCESTRY }, () => parent);
    expect(refusalOf(decideGroupCommand(child, record(child, { toolCalls: 1 }, CW), { ...testContext(WORLD), ancestors: [parent, ...deepest] }))).toEqual({
      code: 'INVALID_COMMAND',
      reason: 'ancestry-too-deep',
      dimension: undefined,
    });
    // At the limit the depth is not what refuses: the repeated parent is simply not the link.
    const atLimit = decideGroupCommand(child, record(child, { toolCalls: 1 }, CW), { ...testContext(WORLD), ancestors: deepest });
    expect(refusalOf(atLimit)).toMatchObject({ reason: 'ancestry-mismatch' });
  });
});
