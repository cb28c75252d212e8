/**
 * A Group's current state as the console shows it (`GET /v1/groups/{g}/view`, "View shape" in
 * docs/human-api.md): the stored documents, sorted, plus the summaries a panel needs — each
 * WorkItem's leases, usage and pause, the Mission's budget per dimension, the revision and
 * Artifact set awaiting approval, and who is connected. Pure: the reader (`readerAccess.ts`)
 * loads the states and this node's presence.
 *
 * `visible` is what the viewer may see: the whole state, or for a Membership with limited
 * visibility the late joiner's view of `snapshotView.ts` (§8). Governing facts — the Group,
 * Mission, Coordinator lease, published Artifacts and the Mission's budget — come from `full`,
 * as a limited snapshot carries them too.
 */

import type { Membership } from '../../domain/documents.js';
import type { WorkRecord } from '../../domain/workItem/workRecord.js';
import { limitsOf, USAGE_DIMENSIONS, type ResourceUsage } from '../../domain/budgetMath.js';
import type { GroupState } from '../../domain/kinds/groupState.js';
import { leasesOf } from '../../domain/workItem/workLeases.js';
import { missionUsageOf } from '../../domain/workItem/resourceUsage.js';
import { budgetPauseOf, usageOf, type BudgetPause } from '../../domain/workItem/usageAccount.js';
import { linksOf } from '../../domain/workItem/workItemDocuments.js';
import type { Principal } from '../../protocol/principal.js';
import type { JsonObject } from '../../protocol/strictJson.js';

/** The viewer's `role` when it reads through an ancestor Mission it owns, holding no Membership here (§14). */
export const ANCESTOR_OWNER_ROLE = 'ancestor_mission_owner';

export interface ViewViewer {
  readonly principal: Principal;
  readonly membershipId: string;
  readonly role: string;
  readonly visibilityStartSequence: number;
  readonly limited: boolean;
  /** The ancestor Mission the viewer owns and reads through, with the Membership Epoch its Commands carry; else null. */
  readonly via: { readonly groupId: string; readonly missionId: string; readonly membershipEpoch: number } | null;
}

export interface PresenceLine {
  readonly agentId: string;
  readonly connected: boolean;
  readonly record: JsonObject | null;
}

/** What this node knows of an Agent's presence (§6.2: ephemeral, per node). */
export type PresenceOf = (agentId: string) => { readonly connected: boolean; readonly record: JsonObject | undefined };

export interface BudgetLine {
  readonly dimension: string;
  readonly limit: number;
  readonly used: number;
  readonly remaining: number;
  readonly currency: string | null;
}

function byKeys<T>(items: Iterable<T>, ...keys: ((item: T) => string)[]): T[] {
  return [...items].sort((a, b) => {
    for (const key of keys) {
      const order = key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
      if (order !== 0) return order;
    }
    return 0;
  });
}

function workItemLine(item: WorkRecord): JsonObject {
  const leases = leasesOf(item);
  const links = linksOf(item);
  const pause: BudgetPause | undefined = budgetPauseOf(item);
  const usage: ResourceUsage = usageOf(item);
  const line = {
    workItemId: item.workItemId,
    conversationId: item.conversationId,
    revision: item.revision,
    state: item.state,
    goal: item.contract.goal,
    deadline: item.contract.deadline,
    urgency: item.contract.requestedUrgency,
    exclusive: item.exclusive,
    owner: item.owner ?? null,
    ownershipLease: leases.ownership ?? null,
    executionLease: leases.execution ?? null,
    parentWorkItemId: links.parentWorkItemId ?? null,
    childMission: links.childMission === undefined ? null : { missionId: links.childMission.missionId, groupId: links.childMission.groupId },
    usage,
    budgetPause: pause ?? null,
    progress: item.progress ?? null,
    submission: item.submission ?? null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt ?? null,
    document: item,
  };
  // Documents of our own deciders, plain JSON data.
  return line as unknown as JsonObject;
}

function budgetLines(full: GroupState): BudgetLine[] {
  const limits = limitsOf(full.mission.budget);
  const used = missionUsageOf(full);
  const lines: BudgetLine[] = [];
  for (const dimension of USAGE_DIMENSIONS) {
    const limit = limits[dimension];
    if (limit === undefined) continue;
    const currency = dimension === 'financialMicrounits' ? (full.mission.budget.currency ?? null) : null;
    lines.push({ dimension, limit, used: used[dimension], remaining: Math.max(0, limit - used[dimension]), currency });
  }
  return lines;
}

function pendingApproval(full: GroupState): JsonObject | null {
  const submission = full.missionNotes.submission;
  if (full.mission.state !== 'awaiting_approval' || submission === undefined) return null;
  const artifacts = submission.artifactHashes.map((contentHash) => {
    const published = full.artifacts.get(contentHash);
    return {
      contentHash,
      published: published !== undefined,
      artifactId: published?.manifest.artifactId ?? null,
      mediaType: published?.manifest.mediaType ?? null,
      sizeBytes: published?.manifest.sizeBytes ?? null,
      workItemId: published?.workItemId ?? null,
    };
  });
  return { missionRevision: submission.missionRevision, submittedAt: submission.submittedAt, artifacts };
}

function presenceLines(full: GroupState, memberships: readonly Membership[], presenceOf: PresenceOf): PresenceLine[] {
  const agents = new Set(memberships.filter((m) => m.member.type === 'agent').map((m) => m.member.id));
  agents.add(full.mission.coordinator.agentId);
  return [...agents].sort().map((agentId) => {
    const known = presenceOf(agentId);
    return { agentId, connected: known.connected, record: known.record ?? null };
  });
}

/** The view of `visible` (and the governing facts of `full`) for `viewer`. */
export function groupViewOf(full: GroupState, visible: GroupState, viewer: ViewViewer, presenceOf: PresenceOf): JsonObject {
  const memberships = byKeys(visible.memberships.values(), (m) => m.grantedAt, (m) => m.membershipId);
  const view = {
    groupId: full.groupId,
    lastSequence: full.lastSequence,
    viewer,
    group: full.group,
    mission: full.mission,
    missionNotes: full.missionNotes,
    pendingApproval: pendingApproval(full),
    coordinatorLease: full.coordinatorLease,
    memberships,
    conversations: byKeys(visible.conversations.values(), (c) => c.createdAt, (c) => c.conversationId),
    workItems: byKeys(visible.workItems.values(), (w) => w.createdAt, (w) => w.workItemId).map(workItemLine),
    artifacts: byKeys(full.artifacts.values(), (a) => a.publishedAt, (a) => a.contentHash).map(({ revision: _revision, ...artifact }) => artifact),
    budgets: budgetLines(full),
    presence: presenceLines(full, memberships, presenceOf),
  };
  return view as unknown as JsonObject;
}
