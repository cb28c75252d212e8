/**
 * `policy.grant_cooperation_override` (§20): the MissionOwner, or the Authority as Organization
 * policy actor, lets one named Command of one beneficiary pass one cooperation limit once.
 */

import { defineKind, type CommandOf } from '../kinds/kindTypes.js';
import type { GroupState } from '../kinds/groupState.js';
import { membershipOf } from '../stateQueries.js';
import { accept, refuse, type DecisionContext } from '../model.js';
import { isAfterNow, isNoLaterThan } from '../rules.js';
import { MAX_COOPERATION_GRANTS_PER_GROUP } from './cooperationLimits.js';
import { grantRevision, POLICY_TARGETS, type CooperationOverrideGrant } from './overrideGrants.js';
import { cooperationOverrideConsumed, cooperationOverrideGranted, cooperationThresholdReached } from './policyEvents.js';
import { POLICY_REASONS } from './policyReasons.js';
import { POLICY_EXAMPLES } from './policyExamples.js';

type GrantCommand = CommandOf<'policy.grant_cooperation_override'>;

function decideGrant(state: GroupState, command: GrantCommand, ctx: DecisionContext) {
  const { payload } = command;
  if (state.cooperationGrants.has(payload.grantId)) {
    return refuse('INVALID_COMMAND', POLICY_REASONS.grantIdTaken, 'a Cooperation Override Grant with this ID exists');
  }
  if (state.cooperationGrants.size >= MAX_COOPERATION_GRANTS_PER_GROUP) {
    return refuse('RATE_LIMITED', POLICY_REASONS.grantLimit, 'this Group holds the most Cooperation Override Grants it may', { limit: MAX_COOPERATION_GRANTS_PER_GROUP });
  }
  if (!POLICY_TARGETS[payload.policyName].includes(payload.targetCommandKind)) {
    return refuse('INVALID_COMMAND', POLICY_REASONS.policyNotForKind, `the ${payload.policyName} policy does not limit ${payload.targetCommandKind}`);
  }
  // A grant outliving its Mission could never be used; one already lapsed is a mistake.
  if (!isAfterNow(payload.expiresAt, ctx) || !isNoLaterThan(payload.expiresAt, state.mission.deadline)) {
    return refuse('INVALID_COMMAND', POLICY_REASONS.grantExpiryOutsideMission, 'the grant must expire after now and no later than the Mission deadline');
  }
  const beneficiary = membershipOf(state, payload.beneficiary);
  if (beneficiary === undefined || beneficiary.state === 'ended') {
    return refuse('INVALID_COMMAND', POLICY_REASONS.beneficiaryNotMember, 'the beneficiary holds no current Membership of this Group');
  }
  const grant: CooperationOverrideGrant = {
    id: payload.grantId,
    missionId: state.mission.missionId,
    groupId: state.groupId,
    policyName: payload.policyName,
    beneficiary: payload.beneficiary,
    targetCommandKind: payload.targetCommandKind,
    targetActionId: payload.targetActionId,
    approver: command.actor,
    reason: payload.reason,
    grantedAt: ctx.now,
    expiresAt: payload.expiresAt,
    signature: command.signature?.value ?? '',
  };
  return accept({
    kind: cooperationOverrideGranted.kind,
    payload: { cooperationOverrideGrant: grant },
    aggregate: { type: 'cooperation-override-grant', id: grant.id, revision: grantRevision(grant) },
  });
}

export const policyGrantCooperationOverride = defineKind({
  kind: 'policy.grant_cooperation_override',
  examples: POLICY_EXAMPLES['policy.grant_cooperation_override'],
  scope: 'group',
  authority: ['mission-owner', 'organization-authority'],
  // The consumption and the soft-threshold notice are emitted by the cooperation check
  // (`applyCooperationPolicy.ts`) with any kind's Events; they are registered here.
  events: [cooperationOverrideGranted, cooperationOverrideConsumed, cooperationThresholdReached],
  target: (state, command) => {
    const grant = state.cooperationGrants.get(command.payload.grantId);
    return grant === undefined ? 0 : grantRevision(grant);
  },
  decide: decideGrant,
});
