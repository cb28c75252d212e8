/** The accepted `approval.grant_execution`, its Events stated whole (`kindCase.ts`). */

import { expectedApprovalGranted } from '../expectedApproval.js';
import { OWNER, WORK, WORKER, history, steps, busyGroup } from '../fixtures.js';
import { defineCase } from './kindCase.js';

const EXECUTION_APPROVAL_ID = 'urn:missionweave:approval:exec-1';

export const CASE = defineCase('approval.grant_execution', {
  actor: OWNER,
  given: () => history([steps.offer([WORKER]), steps.acceptOffer(WORKER)], busyGroup()),
  payload: () => ({ approvalId: EXECUTION_APPROVAL_ID, workItemId: WORK, ownershipEpoch: 1, operations: ['db.migrate'] }),
  events: (s) => [expectedApprovalGranted(s, { approvalId: EXECUTION_APPROVAL_ID })],
});
