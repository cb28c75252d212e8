/** `mission.renew_coordinator` (§7.2): the Coordinator extends its live lease under its current epoch. */

import type { Lease } from '../documents.js';
import type { CoordinatorRenewedPayload } from '../groupEvents.js';
import type { GroupState } from '../kinds/groupState.js';
import { leaseRevision } from './missionSlice.js';
import { defineEvent, defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { accept, type Decision, type DecisionContext, type EventDraft } from '../model.js';
import { DEFAULT_LEASE_SECONDS, nowPlusSeconds } from '../rules.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workAddressees } from '../workItem/workAddressees.js';

export function decideRenewCoordinator(
  state: GroupState,
  command: CommandOf<'mission.renew_coordinator'>,
  ctx: DecisionContext,
): Decision<EventDraft<'mission.coordinator.renewed', CoordinatorRenewedPayload>> {
  const { payload } = command;
  const current = state.coordinatorLease;
  const lease: Lease = {
    ...current,
    // The renewing Command proves which session now holds the lease.
    sessionEpoch: command.sessionEpoch ?? current.sessionEpoch,
    expiresAt: nowPlusSeconds(ctx, payload.leaseSeconds ?? DEFAULT_LEASE_SECONDS),
    renewalCount: current.renewalCount + 1,
    lastRenewedAt: ctx.now,
  };
  return accept({
    kind: 'mission.coordinator.renewed',
    payload: { coordinatorEpoch: state.mission.coordinator.coordinatorEpoch, leaseExpiresAt: lease.expiresAt, coordinatorLease: lease },
    aggregate: { type: 'coordinator-lease', id: lease.leaseId, revision: leaseRevision(lease) },
  });
}

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
