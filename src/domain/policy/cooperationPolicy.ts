/**
 * Which cooperation limit (§20) a Command would pass, judged on the state before it: Message and
 * proposal rates per Agent per Group, child-Mission depth (§14), delegation depth under a Grant
 * (§9.1, `delegationDepth.ts`), queued and active WorkItems per Worker, unresolved clarification
 * rounds and duplicate decomposition (`decompositionLimits.ts`).
 * Also when a rate-counted Command first reaches the soft threshold of its window.
 */

import { formatTimestamp } from '../../protocol/timestamp.js';
import type { GroupState } from '../kinds/groupState.js';
import type { CommandEnvelope, DecisionContext } from '../model.js';
import { DEFAULT_COOPERATION_LIMITS, RATE_WINDOW_MS, softThreshold, type CooperationLimits, type CooperationPolicy, type ExceededLimit } from './cooperationLimits.js';
import { clarificationCrossing, clarificationLimit, duplicateDecomposition } from './decompositionLimits.js';
import { delegationDepthLimit } from './delegationDepth.js';
import { isRateLimited, liveTimes, rateKey, resetsAt } from './rateWindows.js';

export type { ExceededLimit };

export interface ThresholdCrossing {
  readonly policy: CooperationPolicy;
  readonly count: number;
  readonly softThreshold: number;
  readonly limit: number;
  /** Absent for a count of open work (no window). */
  readonly windowEndsAt?: string;
}

function limitsOf(ctx: DecisionContext): CooperationLimits {
  return ctx.cooperationLimits ?? DEFAULT_COOPERATION_LIMITS;
}

/** The rate policy a kind counts against, and its limit. */
function ratePolicyOf(kind: string, limits: CooperationLimits): { policy: CooperationPolicy; limit: number } | undefined {
  if (kind === 'message.post') return { policy: 'message_rate', limit: limits.messagesPerWindow };
  if (kind === 'work.propose') return { policy: 'proposal_rate', limit: limits.proposalsPerWindow };
  return undefined;
}

function countOwned(state: GroupState, agentId: string, workState: 'queued' | 'active'): number {
  let count = 0;
  for (const item of state.workItems.values()) if (item.state === workState && item.owner?.agentId === agentId) count += 1;
  return count;
}

function workLimit(state: GroupState, command: CommandEnvelope, limits: CooperationLimits): ExceededLimit | null {
  const agentId = command.actor.id;
  const active = countOwned(state, agentId, 'active');
  if (command.kind === 'work.accept_offer') {
    const queued = countOwned(state, agentId, 'queued') + 1;
    if (queued > limits.maxQueuedWorkItems) return { policy: 'queued_work_items', limit: limits.maxQueuedWorkItems, observed: queued };
    // Accepting queues the work; a Worker already over its active limit takes no more.
    if (active > limits.maxActiveWorkItems) return { policy: 'active_work_items', limit: limits.maxActiveWorkItems, observed: active };
  }
  if (command.kind === 'work.start' && active + 1 > limits.maxActiveWorkItems) {
    return { policy: 'active_work_items', limit: limits.maxActiveWorkItems, observed: active + 1 };
  }
  return null;
}

/** The limit `command` would pass, or `null`. Services (the Authority) are never limited. */
export function exceededLimit(state: GroupState, command: CommandEnvelope, ctx: DecisionContext): ExceededLimit | null {
  if (command.actor.type === 'service') return null;
  const limits = limitsOf(ctx);
  const rate = ratePolicyOf(command.kind, limits);
  if (rate !== undefined && isRateLimited(command.actor)) {
    const times = liveTimes(state.rateWindows.get(rateKey(rate.policy, command.actor)), ctx.nowMillis);
    if (times.length >= rate.limit) {
      const reset = resetsAt(times);
      return { policy: rate.policy, limit: rate.limit, observed: times.length + 1, ...(reset === undefined ? {} : { resetsAt: formatTimestamp(reset) }) };
    }
  }
  if (command.kind === 'mission.create_child') {
    const depth = (state.mission.parent?.depth ?? 0) + 1;
    if (depth > limits.maxMissionDepth) return { policy: 'delegation_depth', limit: limits.maxMissionDepth, observed: depth };
  }
  return delegationDepthLimit(state, command, limits) ?? workLimit(state, command, limits) ?? clarificationLimit(state, command, limits) ?? duplicateDecomposition(state, command, limits);
}

/**
 * The soft threshold this accepted rate-counted Command reaches, if it is the first to reach it
 * in the current window of its actor: the Coordinator hears once per window, not per Message.
 */
export function thresholdCrossing(state: GroupState, command: CommandEnvelope, ctx: DecisionContext): ThresholdCrossing | null {
  const open = clarificationCrossing(state, command, limitsOf(ctx));
  if (open !== null) return open;
  const rate = ratePolicyOf(command.kind, limitsOf(ctx));
  if (rate === undefined || !isRateLimited(command.actor)) return null;
  const window = state.rateWindows.get(rateKey(rate.policy, command.actor));
  const times = liveTimes(window, ctx.nowMillis);
  const soft = softThreshold(rate.limit);
  const count = times.length + 1;
  if (count < soft || (window?.noticedUntil !== undefined && window.noticedUntil > ctx.nowMillis)) return null;
  const windowEnds = (times[0] ?? ctx.nowMillis) + RATE_WINDOW_MS;
  return { policy: rate.policy, count, softThreshold: soft, limit: rate.limit, windowEndsAt: formatTimestamp(windowEnds) };
}
