/** The accepted `mission.create_child`, its Events stated whole (`kindCase.ts`). */

import { expectedPromotion } from '../expectedEvents.js';
import { COORD } from '../fixtures.js';
import { CHILD_PAYLOAD } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('mission.create_child', {
  actor: COORD,
  payload: () => CHILD_PAYLOAD,
  events: (s) => expectedPromotion(s, CHILD_PAYLOAD),
});
