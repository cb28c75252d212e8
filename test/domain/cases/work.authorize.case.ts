/** The accepted `work.authorize`, its Events stated whole (`kindCase.ts`). */

import { expectedAuthorized } from '../expectedEvents.js';
import { COORD, CONTRACT } from '../fixtures.js';
import { ID } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('work.authorize', {
  actor: COORD,
  payload: () => ({ workItemId: 'urn:x:w2', contract: CONTRACT }),
  events: () => [expectedAuthorized('urn:x:w2', `${ID}1`)],
});
