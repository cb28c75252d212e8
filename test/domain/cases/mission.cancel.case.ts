/** The accepted `mission.cancel`, its Events stated whole (`kindCase.ts`). */

import { OWNER } from '../fixtures.js';
import { closed } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('mission.cancel', {
  actor: OWNER,
  payload: () => ({ reason: 'Stop.' }),
  events: (s) => closed(s, 'mission.cancelled', 'Stop.', 'cancelled', 'cancelled', 'Mission cancelled'),
});
