/** `work.offer` (§10.2, §10.3): durable expiring offers of a WorkItem with no live owner. */

import { defineEvent, defineKind } from '../kinds/kindTypes.js';
import { recordGrantUse } from './delegation.js';
import { decideWorkOffer } from './offerWork.js';
import { withWorkItem, type WorkOfferCreatedPayload } from './workEvents.js';

export const workOfferCreated = defineEvent<WorkOfferCreatedPayload>()({
  kind: 'work.offer.created',
  evolve: (state, payload) => {
    const next = withWorkItem(state, payload.workItem);
    // An offer under a Grant counts against its ceilings from now on (§9.1).
    return payload.delegationGrantId === undefined ? next : recordGrantUse(next, payload.delegationGrantId, payload.workItemId);
  },
});

export const workOffer = defineKind({
  kind: 'work.offer',
  scope: 'group',
  authority: ['coordinator', 'delegate'],
  // A replacement Coordinator's assignment waits for its Context Package (§7.2).
  assigns: true,
  missionStates: ['active'],
  events: [workOfferCreated],
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideWorkOffer,
});
