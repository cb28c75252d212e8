/** The accepted `work.propose`, its Events stated whole (`kindCase.ts`). */

import { GROUP, MISSION, T0, WORKER, CONTRACT } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('work.propose', {
  actor: WORKER,
  payload: () => ({ proposalId: 'urn:x:p1', contract: CONTRACT }),
  events: () => [
    {
      kind: 'work.proposed',
      payload: {
        proposal: { proposalId: 'urn:x:p1', missionId: MISSION, groupId: GROUP, proposer: WORKER, contract: CONTRACT, dependencyIds: [], state: 'open', proposedAt: T0, revision: 1 },
      },
    },
  ],
});
