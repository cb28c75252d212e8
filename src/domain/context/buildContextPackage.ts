/**
 * Builds one Context Package (§13.3): a versioned, scoped summary of a Group for one recipient,
 * limited by `contextScope.ts`, never an authoritative replacement for history. Pure: the app
 * hands in the Group's state, its newest Events through the head, the previous version for this
 * recipient and scope, an ID and the time; it signs and stores what comes back.
 *
 * An update is a new version: `version` one above the previous one, `previousContextPackageId`
 * naming it, and its hash carried in our provenance extension so a recipient can check the chain.
 */

import type { JsonObject } from '../../protocol/strictJson.js';
import type { GroupState } from '../kinds/groupState.js';
import { MAX_ARTIFACT_HASHES, MAX_CONSTRAINTS, MAX_DECISIONS, MAX_SUMMARY_CHARS, MAX_UNRESOLVED_QUESTIONS } from './contextLimits.js';
import { decisionText, isDecision, missionConstraints, missionQuestions, quote, workItemConstraint, workItemQuestion, type SourceEvent } from './contextFacts.js';
import type { ContextScope, ContextView } from './contextScope.js';

/** Our extension carrying the previous version's hash (§13.3 "retains provenance"). */
export const CONTEXT_PROVENANCE_EXTENSION = 'urn:missionweave:extension:context-provenance';

/** The version a new package follows. */
export interface PreviousPackage {
  readonly contextPackageId: string;
  readonly version: number;
  readonly packageHash: string;
}

export interface PackageRequest {
  readonly state: GroupState;
  /** The Group's newest Events in sequence order, ending at its head (`state.lastSequence`). */
  readonly events: readonly SourceEvent[];
  readonly view: ContextView;
  readonly scope: ContextScope;
  readonly previous?: PreviousPackage;
  readonly contextPackageId: string;
  /** The Agent that builds and signs it: the published schema admits no other Principal type. */
  readonly generatedBy: { readonly type: 'agent'; readonly id: string };
  readonly generatedAt: string;
}

export type PackageBuild =
  | { readonly ok: true; readonly unsigned: JsonObject }
  | { readonly ok: false; readonly reason: 'unknown-work-item' | 'nothing-readable'; readonly message: string };

/** The newest `limit` of `items`, and how many were left out. */
function newest<T>(items: readonly T[], limit: number): { kept: T[]; omitted: number } {
  return { kept: items.slice(Math.max(0, items.length - limit)), omitted: Math.max(0, items.length - limit) };
}

function inScope(scope: ContextScope, workItemId: string | undefined): boolean {
  return scope.workItemId === undefined || workItemId === scope.workItemId;
}

export function buildContextPackage(request: PackageRequest): PackageBuild {
  const { state, view, scope } = request;
  const scopedWorkItem = scope.workItemId === undefined ? undefined : state.workItems.get(scope.workItemId);
  if (scope.workItemId !== undefined && scopedWorkItem === undefined) {
    return { ok: false, reason: 'unknown-work-item', message: `no WorkItem ${scope.workItemId} in this Group` };
  }
  const readable = request.events.filter((e) => e.sequence >= view.firstSequence && e.sequence <= state.lastSequence && inScope(scope, e.workItemId));
  const first = readable[0];
  if (first === undefined) return { ok: false, reason: 'nothing-readable', message: 'no Event in scope that the recipient may read' };

  const decisions = newest(
    readable.filter((e) => isDecision(e.kind)).map((e) => ({ description: decisionText(e), sourceEventIds: [e.eventId] })),
    MAX_DECISIONS,
  );
  const blockReasons = new Map<string, string>();
  for (const e of readable) if (e.workItemId !== undefined && e.state === 'blocked' && e.reason !== undefined) blockReasons.set(e.workItemId, e.reason);

  const workItems = scopedWorkItem !== undefined ? [scopedWorkItem] : [...state.workItems.values()];
  const constraints = newest(
    [
      ...(scopedWorkItem === undefined ? missionConstraints(state) : []),
      ...workItems.filter((w) => w.state !== 'verified' && w.state !== 'failed' && w.state !== 'cancelled').map(workItemConstraint),
    ],
    MAX_CONSTRAINTS,
  );
  const questions = newest(
    view.currentContent
      ? [
          ...(scopedWorkItem === undefined ? missionQuestions(state) : []),
          ...workItems.flatMap((w) => workItemQuestion(w, blockReasons.get(w.workItemId)) ?? []),
        ]
      : [],
    MAX_UNRESOLVED_QUESTIONS,
  );
  const artifacts = newest(
    view.currentContent
      ? [...state.artifacts.values()]
          .filter((a) => inScope(scope, a.workItemId))
          .sort((a, b) => a.publishedAt.localeCompare(b.publishedAt))
          .map((a) => a.contentHash)
      : [],
    MAX_ARTIFACT_HASHES,
  );

  const subject = scopedWorkItem === undefined ? `Mission ${state.mission.missionId}` : `WorkItem ${scopedWorkItem.workItemId} of Mission ${state.mission.missionId}`;
  const summaryLines = [
    `${subject}: Mission ${state.mission.state}, objective ${quote(state.mission.objective)}.`,
    ...(scopedWorkItem === undefined ? [] : [`WorkItem ${scopedWorkItem.state}, goal ${quote(scopedWorkItem.contract.goal)}.`]),
    `Summarises Events ${first.sequence} to ${state.lastSequence} (${readable.length} in scope); earlier history is not part of this package.`,
    ...(view.currentContent ? [] : ['Provisional Membership: open questions and Artifact references come once it is activated.']),
    ...omissions({ decisions: decisions.omitted, constraints: constraints.omitted, questions: questions.omitted, artifacts: artifacts.omitted }),
  ];
  const { previous } = request;
  return {
    ok: true,
    unsigned: {
      contextPackageId: request.contextPackageId,
      version: previous === undefined ? 1 : previous.version + 1,
      ...(previous === undefined ? {} : { previousContextPackageId: previous.contextPackageId }),
      missionId: state.mission.missionId,
      groupId: state.groupId,
      ...(scope.workItemId === undefined ? {} : { workItemId: scope.workItemId }),
      sourceEventRange: { fromSequence: first.sequence, toSequence: state.lastSequence, eventIds: readable.map((e) => e.eventId) },
      artifactHashes: artifacts.kept,
      summary: summaryLines.join('\n').slice(0, MAX_SUMMARY_CHARS),
      decisions: decisions.kept,
      constraints: constraints.kept,
      unresolvedQuestions: questions.kept,
      generatedBy: { type: request.generatedBy.type, id: request.generatedBy.id },
      generatedAt: request.generatedAt,
      ...(previous === undefined
        ? {}
        : { extensions: { [CONTEXT_PROVENANCE_EXTENSION]: { version: '1.0.0', critical: false, data: { previousPackageHash: previous.packageHash } } } }),
    },
  };
}

function omissions(counts: Readonly<Record<string, number>>): string[] {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([what, n]) => `${n} older ${what} left out (bounded package); read them from history.`);
}
