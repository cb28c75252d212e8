/** The accepted `artifact.publish`, its Events stated whole (`kindCase.ts`). */

import { EXEC_EPOCH, EXEC_RUN_LEASE, execManifest, execGiven } from '../execFixtures.js';
import { HASH_A, WORK, WORKER, HASH_C } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('artifact.publish', {
  actor: WORKER,
  given: () => execGiven({ state: 'active' }),
  payload: () => ({ artifact: execManifest(HASH_C, { sourceArtifactHashes: [HASH_A] }), ownershipEpoch: EXEC_EPOCH, executionLeaseId: EXEC_RUN_LEASE }),
  events: () => [
    {
      kind: 'artifact.published',
      payload: { artifact: execManifest(HASH_C, { sourceArtifactHashes: [HASH_A] }), workItemId: WORK, ownershipEpoch: EXEC_EPOCH, executionLeaseId: EXEC_RUN_LEASE },
      aggregate: { type: 'artifact', id: HASH_C, revision: 1 },
    },
  ],
});
