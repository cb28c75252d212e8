/** The accepted `work.start`, its Events stated whole (`kindCase.ts`). */

import { expectedStarted, executionLease } from '../expectedOwnership.js';
import { WORK, WORKER, queuedWork } from '../fixtures.js';
import { ID } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('work.start', {
  actor: WORKER,
  given: queuedWork,
  payload: () => ({ workItemId: WORK, ownershipEpoch: 1 }),
  events: (s) => [expectedStarted(s, executionLease({ leaseId: `${ID}1`, holder: WORKER, ownershipEpoch: 1, seconds: 300 }))],
});
