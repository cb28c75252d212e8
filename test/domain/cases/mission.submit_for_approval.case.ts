/** The accepted `mission.submit_for_approval`, its Events stated whole (`kindCase.ts`). */

import { COORD, HASH_A, verifiedWorkHistory } from '../fixtures.js';
import { NO_SUPPORT } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('mission.submit_for_approval', {
  actor: COORD,
  // §7.3: submission needs every required WorkItem verified.
  given: (busy) => verifiedWorkHistory(busy),
  payload: () => ({ artifactHashes: [HASH_A] }),
  events: (s) => [
    {
      kind: 'mission.submitted_for_approval',
      payload: { missionRevision: 2, artifactHashes: [HASH_A], mission: { ...s.mission, state: 'awaiting_approval', revision: 2 }, definitionOfDoneSupport: NO_SUPPORT },
    },
  ],
});
