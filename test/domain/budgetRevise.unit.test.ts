/**
 * `ext.missionweave.core.budget_revise` (ours, §12): the explicit escalation after budget
 * exhaustion, given / when / then — the Coordinator revising a WorkItem's budget within its
 * Mission (lifting its pause), the MissionOwner the Mission's (never below usage or
 * allocations, resuming paused work), a child Mission's only within its parent WorkItem.
 */

import { describe, expect, it } from 'vitest';
import type { WorkItem } from '../../src/domain/documents.js';
import { decideGroupCommand } from '../support/coreDecider.js';
import { budgetPauseOf, usageOf, withBudgetPause } from '../../src/domain/workItem/usageAccount.js';
import { testContext } from '../support/specification.js';
import { COORD, OWNER, T0, WORK, WORKER, WORLD, command, groupSpec, history, stateOf } from './fixtures.js';
import { CW, MISSION_BUDGET, SMALL, activeWith, family, leaseIdOf, record, refusalOf } from './budgetFixtures.js';
import { BUDGET_REASONS } from '../../src/domain/budget/budgetReasons.js';
import { workItemIn } from './workDocuments.js';
import { workRecordOf } from '../../src/domain/workItem/workRecord.js';

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
              const before = workItemIn(s);
              const data = { usage: usageOf(s.workItems.get(WORK)!) };
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
    groupSpec.given(given).when(command(s, COORD, REVISE, { workItemId: WORK, budget: { ...SMALL, toolCallLimit: 9 }, reason: 'x' })).thenFails('BUDGET_EXCEEDED', BUDGET_REASONS.revisionBelowUsage);
    groupSpec.given(given).when(command(s, COORD, REVISE, { workItemId: WORK, budget: { ...SMALL, currency: 'USD' }, reason: 'x' })).thenFails('INVALID_COMMAND', BUDGET_REASONS.budgetCurrencyChange);
    groupSpec.given(given).when(command(s, COORD, REVISE, { budget: MISSION_BUDGET, reason: 'x' })).thenFails('AUTH_FORBIDDEN', BUDGET_REASONS.missionOwnerRequired);
    groupSpec.given(given).when(command(s, WORKER, REVISE, { workItemId: WORK, budget: SMALL, reason: 'x' })).thenFails('AUTH_FORBIDDEN', 'not-authorized');
  });

  it('lets the MissionOwner revise the Mission budget, never below what is allocated, and resumes work left something', () => {
    const given = spent();
    const s = stateOf(given);
    groupSpec.given(given).when(command(s, OWNER, REVISE, { budget: { ...MISSION_BUDGET, toolCallLimit: 9 }, reason: 'x' })).thenFails('BUDGET_EXCEEDED', BUDGET_REASONS.revisionBelowUsage);
    groupSpec.given(given).when(command(s, OWNER, REVISE, { budget: { ...MISSION_BUDGET, modelTokenLimit: 9 }, reason: 'x' })).thenFails('BUDGET_EXCEEDED', BUDGET_REASONS.revisionBelowAllocations);
    groupSpec.given(given).when(command(s, OWNER, REVISE, { workItemId: WORK, budget: SMALL, reason: 'x' })).thenFails('AUTH_FORBIDDEN', BUDGET_REASONS.coordinatorRequired);
    // A pause whose account has something again is lifted by the Mission's revision.
    const w1 = s.workItems.get(WORK)!;
    const paused = { ...s, workItems: new Map(s.workItems).set(WORK, { ...w1, contract: { ...w1.contract, budget: { ...SMALL, toolCallLimit: 20 } } }) };
    const decision = decideGroupCommand(paused, command(paused, OWNER, REVISE, { budget: MISSION_BUDGET, reason: 'x' }), testContext(WORLD));
    expect(decision.ok && (decision.events[0]?.payload as { resumedWorkItems: WorkItem[] }).resumedWorkItems.map((w) => [w.workItemId, budgetPauseOf(workRecordOf(w))])).toEqual([[WORK, undefined]]);
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

  it('resumes work paused by an ancestor account only once that account leaves something: the second step of the escalation', () => {
    const { parent, child } = family({ currency: 'EUR', financialLimit: 10, toolCallLimit: 10 }, { currency: 'EUR', financialLimit: 5, toolCallLimit: 10 });
    // The child's WorkItem is paused by the parent Group's w1, which has used all its 100 tool calls.
    const cw = child.workItems.get(CW)!;
    const pausedChild = { ...child, workItems: new Map(child.workItems).set(CW, withBudgetPause(cw, { dimension: 'toolCalls', accountId: WORK, since: T0 })) };
    const w1 = workItemIn(parent);
    const spentW1 = workRecordOf({ ...w1, extensions: { ...w1.extensions, 'urn:missionweave:extension:resource-usage': { version: '0.1.0', critical: false, data: { usage: { ...usageOf(parent.workItems.get(WORK)!), toolCalls: 100 } } } } });
    const exhausted = { ...parent, workItems: new Map(parent.workItems).set(WORK, spentW1) };
    const raised = { ...parent, workItems: new Map(parent.workItems).set(WORK, { ...spentW1, contract: { ...w1.contract, budget: { ...w1.contract.budget, toolCallLimit: 200 } } }) };
    const restate = command(pausedChild, COORD, REVISE, { budget: pausedChild.mission.budget, reason: 'the parent WorkItem was raised' });
    const resumed = (ancestor: typeof parent) => {
      const decision = decideGroupCommand(pausedChild, restate, { ...testContext(WORLD), ancestors: [ancestor] });
      if (!decision.ok) expect.fail(`${decision.error.code} ${decision.error.reason}`);
      return (decision.events[0]?.payload as { resumedWorkItems: WorkItem[] }).resumedWorkItems.map((w) => [w.workItemId, budgetPauseOf(workRecordOf(w))]);
    };
    // Restated while the ancestor is still spent: the pause stays.
    expect(resumed(exhausted)).toEqual([]);
    // After the ancestor's revision, restating the child Mission's budget resumes the work.
    expect(resumed(raised)).toEqual([[CW, undefined]]);
  });
});
