/** The accepted `mission.renew_coordinator`, its Events stated whole (`kindCase.ts`). */

import { COORD, T0, at } from '../fixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('mission.renew_coordinator', {
  actor: COORD,
  payload: () => ({}),
  events: (s) => [
    {
      kind: 'mission.coordinator.renewed',
      payload: { coordinatorEpoch: 1, leaseExpiresAt: at(300), coordinatorLease: { ...s.coordinatorLease, expiresAt: at(300), renewalCount: 1, lastRenewedAt: T0 } },
    },
  ],
});
