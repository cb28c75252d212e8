/**
 * `ext.missionweave.core.work_lease_close` (our own kind, docs/reference-differences.md): the
 * Group Authority closes an expired lease, or the Execution Lease of a replaced Session (§11.3),
 * through the ordinary pipeline. Only the Group Authority service sends it (its reactor,
 * src/app/reactor/); its rules are in `closeWorkLease.ts`.
 */

import { defineKind } from '../kinds/kindTypes.js';
import { decideWorkLeaseClose, WORK_LEASE_CLOSE, WORK_LEASE_CLOSED, type WorkLeaseClosedPayload } from './closeWorkLease.js';
import { workItemEvent } from './workEvents.js';

export const workLeaseClosed = workItemEvent<WorkLeaseClosedPayload>()(WORK_LEASE_CLOSED);

export const workLeaseClose = defineKind({
  kind: WORK_LEASE_CLOSE,
  scope: 'group',
  authority: ['organization-authority'],
  events: [workLeaseClosed],
  // The holder's current Session Epoch decides `session_replaced`.
  preload: { agents: (command) => [command.payload.holderAgentId] },
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideWorkLeaseClose,
});
