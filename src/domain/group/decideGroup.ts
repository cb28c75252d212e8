/**
 * The Group decider: judges one Command against one Group's state. The checks every kind shares
 * run here, once, from the kind's registry entry, in this order: who the actor is in the Group
 * (Membership, or an authorized service), what the envelope points at, whether the Mission is
 * over, the kind's authority, the Mission state it needs, `expectedRevision`; then the kind's own
 * rules. Identity comes first so that nothing about a Group leaks to a non-member.
 */

import { refuse, type CommandEnvelope, type Decision, type DecisionContext } from '../model.js';
import { rulesOf, type GroupKindRules, type NewGroupKindRules } from './commands.js';
import {
  checkAuthority,
  checkEnvelopeTargets,
  checkExpectedRevision,
  checkMembership,
  checkMissionState,
  checkNotTerminal,
  checkService,
} from './commonChecks.js';
import type { GroupState } from './groupState.js';

/** Founding a Group: a human, no Membership yet, nothing to revise. */
function decideCreation(
  rules: NewGroupKindRules,
  state: GroupState | null,
  command: CommandEnvelope,
  ctx: DecisionContext,
): Decision {
  if (command.actor.type !== 'human') {
    return refuse('AUTH_FORBIDDEN', 'creator-not-human', 'only a human founds a Mission this way');
  }
  return (
    checkEnvelopeTargets(rules, state, command) ??
    checkExpectedRevision(rules.target(state, command), command) ??
    rules.decide(state, command, ctx)
  );
}

function decideInGroup(rules: GroupKindRules, state: GroupState, command: CommandEnvelope, ctx: DecisionContext): Decision {
  const identity = command.actor.type === 'service' ? checkService(rules, command, ctx) : checkMembership(rules, state, command);
  return (
    identity ??
    checkEnvelopeTargets(rules, state, command) ??
    checkNotTerminal(state) ??
    checkAuthority(rules, state, command, ctx) ??
    checkMissionState(rules, state) ??
    checkExpectedRevision(rules.target(state, command), command) ??
    rules.decide(state, command, ctx)
  );
}

/**
 * Decides a Group-scoped Command. `state` is `null` when the Group does not exist: only the
 * creation kinds accept that, and they accept nothing else.
 */
export function decideGroupCommand(state: GroupState | null, command: CommandEnvelope, ctx: DecisionContext): Decision {
  const rules = rulesOf(command.kind);
  if (rules === undefined) {
    return refuse('INVALID_COMMAND', 'kind-not-supported', `the Group Authority does not accept ${command.kind} yet`);
  }
  switch (rules.scope) {
    case 'new-group':
      return decideCreation(rules, state, command, ctx);
    case 'group':
      return state === null
        ? refuse('GROUP_NOT_FOUND', 'group-not-found', 'no such Group')
        : decideInGroup(rules, state, command, ctx);
    default: {
      const _exhaustive: never = rules;
      return _exhaustive;
    }
  }
}
