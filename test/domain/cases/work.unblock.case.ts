/** The accepted `work.unblock`, its Events stated whole (`kindCase.ts`). */

import { execGiven } from '../execFixtures.js';
import { execLeases, expectedProgress, expectedWork } from '../expectedExecution.js';
import { COORD, WORK } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('work.unblock', {
  actor: COORD,
  given: () => execGiven({ state: 'blocked' }),
  payload: () => ({ workItemId: WORK }),
  events: (s) => {
    const leases = execLeases(s);
    const ownership = { ...(leases['ownership'] as object), leaseType: 'ownership' };
    const workItem = expectedWork(s, { state: 'queued', progress: expectedProgress('blocked', { nextCheckpoint: 'not reported' }) }, { ...leases, ownership });
    return [{ kind: 'work.unblocked', payload: { workItemId: WORK, workItem, state: 'queued', status: 'queued' } }];
  },
});
