/**
 * The cooperation check every Group Command passes (§20), around its kind's own decision: a
 * Command past a cooperation limit is `RATE_LIMITED` unless it cites a Cooperation Override
 * Grant that exactly fits; a fitting grant is consumed in the same decision, by an Event that
 * names the accepted target Event, so grant and target commit together or not at all. Citing a
 * grant when no limit is passed is refused (as the reference runtime does): a grant is not a
 * reusable exemption. A Command that first reaches a rate's soft threshold carries a notice to
 * the Coordinator with its own Events.
 */

import type { GroupState } from '../kinds/groupState.js';
import { accept, refuse, type CommandEnvelope, type Decision, type DecisionContext, type EventDraft } from '../model.js';
import { exceededLimit, thresholdCrossing, type ExceededLimit } from './cooperationPolicy.js';
import { checkGrantFits } from './overrideGrants.js';
import { COOPERATION_OVERRIDE_CONSUMED, COOPERATION_THRESHOLD_REACHED, type CooperationOverrideConsumedPayload, type CooperationThresholdReachedPayload } from './policyEvents.js';
import { POLICY_REASONS } from './policyReasons.js';

function rateLimited(exceeded: ExceededLimit): Decision {
  const { policy, limit, observed, resetsAt } = exceeded;
  return refuse('RATE_LIMITED', `${policy}-exceeded`, `the ${policy} limit (${limit}) is reached; retry later or cite a Cooperation Override Grant`, {
    policy,
    limit,
    observed,
    ...(resetsAt === undefined ? {} : { resetsAt }),
  });
}

function consumption(events: readonly EventDraft[], command: CommandEnvelope, exceeded: ExceededLimit, ctx: DecisionContext): EventDraft[] {
  const [first, ...rest] = events;
  if (first === undefined) throw new Error(`${command.kind} accepted with no Event`);
  const target = first.eventId === undefined ? { ...first, eventId: ctx.newId() } : first;
  const grantId = command.cooperationOverrideGrantId as string;
  const payload: CooperationOverrideConsumedPayload = {
    grantId,
    policyName: exceeded.policy,
    targetCommandKind: command.kind,
    targetActionId: command.actionId,
    consumedEventId: target.eventId as string,
    consumedAt: ctx.now,
  };
  const consumed: EventDraft = { kind: COOPERATION_OVERRIDE_CONSUMED, payload, aggregate: { type: 'cooperation-override-grant', id: grantId, revision: 2 } };
  return [target, ...rest, consumed];
}

function notice(state: GroupState, command: CommandEnvelope, ctx: DecisionContext): EventDraft | undefined {
  const crossing = thresholdCrossing(state, command, ctx);
  if (crossing === null) return undefined;
  const payload: CooperationThresholdReachedPayload = {
    policyName: crossing.policy,
    principal: command.actor,
    count: crossing.count,
    softThreshold: crossing.softThreshold,
    limit: crossing.limit,
    ...(crossing.windowEndsAt === undefined ? {} : { windowEndsAt: crossing.windowEndsAt }),
  };
  // The notice changes no protocol aggregate; it is about the Mission, at its current revision.
  return { kind: COOPERATION_THRESHOLD_REACHED, payload, aggregate: { type: 'mission', id: state.mission.missionId, revision: state.mission.revision } };
}

/** Runs `decide` under the cooperation limits of `state`'s Group. */
export function decideUnderCooperationPolicy(decide: () => Decision, state: GroupState, command: CommandEnvelope, ctx: DecisionContext): Decision {
  const exceeded = exceededLimit(state, command, ctx);
  const cited = command.cooperationOverrideGrantId !== undefined;
  if (exceeded !== null && !cited) return rateLimited(exceeded);
  if (exceeded === null && cited) {
    return refuse('INVALID_COMMAND', POLICY_REASONS.noLimitExceeded, 'the Command cites a Cooperation Override Grant but passes no cooperation limit');
  }
  if (exceeded !== null) {
    const misfit = checkGrantFits(state.cooperationGrants, { missionId: state.mission.missionId, groupId: state.groupId }, command, exceeded.policy, ctx.nowMillis);
    if (misfit !== null) return misfit;
  }
  const decision = decide();
  if (!decision.ok) return decision;
  if (exceeded !== null) return accept(...consumption(decision.events, command, exceeded, ctx));
  const extra = notice(state, command, ctx);
  return extra === undefined ? decision : accept(...decision.events, extra);
}
