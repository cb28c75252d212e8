/** The accepted `work.block`, its Events stated whole (`kindCase.ts`). */

import { execGiven, EXEC_CHECKPOINT, EXEC_LEASED } from '../execFixtures.js';
import { expectedBlocked } from '../expectedExecution.js';
import { WORKER } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('work.block', {
  actor: WORKER,
  given: () => execGiven({ state: 'active' }),
  payload: () => ({ ...EXEC_LEASED, reason: 'needs DBA approval', checkpoint: EXEC_CHECKPOINT, blockedLeaseSeconds: 120 }),
  events: (s) => [expectedBlocked(s, 'needs DBA approval', EXEC_CHECKPOINT, 120)],
});
