/**
 * The checks every Group Command passes before its kind's own rules (docs/transitions.md,
 * "Checks inside the Group decider"), driven by the kind's entry in the Command registry. Each
 * returns the refusal, or `null` when the Command passes.
 */

import { samePrincipal } from '../../protocol/principal.js';
import { refuse, type CommandEnvelope, type Decision, type DecisionContext } from '../model.js';
import type { AnyEventType, Authority, GroupKind, NewGroupKind } from '../kinds/kindTypes.js';
import { GROUP_REASONS } from './groupReasons.js';

type GroupKindRules = GroupKind<string, CommandEnvelope, AnyEventType>;
type KindRules = GroupKindRules | NewGroupKind<string, CommandEnvelope, AnyEventType>;
import { ownedAncestor } from './ancestorOwners.js';
import type { GroupState } from '../kinds/groupState.js';
import { checkCoordinatorLease, holdsCoordinatorLease, isMissionOwner, isTerminal, membershipOf } from '../stateQueries.js';

/**
 * Agents and humans act through an active Membership of the current epoch. A Group the actor
 * never belonged to answers exactly like a missing Group — unless the kind admits the human owner
 * of an ancestor Mission (§14), who acts under its Membership in that ancestor's Group, epoch and all.
 */
export function checkMembership(rules: GroupKindRules, state: GroupState, command: CommandEnvelope, ctx: DecisionContext): Decision | null {
  const membership = membershipOf(state, command.actor);
  const ancestor = membership?.state === 'active' || !rules.authority.includes('ancestor-owner') ? undefined : ownedAncestor(ctx, command.actor);
  if (ancestor !== undefined) {
    if (command.membershipEpoch === ancestor.membership.membershipEpoch) return null;
    return refuse('MEMBERSHIP_STALE', GROUP_REASONS.membershipEpochStale, 'the Membership Epoch is no longer current', { groupId: ancestor.state.groupId });
  }
  if (membership === undefined) return refuse('GROUP_NOT_FOUND', GROUP_REASONS.groupNotFound, 'no such Group');
  // A replaced Coordinator's delayed Command carries the epoch it held: it is fenced as stale
  // coordination (§7.2) before its ended Membership is looked at.
  const epoch = command.coordinatorEpoch;
  if (rules.authority.includes('coordinator') && epoch !== undefined && epoch < state.mission.coordinator.coordinatorEpoch) {
    return refuse('AUTH_STALE_COORDINATOR', GROUP_REASONS.coordinatorEpochStale, 'the Coordinator Epoch is no longer current');
  }
  if (membership.state !== 'active') {
    return refuse('MEMBERSHIP_REQUIRED', `membership-${membership.state}`, 'an active Membership is required');
  }
  if (command.membershipEpoch !== membership.membershipEpoch) {
    return refuse('MEMBERSHIP_STALE', GROUP_REASONS.membershipEpochStale, 'the Membership Epoch is no longer current');
  }
  return null;
}

/** Organization services carry no Membership; only the Group Authority acts, and only where listed. */
export function checkService(rules: KindRules, command: CommandEnvelope, ctx: DecisionContext): Decision | null {
  const allowed = rules.authority.includes('organization-authority') && samePrincipal(command.actor, ctx.services.authority);
  return allowed ? null : refuse('AUTH_FORBIDDEN', GROUP_REASONS.serviceNotAuthorized, 'this service may not send this Command');
}

type Pointer<S> = (state: S, command: CommandEnvelope) => string | undefined;

/** An envelope `conversationId` / `workItemId` must name what the payload acts on. */
export function checkEnvelopeTargets<S>(
  rules: { readonly conversationOf?: Pointer<S>; readonly workItemOf?: Pointer<S> },
  state: S,
  command: CommandEnvelope,
): Decision | null {
  const pairs: [string | undefined, Pointer<S> | undefined, string][] = [
    [command.conversationId, rules.conversationOf, 'conversationId'],
    [command.workItemId, rules.workItemOf, 'workItemId'],
  ];
  for (const [envelope, pointer, member] of pairs) {
    if (envelope !== undefined && pointer?.(state, command) !== envelope) {
      return refuse('INVALID_COMMAND', GROUP_REASONS.envelopeTargetMismatch, `the envelope ${member} is not the one the payload acts on`);
    }
  }
  return null;
}

/**
 * An archived Group is closed for good (§7.4): every Command is refused, whoever sends it; its
 * history stays readable. A non-member learned nothing before this check.
 */
export function checkNotArchived(state: GroupState): Decision | null {
  if (state.group.state !== 'archived') return null;
  return refuse('INVALID_STATE_TRANSITION', GROUP_REASONS.groupArchived, 'the Group is archived');
}

/** A terminal Mission accepts only the kinds that list its state (archival, §7.4). */
export function checkNotTerminal(rules: GroupKindRules, state: GroupState): Decision | null {
  if (!isTerminal(state.mission) || rules.missionStates?.includes(state.mission.state) === true) return null;
  return refuse('INVALID_STATE_TRANSITION', GROUP_REASONS.missionTerminal, `the Mission is ${state.mission.state}`);
}

/** Grants the Command when any authority the kind lists applies to its actor. */
export function checkAuthority(
  rules: GroupKindRules,
  state: GroupState,
  command: CommandEnvelope,
  ctx: DecisionContext,
): Decision | null {
  const { actor } = command;
  const allows = (authority: Authority): boolean => rules.authority.includes(authority);
  // A service reaching here passed `checkService`.
  if (actor.type === 'service' || allows('member')) return null;
  if (allows('mission-owner') && isMissionOwner(state, actor)) return null;
  if (allows('ancestor-owner') && ownedAncestor(ctx, actor) !== undefined) return null;
  if (allows('subject') && rules.subject !== undefined && samePrincipal(actor, rules.subject(command))) return null;
  if (allows('coordinator') && holdsCoordinatorLease(state, actor)) return checkCoordinatorLease(state, command, ctx);
  if (allows('delegate') && actor.type === 'agent' && typeof command.payload.delegationGrantId === 'string') return null;
  return refuse('AUTH_FORBIDDEN', GROUP_REASONS.notAuthorized, 'the actor may not send this Command');
}

/**
 * A replacement Coordinator (Coordinator Epoch above 1) works from its Context Package (§7.2,
 * §13.3): its assignments wait until the package for its epoch is stored. The package is issued by
 * the Group Authority's reactor moments after the appointment, so the refusal is retryable
 * (BACKPRESSURE: the Authority cannot take this traffic yet, and an unchanged retry is safe and
 * succeeds once the package exists) and names what it waits for.
 */
export function checkCoordinatorContext(rules: KindRules, state: GroupState, command: CommandEnvelope, ctx: DecisionContext): Decision | null {
  const stored = ctx.coordinatorPackageStored;
  const { coordinatorEpoch, agentId } = state.mission.coordinator;
  if (rules.assigns !== true || stored === undefined || coordinatorEpoch <= 1 || !holdsCoordinatorLease(state, command.actor) || stored(coordinatorEpoch)) return null;
  return refuse(
    'BACKPRESSURE',
    GROUP_REASONS.contextPackagePending,
    `the Context Package of Coordinator ${agentId} for Coordinator Epoch ${coordinatorEpoch} is not stored yet; a replacement Coordinator assigns work only once it has it (§7.2): retry shortly`,
    { reason: 'context-package-pending', coordinatorId: agentId, coordinatorEpoch },
  );
}

export function checkMissionState(rules: GroupKindRules, state: GroupState): Decision | null {
  if (rules.missionStates === undefined || rules.missionStates.includes(state.mission.state)) return null;
  return refuse('INVALID_STATE_TRANSITION', GROUP_REASONS.missionState, `the Mission is ${state.mission.state}`);
}

export function checkExpectedRevision(current: number | undefined, command: CommandEnvelope): Decision | null {
  const expected = command.expectedRevision;
  if (expected === undefined || current === undefined || expected === current) return null;
  return refuse('REVISION_CONFLICT', GROUP_REASONS.revisionConflict, 'the aggregate changed since the expected revision', {
    expectedRevision: expected,
    currentRevision: current,
  });
}
