/**
 * The Group decider: judges one Command against one Group's state. The checks every kind shares
 * run here, once, from the kind's registry entry, in this order: who the actor is in the Group
 * (Membership, or an authorized service), what the envelope points at, whether the Group is
 * archived or the Mission over, the kind's authority, the Mission state it needs, the Extension
 * Profile pins a profile Command needs (§18, `profilePins.ts`), `expectedRevision`, a replacement
 * Coordinator's Context Package for its assignments (§7.2); then the kind's own
 * rules — through the offline reconciliation (§11.5) when the Command carries the bounded offline
 * execution binding, and under the cooperation limits (§20, `policy/applyCooperationPolicy.ts`). Identity comes first so that nothing about a Group leaks to a non-member. Extension
 * Profile kinds are entries like any other, so these checks run before any profile code (§18).
 */

import type { KindRegistry } from './kinds/kindRegistry.js';
import type { AnyEventType, AnyGroupKind, GroupKind, NewGroupKind } from './kinds/kindTypes.js';
import { refuse, type CommandEnvelope, type Decision, type DecisionContext } from './model.js';
import {
  checkAuthority,
  checkCoordinatorContext,
  checkEnvelopeTargets,
  checkExpectedRevision,
  checkMembership,
  checkMissionState,
  checkNotArchived,
  checkNotTerminal,
  checkService,
} from './group/commonChecks.js';
import { decideWithOfflineBinding } from './workItem/reconcileOffline.js';
import { decideUnderCooperationPolicy } from './policy/applyCooperationPolicy.js';
import type { GroupState } from './kinds/groupState.js';
import { checkProfilePins } from './group/profilePins.js';
import { COMMON_REASONS } from './commonReasons.js';

// An entry is looked up by the Command's own kind, whose payload passed that kind's schema: the
// generic envelope is the kind's typed Command.
type Entry<T> = T extends 'group' ? GroupKind<string, CommandEnvelope, AnyEventType> : NewGroupKind<string, CommandEnvelope, AnyEventType>;

/** Founding a Group: a human, no Membership yet, nothing to revise. */
function decideCreation(kind: Entry<'new-group'>, state: GroupState | null, command: CommandEnvelope, ctx: DecisionContext): Decision {
  if (command.actor.type !== 'human') {
    return refuse('AUTH_FORBIDDEN', COMMON_REASONS.creatorNotHuman, 'only a human founds a Mission this way');
  }
  return (
    checkEnvelopeTargets(kind, state, command) ??
    checkExpectedRevision(kind.target(state, command), command) ??
    kind.decide(state, command, ctx)
  );
}

function decideInGroup(kinds: KindRegistry, kind: Entry<'group'>, state: GroupState, command: CommandEnvelope, ctx: DecisionContext): Decision {
  const identity = command.actor.type === 'service' ? checkService(kind, command, ctx) : checkMembership(kind, state, command, ctx);
  return (
    identity ??
    checkEnvelopeTargets(kind, state, command) ??
    checkNotArchived(state) ??
    checkNotTerminal(kind, state) ??
    checkAuthority(kind, state, command, ctx) ??
    checkMissionState(kind, state) ??
    checkProfilePins(kinds, state, command) ??
    checkExpectedRevision(kind.target(state, command), command) ??
    checkCoordinatorContext(kind, state, command, ctx) ??
    decideUnderCooperationPolicy(() => decideWithOfflineBinding((s, c, x) => kind.decide(s, c, x), state, command, ctx), state, command, ctx)
  );
}

/**
 * Decides a Group-scoped Command with the kinds of `kinds`. `state` is `null` when the Group does
 * not exist: only the creation kinds accept that, and they accept nothing else.
 */
export function decideWithKinds(kinds: KindRegistry, state: GroupState | null, command: CommandEnvelope, ctx: DecisionContext): Decision {
  const entry: AnyGroupKind | undefined = kinds.groupKind(command.kind);
  if (entry === undefined) {
    return refuse('INVALID_COMMAND', COMMON_REASONS.kindNotSupported, `the Group Authority does not accept ${command.kind} yet`);
  }
  switch (entry.scope) {
    case 'new-group':
      return decideCreation(entry, state, command, ctx);
    case 'group':
      return state === null ? refuse('GROUP_NOT_FOUND', COMMON_REASONS.groupNotFound, 'no such Group') : decideInGroup(kinds, entry, state, command, ctx);
    default: {
      const _exhaustive: never = entry;
      return _exhaustive;
    }
  }
}
