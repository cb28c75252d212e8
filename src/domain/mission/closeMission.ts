/**
 * Ending a Mission early (§7.1): `mission.cancel` (MissionOwner or Organization policy) and
 * `mission.terminate` (Coordinator or Organization policy). Both are terminal and revoke the
 * Coordinator lease, so no coordination Command is accepted afterwards.
 */

import type { Lease, Mission, WorkItem } from '../documents.js';
import type { MissionClosedPayload } from '../group/events.js';
import { withEntry, type GroupState } from '../group/groupState.js';
import type { CommandOf } from '../kinds/kindTypes.js';
import { accept, type Decision, type DecisionContext, type EventDraft } from '../model.js';
import { endWorkItem } from '../workItem/executionSteps.js';

/** WorkItem states a closing Mission leaves as they are. */
const FINISHED: ReadonlySet<string> = new Set(['verified', 'failed', 'cancelled']);

function revoke(lease: Lease, closureReason: string, ctx: DecisionContext): Lease {
  return { ...lease, state: 'revoked', closedAt: ctx.now, closureReason };
}

function close<K extends string>(
  state: GroupState,
  command: CommandOf<'mission.cancel'> | CommandOf<'mission.terminate'>,
  ctx: DecisionContext,
  outcome: { kind: K; state: Mission['state']; closureReason: string },
): Decision<EventDraft<K, MissionClosedPayload>> {
  const { reason } = command.payload;
  const mission: Mission = { ...state.mission, state: outcome.state, revision: state.mission.revision + 1 };
  // A terminal Mission takes its unfinished WorkItems with it (§10.2, last row), revoking their
  // leases and withdrawing their pending offers (§12).
  const workState: WorkItem['state'] = outcome.state === 'cancelled' ? 'cancelled' : 'failed';
  const workItems = [...state.workItems.values()]
    .filter((w) => !FINISHED.has(w.state))
    .map((w): WorkItem => endWorkItem(w, workState, outcome.closureReason, ctx).workItem);
  return accept({
    kind: outcome.kind,
    payload: { reason, mission, coordinatorLease: revoke(state.coordinatorLease, outcome.closureReason, ctx), workItems },
    aggregate: { type: 'mission', id: mission.missionId, revision: mission.revision },
  });
}

export function decideCancel(state: GroupState, command: CommandOf<'mission.cancel'>, ctx: DecisionContext) {
  return close(state, command, ctx, { kind: 'mission.cancelled', state: 'cancelled', closureReason: 'Mission cancelled' });
}

export function decideTerminate(state: GroupState, command: CommandOf<'mission.terminate'>, ctx: DecisionContext) {
  return close(state, command, ctx, { kind: 'mission.terminated', state: 'failed', closureReason: 'Mission failed' });
}

/** A closing Event: the Mission, its revoked lease and the WorkItems it closed. */
export function withClosedMission(state: GroupState, { mission, coordinatorLease, workItems }: MissionClosedPayload): GroupState {
  let items = state.workItems;
  for (const item of workItems) items = withEntry(items, item.workItemId, item);
  return { ...state, mission, coordinatorLease, workItems: items };
}
