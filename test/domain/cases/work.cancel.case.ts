/** The accepted `work.cancel`, its Events stated whole (`kindCase.ts`). */

import { expectedEnded } from '../expectedExecution.js';
import { COORD, WORK } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('work.cancel', {
  actor: COORD,
  payload: () => ({ workItemId: WORK, reason: 'Out of scope.' }),
  events: (s) => [expectedEnded(s, 'work.cancelled', 'Out of scope.')],
});
