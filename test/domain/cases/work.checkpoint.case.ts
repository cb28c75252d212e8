/** The accepted `work.checkpoint`, its Events stated whole (`kindCase.ts`). */

import { execGiven, EXEC_CHECKPOINT, EXEC_LEASED } from '../execFixtures.js';
import { expectedCheckpointed } from '../expectedExecution.js';
import { WORKER } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('work.checkpoint', {
  actor: WORKER,
  given: () => execGiven({ state: 'active' }),
  payload: () => ({ ...EXEC_LEASED, checkpoint: EXEC_CHECKPOINT }),
  events: (s) => [expectedCheckpointed(s, EXEC_CHECKPOINT)],
});
