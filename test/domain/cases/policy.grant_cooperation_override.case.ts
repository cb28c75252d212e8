/** The accepted `policy.grant_cooperation_override`, its Events stated whole (`kindCase.ts`). */

import { GROUP, MISSION, OWNER, T0, WORKER, at } from '../fixtures.js';
import { defineCase } from './kindCase.js';

/** A Cooperation Override Grant letting the Worker post one Message past the rate limit (§20). */
export const GRANT_PAYLOAD = {
  grantId: 'urn:x:grant',
  policyName: 'message_rate',
  beneficiary: WORKER,
  targetCommandKind: 'message.post',
  targetActionId: 'urn:x:target',
  reason: 'incident bridge',
  expiresAt: at(3600),
};

/** The grant `GRANT_PAYLOAD` issues when the MissionOwner sends it at T0. */
export function expectedGrant(extra: object = {}) {
  const { grantId, ...rest } = GRANT_PAYLOAD;
  return { id: grantId, missionId: MISSION, groupId: GROUP, ...rest, approver: OWNER, grantedAt: T0, signature: 'A'.repeat(86), ...extra };
}

export const CASE = defineCase('policy.grant_cooperation_override', {
  actor: OWNER,
  payload: () => GRANT_PAYLOAD,
  events: () => [{ kind: 'policy.cooperation_override.granted', payload: { cooperationOverrideGrant: expectedGrant() } }],
});
