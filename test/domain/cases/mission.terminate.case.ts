/** The accepted `mission.terminate`, its Events stated whole (`kindCase.ts`). */

import { COORD } from '../fixtures.js';
import { closed } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('mission.terminate', {
  actor: COORD,
  payload: () => ({ reason: 'Impossible.' }),
  events: (s) => closed(s, 'mission.terminated', 'Impossible.', 'failed', 'failed', 'Mission failed'),
});
