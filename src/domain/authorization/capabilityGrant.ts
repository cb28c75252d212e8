/**
 * `ext.missionweave.core.capability_grant` (our own kind, docs/reference-differences.md): the
 * Authorization Service records a capability token's grant (§12) through the ordinary pipeline.
 * Only the Group Authority service sends it, on a Worker's authenticated request
 * (src/app/authorization/); its rules are in `grantCapability.ts`.
 */

import { defineKind } from '../kinds/kindTypes.js';
import { workItemEvent } from '../workItem/workEvents.js';
import { CAPABILITY_GRANT, CAPABILITY_GRANTED, decideCapabilityGrant, type CapabilityGrantedPayload } from './grantCapability.js';

export const capabilityGranted = workItemEvent<CapabilityGrantedPayload>()(CAPABILITY_GRANTED);

export const capabilityGrant = defineKind({
  kind: CAPABILITY_GRANT,
  scope: 'group',
  authority: ['organization-authority'],
  missionStates: ['active'],
  events: [capabilityGranted],
  // The Agent's current Session Epoch decides whether the requesting Session is still current.
  preload: { agents: (command) => [command.payload.agentId] },
  // The token is capped by the whole WorkItem/Mission ancestry: its scope (§4.11, §14) and budget (§12).
  ancestry: true,
  target: (state, command) => state.workItems.get(command.payload.workItemId)?.revision,
  workItemOf: (_state, command) => command.payload.workItemId,
  decide: decideCapabilityGrant,
});
