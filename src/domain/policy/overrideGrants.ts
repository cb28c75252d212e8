/**
 * Cooperation Override Grants (§20): durable, one-shot, exactly matching permission for one
 * target Command to pass one cooperation limit. The document is the reference runtime's
 * (`cooperationOverrideGrant` in `policy.cooperation_override.granted`); Group state keeps every
 * grant of the Group by ID, consumed ones included, so that a second use is refused by what it
 * finds rather than by what it no longer finds.
 */

import { samePrincipal, type Principal } from '../../protocol/principal.js';
import { refuse, type CommandEnvelope, type Refusal } from '../model.js';
import type { CooperationPolicy } from './cooperationLimits.js';
import { timestampMillis } from './rateWindows.js';
import { POLICY_REASONS } from './policyReasons.js';

export interface CooperationOverrideGrant {
  readonly id: string;
  readonly missionId: string;
  readonly groupId: string;
  readonly policyName: CooperationPolicy;
  readonly beneficiary: Principal;
  readonly targetCommandKind: string;
  readonly targetActionId: string;
  readonly approver: Principal;
  readonly reason: string;
  readonly grantedAt: string;
  readonly expiresAt: string;
  /** The issuing Command's signature value: the approver's signed consent. */
  readonly signature: string;
  /** Set together when the target transition is accepted (one-shot). */
  readonly consumedAt?: string;
  readonly consumedEventId?: string;
}

/** The row revision: 1 when granted, 2 once consumed. */
export function grantRevision(grant: CooperationOverrideGrant): number {
  return grant.consumedEventId === undefined ? 1 : 2;
}

/** Which Command kinds each policy limits: a grant for any other kind could never be used. */
export const POLICY_TARGETS: Readonly<Record<CooperationPolicy, readonly string[]>> = {
  message_rate: ['message.post'],
  proposal_rate: ['work.propose'],
  delegation_depth: ['mission.create_child', 'membership.grant_delegation', 'work.authorize', 'work.offer'],
  queued_work_items: ['work.accept_offer'],
  active_work_items: ['work.accept_offer', 'work.start'],
  unresolved_clarifications: ['work.block'],
  duplicate_decomposition: ['work.propose', 'work.authorize', 'mission.create_child'],
};

function mismatch(reason: string, message: string, grantId: string): Refusal {
  return refuse('AUTH_FORBIDDEN', reason, message, { cooperationOverrideGrantId: grantId });
}

/**
 * Judges the grant `command` cites against the limit it exceeded: it exists, is neither consumed
 * nor lapsed, and matches the Command's Mission, Group, actor, kind, Action ID and the exceeded
 * policy exactly (§20). A grant that does not fit is refused as the actor's lack of permission.
 */
export function checkGrantFits(
  grants: ReadonlyMap<string, CooperationOverrideGrant>,
  scope: { readonly missionId: string; readonly groupId: string },
  command: CommandEnvelope,
  policy: CooperationPolicy,
  nowMillis: number,
): Refusal | null {
  const grantId = command.cooperationOverrideGrantId as string;
  const grant = grants.get(grantId);
  if (grant === undefined) return mismatch(POLICY_REASONS.grantUnknown, 'no such Cooperation Override Grant in this Group', grantId);
  if (grant.consumedEventId !== undefined) {
    return refuse('AUTH_FORBIDDEN', POLICY_REASONS.grantConsumed, 'the Cooperation Override Grant was already used', { cooperationOverrideGrantId: grantId, consumedEventId: grant.consumedEventId });
  }
  if (timestampMillis(grant.expiresAt) <= nowMillis) return mismatch(POLICY_REASONS.grantExpired, 'the Cooperation Override Grant has lapsed', grantId);
  if (grant.missionId !== scope.missionId || grant.groupId !== scope.groupId) return mismatch(POLICY_REASONS.grantOtherMission, 'the Cooperation Override Grant belongs to another Mission or Group', grantId);
  if (!samePrincipal(grant.beneficiary, command.actor)) return mismatch(POLICY_REASONS.grantOtherBeneficiary, 'the Cooperation Override Grant is for another Principal', grantId);
  if (grant.targetCommandKind !== command.kind) return mismatch(POLICY_REASONS.grantOtherKind, 'the Cooperation Override Grant targets another Command kind', grantId);
  if (grant.targetActionId !== command.actionId) return mismatch(POLICY_REASONS.grantOtherAction, 'the Cooperation Override Grant targets another Action ID', grantId);
  if (grant.policyName !== policy) return mismatch(POLICY_REASONS.grantOtherPolicy, 'the Cooperation Override Grant is for another cooperation policy', grantId);
  return null;
}
