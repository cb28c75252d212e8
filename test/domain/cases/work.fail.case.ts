/** The accepted `work.fail`, its Events stated whole (`kindCase.ts`). */

import { execEvidence } from '../execFixtures.js';
import { expectedEnded, expectedProgress } from '../expectedExecution.js';
import { COORD, WORK } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('work.fail', {
  actor: COORD,
  payload: () => ({ workItemId: WORK, reason: 'Superseded.', evidence: [execEvidence('urn:x:failure', COORD, { type: 'failure_report', result: 'failed' })] }),
  events: (s) => [
    expectedEnded(s, 'work.failed', 'Superseded.', { evidence: [execEvidence('urn:x:failure', COORD, { type: 'failure_report', result: 'failed' })] }, {
      progress: expectedProgress('open', { nextCheckpoint: 'not reported', evidenceIds: ['urn:x:failure'] }),
    }),
  ],
});
