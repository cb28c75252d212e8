/** The accepted `ext.missionweaveprotocol.core.work_dependency_add`, its Events stated whole (`kindCase.ts`). */

import { COORD, T0, WORK, history, steps } from '../fixtures.js';
import { defineCase } from './kindCase.js';
import { workItemIn } from '../workDocuments.js';

export const CASE = defineCase('ext.missionweaveprotocol.core.work_dependency_add', {
  actor: COORD,
  given: (busy) => history([steps.authorize('urn:x:w0')], busy),
  payload: () => ({ workItemId: WORK, dependencyId: 'urn:x:w0' }),
  events: (s) => {
    const item = workItemIn(s, WORK);
    const contractVersion = item.contract.contractVersion + 1;
    const workItem = { ...item, contract: { ...item.contract, contractVersion, dependencyWorkItemIds: ['urn:x:w0'] }, revision: 2, updatedAt: T0 };
    return [{ kind: 'work.contract.revised', payload: { workItemId: WORK, workItem, contractVersion, dependencyId: 'urn:x:w0', revokedLeases: [] } }];
  },
});
