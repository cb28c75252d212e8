/** The accepted `work.offer`, its Events stated whole (`kindCase.ts`). */

import { expectedOffered, offerEntry } from '../expectedOwnership.js';
import { COORD, WORK, WORKER, at, SELECTION } from '../fixtures.js';
import { ID } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('work.offer', {
  actor: COORD,
  payload: () => ({ workItemId: WORK, candidateAgentIds: [WORKER.id], selectionBasis: SELECTION }),
  events: (s) => [expectedOffered(s, [WORKER], [offerEntry(`${ID}1`, WORKER, at(300))])],
});
