/** `mission.renew_coordinator` (§7.2): the Coordinator extends its live lease under its current epoch. */

import type { CoordinatorRenewedPayload } from '../groupEvents.js';
import { leaseRevision } from './missionSlice.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideRenewCoordinator } from './coordinator.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workAddressees } from '../workItem/workAddressees.js';

export const missionCoordinatorRenewed = defineEvent<CoordinatorRenewedPayload>()({
  kind: 'mission.coordinator.renewed',
  addressees: workAddressees,
  evolve: (state, { coordinatorLease }) => ({ ...state, coordinatorLease }),
});

export const missionRenewCoordinator = defineKind({
  kind: 'mission.renew_coordinator',
  examples: MISSION_EXAMPLES['mission.renew_coordinator'],
  scope: 'group',
  authority: ['coordinator'],
  events: [missionCoordinatorRenewed],
  target: (state) => leaseRevision(state.coordinatorLease),
  decide: decideRenewCoordinator,
});
