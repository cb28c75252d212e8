/** The accepted `mission.assign_coordinator`, its Events stated whole (`kindCase.ts`). */

import { principalKey } from '../../../src/protocol/principal.js';
import { expectedMembership } from '../expectedEvents.js';
import { COORD, COORD2, OWNER, T0, at } from '../fixtures.js';
import { ID } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('mission.assign_coordinator', {
  actor: OWNER,
  payload: () => ({ coordinatorId: COORD2.id }),
  events: (s) => {
    const lease = { ...s.coordinatorLease, leaseId: `${ID}1`, holderAgentId: COORD2.id, coordinatorEpoch: 2, expiresAt: at(300) };
    const coordinator = s.memberships.get(principalKey(COORD));
    const payload = {
      previousCoordinatorId: COORD.id,
      coordinatorId: COORD2.id,
      coordinatorEpoch: 2,
      leaseExpiresAt: at(300),
      coordinatorLease: lease,
      previousCoordinatorLease: { ...s.coordinatorLease, state: 'revoked', closedAt: T0, closureReason: 'Replaced by Coordinator Epoch 2' },
      memberships: [{ ...coordinator, state: 'ended', membershipEpoch: 2, endedAt: T0 }, expectedMembership(`${ID}2`, COORD2, 'coordinator')],
      mission: { ...s.mission, revision: 2, coordinator: { agentId: COORD2.id, agentCardVersion: 3, coordinatorEpoch: 2, leaseId: `${ID}1` } },
    };
    return [{ kind: 'mission.coordinator.assigned', payload }];
  },
});
