/**
 * The Events of the cooperation controls (§20): a grant issued, a grant consumed with its target
 * transition, and the soft-threshold notice to the Coordinator. The last two are ours
 * (`ext.missionweave.core.*`): the Authority emits them inside the decision of the Command that
 * consumed the grant or crossed the threshold, so they commit, or not, with it.
 */

import { withEntry } from '../kinds/groupState.js';
import { defineEvent } from '../kinds/kindTypes.js';
import type { Principal } from '../../protocol/principal.js';
import type { CooperationPolicy } from './cooperationLimits.js';
import type { CooperationOverrideGrant } from './overrideGrants.js';
import { THRESHOLD_NOTICE_KIND, markNoticed, rateKey, timestampMillis } from './rateWindows.js';

export interface CooperationOverrideGrantedPayload {
  readonly cooperationOverrideGrant: CooperationOverrideGrant;
}

export interface CooperationOverrideConsumedPayload {
  readonly grantId: string;
  readonly policyName: CooperationPolicy;
  readonly targetCommandKind: string;
  readonly targetActionId: string;
  /** The accepted target Event the grant was consumed by (§20). */
  readonly consumedEventId: string;
  readonly consumedAt: string;
}

export interface CooperationThresholdReachedPayload {
  readonly policyName: CooperationPolicy;
  readonly principal: Principal;
  readonly count: number;
  readonly softThreshold: number;
  readonly limit: number;
  /**
   * For a rate: when the window in which the count was reached ends; no second notice before it.
   * Absent for a count of open work (`unresolved_clarifications`): that notice is given by the
   * Command that raises the count to the threshold, so it repeats only after the count fell.
   */
  readonly windowEndsAt?: string;
}

export const COOPERATION_OVERRIDE_CONSUMED = 'ext.missionweave.core.cooperation_override_consumed';
export const COOPERATION_THRESHOLD_REACHED = THRESHOLD_NOTICE_KIND;

export const cooperationOverrideGranted = defineEvent<CooperationOverrideGrantedPayload>()({
  kind: 'policy.cooperation_override.granted',
  evolve: (state, { cooperationOverrideGrant: grant }) => ({ ...state, cooperationGrants: withEntry(state.cooperationGrants, grant.id, grant) }),
});

export const cooperationOverrideConsumed = defineEvent<CooperationOverrideConsumedPayload>()({
  kind: COOPERATION_OVERRIDE_CONSUMED,
  evolve: (state, { grantId, consumedEventId, consumedAt }) => {
    const grant = state.cooperationGrants.get(grantId);
    if (grant === undefined) throw new Error(`consumption of unknown Cooperation Override Grant ${grantId}`);
    return { ...state, cooperationGrants: withEntry(state.cooperationGrants, grantId, { ...grant, consumedAt, consumedEventId }) };
  },
});

export const cooperationThresholdReached = defineEvent<CooperationThresholdReachedPayload>()({
  kind: COOPERATION_THRESHOLD_REACHED,
  evolve: (state, { policyName, principal, windowEndsAt }) =>
    windowEndsAt === undefined ? state : { ...state, rateWindows: markNoticed(state.rateWindows, rateKey(policyName, principal), timestampMillis(windowEndsAt)) },
});
