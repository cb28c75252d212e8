/**
 * `ext.missionweave.core.child_mission_settle` (our extension, §10.2, §14): the Group Authority
 * records a terminal child Mission's outcome on the parent WorkItem, in the parent Group. A sweep
 * (`src/app/reactor/childSweeps.ts`) finds the unsettled links; the decider reads the child from
 * the store and refuses anything already settled, so every node may issue it at once.
 *
 * The Events are the core WorkItem facts a parent Coordinator already follows (§15.2).
 */

import { defineKind, type CommandOf } from '../kinds/kindTypes.js';
import { missionTerminated } from './missionTerminate.js';
import type { Lease } from '../documents.js';
import type { MissionClosedPayload } from '../groupEvents.js';
import { withEntry, type GroupState } from '../kinds/groupState.js';
import { closingEvent, TERMINATED } from './closeMission.js';
import { accept, refuse, type Decision, type DecisionContext, type EventDraft, type MissionFacts, type Refusal } from '../model.js';
import { checkWorkState, isRefusal } from '../workItem/fencing.js';
import type { WorkBlockedPayload, WorkFailedPayload, WorkResultAcceptedPayload } from '../workItem/workEvents.js';
import { linksOf, withLinks, type ChildMissionLink, type ChildOutcome } from '../workItem/workItemDocuments.js';
import { closeLease, leasesOf, withAllClosed, withLeases } from '../workItem/workLeases.js';
import { MISSION_REASONS } from './missionReasons.js';

/**
 * Settling a terminal child Mission on its parent WorkItem (§10.2 "linked child Mission approval /
 * failure", §14). The Group Authority issues `ext.missionweave.core.child_mission_settle` in the
 * parent Group; the child's outcome comes from the store (the preloaded Mission facts), never from
 * the payload, so a stale or repeated Command can only be refused. Approval makes the WorkItem
 * `verified` with the child's Approval as Evidence; failure follows the declared failure policy;
 * cancellation leaves it `blocked` for the Coordinator to replan, since a cancelled child was
 * ended by its owner, the Parent Coordinator itself, or by policy, and is no failure of the work.
 */

type SettleCommand = CommandOf<'ext.missionweave.core.child_mission_settle'>;

/** What every settlement Event says about the child besides the WorkItem. */
export interface ChildSettlement {
  readonly childMissionId: string;
  readonly childGroupId: string;
  readonly outcome: ChildOutcome;
}

export type ChildApprovedPayload = WorkResultAcceptedPayload &
  ChildSettlement & { readonly childApprovalId: string; readonly releasedOwnershipLease?: Lease };
export type ChildBlockedPayload = WorkBlockedPayload & ChildSettlement & { readonly releasedOwnershipLease?: Lease };
export type ChildFailedPayload = WorkFailedPayload & ChildSettlement;

export type SettleDraft =
  | EventDraft<'work.result.accepted', ChildApprovedPayload>
  | EventDraft<'work.blocked', ChildBlockedPayload>
  | EventDraft<'work.failed', ChildFailedPayload>
  | EventDraft<'mission.terminated', MissionClosedPayload>;

/** Longest failure reason a blocker line quotes (the schema allows 2,000 characters per blocker). */
const BLOCKER_REASON_CHARS = 1_500;

interface Linked {
  readonly workItem: WorkRecord;
  readonly link: ChildMissionLink;
  readonly child: MissionFacts;
}

/** The parent WorkItem, its unsettled link to the named child, and the child as the store holds it. */
function linkedChild(state: GroupState, command: SettleCommand, ctx: DecisionContext): Linked | Refusal {
  const { parentWorkItemId, childMissionId } = command.payload;
  const workItem = state.workItems.get(parentWorkItemId);
  if (workItem === undefined) return refuse('INVALID_COMMAND', MISSION_REASONS.workItemUnknown, 'the WorkItem is not in this Group', { workItemId: parentWorkItemId });
  const link = linksOf(workItem).childMission;
  const child = ctx.mission(childMissionId);
  const linked =
    link !== undefined && link.missionId === childMissionId && child !== undefined && child.groupId === link.groupId &&
    child.parent?.missionId === state.mission.missionId && child.parent.workItemId === parentWorkItemId;
  if (!linked) return refuse('INVALID_COMMAND', MISSION_REASONS.childMissionNotLinked, 'the WorkItem is not promoted to that child Mission', { childMissionId });
  if (link.outcome !== undefined) return refuse('INVALID_STATE_TRANSITION', MISSION_REASONS.childMissionSettled, 'the child Mission is already settled', { childMissionId });
  // The WorkItem let the child go when it failed or was cancelled: its outcome decides nothing here.
  if (link.released !== undefined) return refuse('INVALID_STATE_TRANSITION', MISSION_REASONS.childMissionReleased, 'the WorkItem released the child Mission when it ended', { childMissionId });
  const wrongState = checkWorkState(workItem, ['blocked'], 'take a child Mission outcome');
  return wrongState ?? { workItem, link, child };
}

function settlement(link: ChildMissionLink, outcome: ChildOutcome): ChildSettlement {
  return { childMissionId: link.missionId, childGroupId: link.groupId, outcome };
}

function draftFor<K extends string, P>(kind: K, workItem: WorkRecord, payload: P): EventDraft<K, P> {
  return { kind, payload, aggregate: { type: 'work-item', id: workItem.workItemId, revision: workItem.revision }, workItemId: workItem.workItemId };
}

/** The child's Approval becomes the parent WorkItem's Evidence and Artifacts (§14). */
function approved({ workItem, link, child }: Linked, ctx: DecisionContext): Decision<SettleDraft> {
  const approval = child.approval;
  if (approval === undefined) return refuse('INVALID_STATE_TRANSITION', MISSION_REASONS.childApprovalMissing, 'the approved child Mission has no recorded Approval');
  const outcome: ChildOutcome = { state: 'approved', settledAt: ctx.now, approvalId: approval.approvalId };
  const before = leasesOf(workItem);
  const leases = withAllClosed(before, 'released', 'child Mission approved', ctx);
  const verified: WorkRecord = {
    ...withLeases(workItem, leases),
    revision: workItem.revision + 1,
    state: 'verified',
    submission: { artifactHashes: approval.artifactHashes, evidenceIds: [approval.approvalId], submittedAt: ctx.now },
    ...(workItem.progress === undefined ? {} : { progress: { ...workItem.progress, currentPhase: 'verified', blockers: [], evidenceIds: [approval.approvalId] } }),
    updatedAt: ctx.now,
  };
  const settled = withLinks(verified, { ...linksOf(workItem), childMission: { ...link, outcome } });
  const evidence = [{ kind: 'child_mission_approval', childMissionId: link.missionId, approvalId: approval.approvalId, artifactHashes: approval.artifactHashes }];
  return accept(
    draftFor('work.result.accepted', settled, {
      workItemId: settled.workItemId,
      workItem: workItemDocument(settled),
      evidence,
      childApprovalId: approval.approvalId,
      ...(before.ownership === undefined ? {} : { releasedOwnershipLease: closeLease(before.ownership, 'released', 'child Mission approved', ctx) }),
      ...settlement(link, outcome),
    }),
  );
}

/** The parent WorkItem stays `blocked`, its blocker now the child's structured end (§11.4, §14). */
function stillBlocked({ workItem, link }: Linked, outcome: ChildOutcome, ctx: DecisionContext): Decision<SettleDraft> {
  const reason = `child Mission ${link.missionId} ${outcome.state}: ${outcome.reason ?? ''}`.slice(0, BLOCKER_REASON_CHARS);
  const leases = leasesOf(workItem);
  const progress = workItem.progress;
  // The Parent Coordinator held the WorkItem only for the child: its blocked lease is released so
  // that the WorkItem has no live owner and may be offered again, or promoted to a replacement.
  const released = leases.ownership === undefined ? undefined : closeLease(leases.ownership, 'released', `child Mission ${outcome.state}`, ctx);
  const blocked: WorkRecord = {
    ...withLeases(workItem, withAllClosed(leases, 'released', `child Mission ${outcome.state}`, ctx)),
    revision: workItem.revision + 1,
    ...(progress === undefined ? {} : { progress: { ...progress, currentPhase: 'child_mission_ended', nextCheckpoint: 'Coordinator replans', blockers: [reason] } }),
    updatedAt: ctx.now,
  };
  const settled = withLinks(blocked, { ...linksOf(workItem), childMission: { ...link, outcome } });
  return accept(
    draftFor('work.blocked', settled, {
      workItemId: settled.workItemId,
      workItem: workItemDocument(settled),
      reason,
      checkpoint: leases.checkpoint ?? { phase: 'child_mission_ended', createdAt: ctx.now },
      blockedLeaseExpiresAt: ctx.now,
      // The same instant under the reference runtime's member name, which its agents read.
      ownershipLeaseExpiresAt: ctx.now,
      ...(released === undefined ? {} : { releasedOwnershipLease: released }),
      ...settlement(link, outcome),
    }),
  );
}

/** The parent WorkItem fails with the child's failure as Evidence; with `fail_parent_mission` so does the Mission. */
function failed(state: GroupState, { workItem, link }: Linked, outcome: ChildOutcome, ctx: DecisionContext): Decision<SettleDraft> {
  const reason = `child Mission ${link.missionId} failed: ${outcome.reason ?? ''}`;
  const leases = leasesOf(workItem);
  const revokedLeases = [leases.ownership, leases.execution].flatMap((l) => (l === undefined ? [] : [closeLease(l, 'revoked', reason, ctx)]));
  const failedItem: WorkRecord = {
    ...withLeases(workItem, withAllClosed(leases, 'revoked', reason, ctx)),
    revision: workItem.revision + 1,
    state: 'failed',
    updatedAt: ctx.now,
  };
  const settled = withLinks(failedItem, { ...linksOf(workItem), childMission: { ...link, outcome } });
  const evidence = [{ kind: 'child_mission_failure', childMissionId: link.missionId, state: outcome.state, reason: outcome.reason ?? '' }];
  const workFailed = draftFor('work.failed', settled, { workItemId: settled.workItemId, workItem: workItemDocument(settled), reason, evidence, revokedLeases, ...settlement(link, outcome) });
  if (link.failurePolicy !== 'fail_parent_mission') return accept<SettleDraft>(workFailed);
  // "Failure propagates automatically only when the parent completion policy declares that
  // child indispensable" (§14): the declared policy says so; the Mission fails after its WorkItem.
  const after: GroupState = { ...state, workItems: withEntry(state.workItems, settled.workItemId, settled) };
  return accept<SettleDraft>(workFailed, closingEvent(after, reason, TERMINATED, ctx));
}

export function decideChildSettle(state: GroupState, command: SettleCommand, ctx: DecisionContext): Decision<SettleDraft> {
  const linked = linkedChild(state, command, ctx);
  if (isRefusal(linked)) return linked;
  const { child, link } = linked;
  const ended = (s: 'failed' | 'cancelled'): ChildOutcome => ({ state: s, settledAt: ctx.now, reason: child.closureReason ?? `child Mission ${s}` });
  switch (child.state) {
    case 'approved':
      return approved(linked, ctx);
    case 'cancelled':
      return stillBlocked(linked, ended('cancelled'), ctx);
    case 'failed':
      return link.failurePolicy === 'block_parent_work_item' ? stillBlocked(linked, ended('failed'), ctx) : failed(state, linked, ended('failed'), ctx);
    default:
      return refuse('INVALID_STATE_TRANSITION', MISSION_REASONS.childMissionRunning, `the child Mission is ${child.state}`, { childMissionId: child.missionId });
  }
}

// The Event types of the kinds that own them: one definition per Event kind.
import { workResultAccepted } from '../workItem/workAcceptResult.js';
import { workBlocked } from '../workItem/workBlock.js';
import { workFailed } from '../workItem/workFail.js';
import { MISSION_EXAMPLES } from './missionExamples.js';
import { workItemDocument, type WorkRecord } from '../workItem/workRecord.js';

export const childMissionSettle = defineKind({
  kind: 'ext.missionweave.core.child_mission_settle',
  examples: MISSION_EXAMPLES['ext.missionweave.core.child_mission_settle'],
  scope: 'group',
  authority: ['organization-authority'],
  events: [workResultAccepted, workBlocked, workFailed, missionTerminated],
  preload: { missions: (command) => [command.payload.childMissionId] },
  target: (state, command) => state.workItems.get(command.payload.parentWorkItemId)?.revision,
  workItemOf: (_state, command) => command.payload.parentWorkItemId,
  decide: decideChildSettle,
});
