/** The accepted `mission.approve`, its Events stated whole (`kindCase.ts`). */

import type { GroupState } from '../../../src/domain/kinds/groupState.js';
import { HASH_A, HASH_B, OWNER, T0, approvalPayload } from '../fixtures.js';
import { defineCase } from './kindCase.js';

function approval(s: GroupState) {
  return approvalPayload(s, { approvalId: 'urn:x:approval', artifactHashes: [HASH_A, HASH_B] });
}

export const CASE = defineCase('mission.approve', {
  actor: OWNER,
  submitted: true,
  payload: approval,
  events: (s) => [
    {
      kind: 'mission.approved',
      payload: {
        approval: approval(s)['approval'] as object,
        mission: { ...s.mission, state: 'approved', revision: 3 },
        coordinatorLease: { ...s.coordinatorLease, state: 'released', closedAt: T0, closureReason: 'Mission approved' },
      },
    },
  ],
});
