/** The accepted `ext.missionweaveprotocol.core.work_execution_lease_renew`, its Events stated whole (`kindCase.ts`). */

import { expectedRenewed, leasesIn } from '../expectedOwnership.js';
import { T0, WORK, WORKER, activeWork } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('ext.missionweaveprotocol.core.work_execution_lease_renew', {
  actor: WORKER,
  given: activeWork,
  payload: (s) => ({ workItemId: WORK, ownershipEpoch: 1, executionLeaseId: (leasesIn(s)['execution'] as { leaseId?: string } | undefined)?.leaseId ?? 'urn:x:no-lease' }),
  events: (s) => [expectedRenewed(s, 300, T0)],
});
