/**
 * The rules a signed Group Snapshot must meet before it archives its Group (§7.4, §15.2: the
 * archival facts are emitted "after its signed snapshot and policy-log linkage validate"). The
 * app verified its signature against `createdBy` (§6.4); here it is judged against the Group it
 * claims to summarize, as the store holds it (`ctx.groupHistory`):
 *
 * - signed by this Group Authority, for this Group (a snapshot by anyone else is not final);
 * - through the Group's current head, naming exactly its Event IDs in sequence order, with the
 *   state hash of its stored aggregates (stale or forged is refused, never archived);
 * - created no earlier than its last Event and no later than the acceptance time;
 * - its Policy Log linked: every entry the Authority's; each but the last cites a protected audit
 *   record of this Group by entry ID, with that record's §19 code (§6.4); the last records the
 *   issuance itself, at `createdAt`, under an ID no audit record has.
 */

import { samePrincipal } from '../../protocol/principal.js';
import type { CommandOf } from '../kinds/kindTypes.js';
import { refuse, type DecisionContext, type GroupHistory, type Refusal } from '../model.js';
import { isNoLaterThan } from '../rules.js';
import type { GroupState } from '../kinds/groupState.js';
import { GROUP_REASONS } from './groupReasons.js';

export const GROUP_ARCHIVE = 'ext.missionweaveprotocol.core.group_archive';

export type Snapshot = CommandOf<typeof GROUP_ARCHIVE>['payload']['snapshot'];

function invalid(reason: string, message: string): Refusal {
  return refuse('INVALID_COMMAND', reason, message);
}

/** The history the snapshot must match, or the refusal when the store moved on under it. */
function currentHistory(state: GroupState, snapshot: Snapshot, ctx: DecisionContext): GroupHistory | Refusal {
  const history = ctx.groupHistory?.(state.groupId);
  // A Command earlier in the same batch appended to the Group: the history read before it is stale.
  if (history === undefined || history.eventIds.length !== state.lastSequence) {
    return refuse('REVISION_CONFLICT', GROUP_REASONS.groupHistoryMoved, 'the Group changed while the snapshot was judged; build a new one');
  }
  if (snapshot.throughSequence !== state.lastSequence) {
    return refuse('REVISION_CONFLICT', GROUP_REASONS.snapshotNotAtHead, 'the snapshot does not reach the Group’s current sequence', {
      throughSequence: snapshot.throughSequence,
      currentSequence: state.lastSequence,
    });
  }
  return history;
}

function checkContents(snapshot: Snapshot, history: GroupHistory, ctx: DecisionContext): Refusal | null {
  const ids = snapshot.eventIds;
  if (ids.length !== history.eventIds.length || ids.some((id, i) => id !== history.eventIds[i])) {
    return invalid(GROUP_REASONS.snapshotEventIdsMismatch, 'the snapshot does not name the Group’s Events in sequence order');
  }
  if (snapshot.stateHash !== history.stateHash) {
    return invalid(GROUP_REASONS.snapshotStateHashMismatch, 'the snapshot’s state hash is not the hash of the Group’s stored state');
  }
  if (!isNoLaterThan(history.lastOccurredAt, snapshot.createdAt) || !isNoLaterThan(snapshot.createdAt, ctx.now)) {
    return invalid(GROUP_REASONS.snapshotTime, 'the snapshot must be created after its last Event and before the archival');
  }
  return null;
}

function checkPolicyLog(snapshot: Snapshot, history: GroupHistory, ctx: DecisionContext): Refusal | null {
  const entries = snapshot.policyLog;
  const seen = new Set<string>();
  const unlinked = invalid(GROUP_REASONS.snapshotPolicyLogUnlinked, 'the snapshot’s Policy Log does not link to this Group’s audit records');
  for (const [i, entry] of entries.entries()) {
    if (!samePrincipal(entry.actor, ctx.services.authority) || seen.has(entry.entryId)) return unlinked;
    seen.add(entry.entryId);
    const code = history.policyLog.get(entry.entryId);
    if (i === entries.length - 1) {
      if (code !== undefined || entry.occurredAt !== snapshot.createdAt) return unlinked;
    } else if (code === undefined || (entry.details as { code?: unknown }).code !== code) {
      return unlinked;
    }
  }
  return null;
}

/** `null` when the snapshot may archive the Group, else the refusal. */
export function checkArchiveSnapshot(state: GroupState, snapshot: Snapshot, ctx: DecisionContext): Refusal | null {
  if (!samePrincipal(snapshot.createdBy, ctx.services.authority)) {
    return refuse('AUTH_FORBIDDEN', GROUP_REASONS.snapshotNotByAuthority, 'only this Group Authority’s snapshot archives a Group');
  }
  if (snapshot.groupId !== state.groupId) return invalid(GROUP_REASONS.snapshotOtherGroup, 'the snapshot belongs to another Group');
  const history = currentHistory(state, snapshot, ctx);
  if ('ok' in history) return history;
  return checkContents(snapshot, history, ctx) ?? checkPolicyLog(snapshot, history, ctx);
}
