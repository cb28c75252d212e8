/** The accepted `work.accept_offer`, its Events stated whole (`kindCase.ts`). */

import { expectedAccepted } from '../expectedOwnership.js';
import { WORK, WORKER, history, steps, busyGroup } from '../fixtures.js';
import { ID } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('work.accept_offer', {
  actor: WORKER,
  given: () => history([steps.offer([WORKER])], busyGroup()),
  payload: () => ({ workItemId: WORK }),
  events: (s) => [expectedAccepted(s, WORKER, `${ID}1`)],
});
