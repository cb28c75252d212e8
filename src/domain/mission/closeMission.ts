/**
 * Ending a Mission early (§7.1): `mission.cancel` (MissionOwner or Organization policy) and
 * `mission.terminate` (Coordinator or Organization policy). Both are terminal and revoke the
 * Coordinator lease, so no coordination Command is accepted afterwards.
 */

import { fromJson, toJson, type Lease, type Mission, type WorkItem } from '../documents.js';
import type { GroupState } from '../group/groupState.js';
import { accept, type CommandEnvelope, type Decision, type DecisionContext } from '../model.js';

/** WorkItem states a closing Mission leaves as they are. */
const FINISHED: ReadonlySet<string> = new Set(['verified', 'failed', 'cancelled']);

interface ReasonPayload {
  readonly reason: string;
}

function revoke(lease: Lease, closureReason: string, ctx: DecisionContext): Lease {
  return { ...lease, state: 'revoked', closedAt: ctx.now, closureReason };
}

function close(
  state: GroupState,
  command: CommandEnvelope,
  ctx: DecisionContext,
  outcome: { kind: string; state: Mission['state']; closureReason: string },
): Decision {
  const { reason } = fromJson<ReasonPayload>(command.payload);
  const mission: Mission = { ...state.mission, state: outcome.state, revision: state.mission.revision + 1 };
  // A terminal Mission takes its unfinished WorkItems with it (§10.2, last row).
  const workState: WorkItem['state'] = outcome.state === 'cancelled' ? 'cancelled' : 'failed';
  const workItems = [...state.workItems.values()]
    .filter((w) => !FINISHED.has(w.state))
    .map((w): WorkItem => ({ ...w, state: workState, revision: w.revision + 1, updatedAt: ctx.now }));
  return accept({
    kind: outcome.kind,
    payload: toJson({ reason, mission, coordinatorLease: revoke(state.coordinatorLease, outcome.closureReason, ctx), workItems }),
    aggregate: { type: 'mission', id: mission.missionId, revision: mission.revision },
  });
}

export function decideCancel(state: GroupState, command: CommandEnvelope, ctx: DecisionContext): Decision {
  return close(state, command, ctx, { kind: 'mission.cancelled', state: 'cancelled', closureReason: 'Mission cancelled' });
}

export function decideTerminate(state: GroupState, command: CommandEnvelope, ctx: DecisionContext): Decision {
  return close(state, command, ctx, { kind: 'mission.terminated', state: 'failed', closureReason: 'Mission failed' });
}
