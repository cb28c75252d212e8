/** The accepted `work.submit`, its Events stated whole (`kindCase.ts`). */

import { EXEC_EPOCH, execEvidence, execGiven, EXEC_LEASED } from '../execFixtures.js';
import { execClosed, execLeases, expectedProgress, expectedWork } from '../expectedExecution.js';
import { HASH_A, T0, WORK, WORKER } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('work.submit', {
  actor: WORKER,
  given: () => execGiven({ state: 'active' }),
  payload: () => ({ ...EXEC_LEASED, artifactHashes: [HASH_A], evidence: [execEvidence('urn:x:ev')] }),
  events: (s) => {
    const leases = execLeases(s);
    const released = execClosed(leases['execution'], 'released', 'submitted');
    const { execution, ...rest } = leases;
    void execution;
    const change = {
      state: 'submitted',
      submission: { artifactHashes: [HASH_A], evidenceIds: ['urn:x:ev'], submittedAt: T0 },
      progress: expectedProgress('active', { nextCheckpoint: 'not reported', evidenceIds: ['urn:x:ev'] }),
    };
    const workItem = expectedWork(s, change, { ...rest, closed: [...(leases['closed'] as object[]), released] });
    const payload = { workItemId: WORK, workItem, ownershipEpoch: EXEC_EPOCH, artifactHashes: [HASH_A], evidence: [execEvidence('urn:x:ev')], releasedExecutionLease: released };
    return [{ kind: 'work.submitted', payload }];
  },
});
