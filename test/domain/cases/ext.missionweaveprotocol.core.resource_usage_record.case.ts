/** The accepted `ext.missionweaveprotocol.core.resource_usage_record`, its Events stated whole (`kindCase.ts`). */

import { RESOURCE_USAGE_EXTENSION } from '../../../src/domain/workItem/usageAccount.js';
import { leasesIn } from '../expectedOwnership.js';
import { workItemIn } from '../workDocuments.js';
import { MISSION, T0, WORK, WORKER, activeWork } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('ext.missionweaveprotocol.core.resource_usage_record', {
  actor: WORKER,
  given: activeWork,
  payload: (s) => ({ workItemId: WORK, ownershipEpoch: 1, executionLeaseId: (leasesIn(s)['execution'] as { leaseId?: string } | undefined)?.leaseId ?? 'urn:x:no-lease', usageDelta: { toolCalls: 1 } }),
  events: (state) => {
    // The runnable contract grants EUR 80, 300,000 tokens and 400 tool calls; the Mission EXAMPLE_BUDGET.
    const before = workItemIn(state);
    const usage = { financialMicrounits: 0, modelTokens: 0, toolCalls: 1, computeSeconds: 0, wallClockSeconds: 0, externalActions: 0 };
    const workItem = { ...before, revision: before.revision + 1, updatedAt: T0, extensions: { ...before.extensions, [RESOURCE_USAGE_EXTENSION]: { version: '0.1.0', critical: false, data: { usage } } } };
    return [{
      kind: 'ext.missionweaveprotocol.core.resource_usage_recorded',
      payload: {
        workItemId: WORK,
        workItem,
        ownershipEpoch: 1,
        executionLeaseId: (leasesIn(state)['execution'] as { leaseId: string }).leaseId,
        usageDelta: usage,
        cumulativeUsage: usage,
        remainingBudget: { financialMicrounits: 80_000_000, modelTokens: 300_000, toolCalls: 399 },
        missionUsage: {
          missionId: MISSION,
          cumulativeUsage: usage,
          remainingBudget: { financialMicrounits: 1_200_000_000, modelTokens: 4_000_000, toolCalls: 4_999, computeSeconds: 864_000, wallClockSeconds: 1_209_600 },
        },
      },
    }];
  },
});
