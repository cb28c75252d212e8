/** The accepted `work.accept_result`, its Events stated whole (`kindCase.ts`). */

import { EXEC_SUBMITTED_EVIDENCE, execEvidence, execGiven } from '../execFixtures.js';
import { execLeases, expectedProgress, expectedWork } from '../expectedExecution.js';
import { COORD, REVIEWER, WORK } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('work.accept_result', {
  actor: COORD,
  given: () => execGiven({ state: 'submitted' }),
  payload: () => ({ workItemId: WORK, evidence: [execEvidence('urn:x:review', REVIEWER)] }),
  events: (s) => {
    const { ownership, ...rest } = execLeases(s);
    void ownership;
    const progress = expectedProgress('submitted', { nextCheckpoint: 'not reported', evidenceIds: [EXEC_SUBMITTED_EVIDENCE, 'urn:x:review'] });
    const workItem = expectedWork(s, { state: 'verified', progress }, rest);
    return [{ kind: 'work.result.accepted', payload: { workItemId: WORK, workItem, evidence: [execEvidence('urn:x:review', REVIEWER)] } }];
  },
});
