/** `mission.assign_coordinator` (§7.2): the MissionOwner or policy appoints a Coordinator under the next epoch. */

import { principalKey } from '../../protocol/principal.js';
import type { CoordinatorAssignedPayload } from '../groupEvents.js';
import { withEntry } from '../kinds/groupState.js';
import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { decideAssignCoordinator } from './coordinator.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workAddressees } from '../workItem/workAddressees.js';

export const missionCoordinatorAssigned = defineEvent<CoordinatorAssignedPayload>()({
  kind: 'mission.coordinator.assigned',
  addressees: workAddressees,
  changesMembership: true,
  evolve: (state, payload) => {
    const memberships = new Map(state.memberships);
    for (const m of payload.memberships) memberships.set(principalKey(m.member), m);
    const previous = payload.previousCoordinatorLease;
    return {
      ...state,
      mission: payload.mission,
      coordinatorLease: payload.coordinatorLease,
      formerCoordinatorLeases: withEntry(state.formerCoordinatorLeases, previous.leaseId, previous),
      memberships,
    };
  },
});

export const missionAssignCoordinator = defineKind({
  kind: 'mission.assign_coordinator',
  examples: MISSION_EXAMPLES['mission.assign_coordinator'],
  scope: 'group',
  authority: ['mission-owner', 'organization-authority'],
  events: [missionCoordinatorAssigned],
  preload: { agents: (command) => [command.payload.coordinatorId] },
  target: (state) => state.mission.revision,
  decide: decideAssignCoordinator,
});
