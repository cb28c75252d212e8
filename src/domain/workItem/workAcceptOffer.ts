/** `work.accept_offer` (§10.2, §10.3): the first valid acceptance wins a new Ownership Epoch. */

import { defineKind } from '../kinds/kindTypes.js';
import { decideAcceptOffer } from './acceptOffer.js';
import { workItemEvent, type WorkOfferAcceptedPayload } from './workEvents.js';

export const workOfferAccepted = workItemEvent<WorkOfferAcceptedPayload>()('work.offer.accepted');

export const workAcceptOffer = defineKind({
  kind: 'work.accept_offer',
  scope: 'group',
  authority: ['member'],
  missionStates: ['active'],
  events: [workOfferAccepted],
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideAcceptOffer,
});
