/**
 * Ending a Mission early (§7.1), shared by `mission.cancel` (`missionCancel.ts`), `mission.terminate`
 * (`missionTerminate.ts`) and a parent's failure settled from a child (`childMissionSettle.ts`).
 * Each is terminal and revokes the Coordinator lease, so no coordination Command is accepted
 * afterwards; the Mission's unfinished WorkItems end with it.
 */

import type { Lease, Mission } from '../documents.js';
import type { MissionClosedPayload } from '../groupEvents.js';
import { withEntry, type GroupState } from '../kinds/groupState.js';
import type { DecisionContext, EventDraft } from '../model.js';
import { endWorkItem } from '../workItem/executionSteps.js';
import { cleanupDue, withCleanupDue } from '../workItem/workCleanup.js';
import { workItemDocument, workRecordOf, type WorkRecord } from '../workItem/workRecord.js';

/** WorkItem states a closing Mission leaves as they are. */
const FINISHED: ReadonlySet<string> = new Set(['verified', 'failed', 'cancelled']);

function revoke(lease: Lease, closureReason: string, ctx: DecisionContext): Lease {
  return { ...lease, state: 'revoked', closedAt: ctx.now, closureReason };
}

export interface Closing<K extends string> {
  readonly kind: K;
  readonly state: Mission['state'];
  readonly closureReason: string;
}

/** The closing Event of the Mission of `state`, failing or cancelling its unfinished WorkItems. */
export function closingEvent<K extends string>(state: GroupState, reason: string, outcome: Closing<K>, ctx: DecisionContext): EventDraft<K, MissionClosedPayload> {
  const mission: Mission = { ...state.mission, state: outcome.state, revision: state.mission.revision + 1 };
  // A terminal Mission takes its unfinished WorkItems with it (§10.2, last row), revoking their
  // leases and withdrawing their pending offers (§12).
  const workState: WorkRecord['state'] = outcome.state === 'cancelled' ? 'cancelled' : 'failed';
  const workItems = [...state.workItems.values()]
    .filter((w) => !FINISHED.has(w.state))
    .map((w): WorkRecord => {
      // §12: cancellation or emergency termination initiates cleanup where needed; each ended
      // WorkItem carries the mark `work.cancel` leaves (`workCleanup.ts`), read by a follow-up's Coordinator.
      const ended = endWorkItem(w, workState, outcome.closureReason, ctx).workItem;
      const due = cleanupDue(w);
      return due === undefined ? ended : withCleanupDue(ended, due);
    });
  return {
    kind: outcome.kind,
    payload: { reason, mission, coordinatorLease: revoke(state.coordinatorLease, outcome.closureReason, ctx), workItems: workItems.map(workItemDocument) },
    aggregate: { type: 'mission', id: mission.missionId, revision: mission.revision },
  };
}

export const TERMINATED = { kind: 'mission.terminated', state: 'failed', closureReason: 'Mission failed' } as const;
/** A closing Event: the Mission, its revoked lease, the WorkItems it closed, and why it ended. */
export function withClosedMission(state: GroupState, { reason, mission, coordinatorLease, workItems }: MissionClosedPayload): GroupState {
  let items = state.workItems;
  for (const item of workItems) items = withEntry(items, item.workItemId, workRecordOf(item));
  return { ...state, mission, coordinatorLease, workItems: items, missionNotes: { ...state.missionNotes, closureReason: reason } };
}
