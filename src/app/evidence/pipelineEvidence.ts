/**
 * Conformance evidence (§22: "automated positive and negative evidence covers every core Command
 * and Event kind … and every transition row in Sections 7.1 and 10.2"): what the real pipeline
 * did, as facts. The write transaction tells a `PipelineEvidence` what each Command's rules
 * decided — accepted with the Events it appended and the state transitions it made, or refused
 * with its code, reason and the state of what it targeted — and `npm test` turns the facts of
 * every test into the generated conformance report (docs/conformance.md).
 *
 * Only Commands that reached the stateful checks are told: a Command refused before (schema,
 * signature, rate) says nothing about its kind's rules. Without a `PipelineEvidence` (every
 * deployment) nothing here runs.
 */

import type { GroupState } from '../../domain/kinds/groupState.js';
import type { KindRegistry } from '../../domain/kinds/kindRegistry.js';
import type { CommandEnvelope, EventDraft } from '../../domain/model.js';

/** What a refusal or a transition is about: a WorkItem, a Work Proposal or the Mission. */
export type EvidenceTarget = 'work-item' | 'work-proposal' | 'mission' | 'organization';

export type EvidenceFact =
  | { readonly fact: 'accepted'; readonly kind: string }
  | { readonly fact: 'appended'; readonly kind: string; readonly event: string }
  | { readonly fact: 'transition'; readonly kind: string; readonly target: EvidenceTarget; readonly from: string; readonly to: string }
  | { readonly fact: 'refused'; readonly kind: string; readonly code: string; readonly reason: string; readonly target: EvidenceTarget; readonly state: string };

export interface PipelineEvidence {
  record(fact: EvidenceFact): void;
}

/** The state a Command's kind aims at, as a refusal found it: its WorkItem's, or else its Mission's. */
export function refusalTarget(kinds: KindRegistry, state: GroupState | null, command: CommandEnvelope): { target: EvidenceTarget; state: string } {
  const entry = kinds.groupKind(command.kind);
  if (entry === undefined) return { target: 'organization', state: 'none' };
  const workItemId = entry.workItemOf?.(state, command) ?? command.workItemId;
  if (workItemId !== undefined) return { target: 'work-item', state: state?.workItems.get(workItemId)?.state ?? 'none' };
  return { target: 'mission', state: state?.mission.state ?? 'none' };
}

/** Whether one decision's drafts name `id` of `type` in `groupId`. */
function draftsName(drafts: readonly EventDraft[], ownGroupId: string, groupId: string, type: string, id: string): boolean {
  return drafts.some((d) => (d.groupId ?? ownGroupId) === groupId && d.aggregate.type === type && d.aggregate.id === id);
}

/**
 * The facts of one accepted decision: its kind, the Event kinds it appended, and every Mission,
 * WorkItem and Work Proposal whose state it changed — or that one of its Events names without
 * changing its state (a `queued → queued` approval, an `offered → offered` re-offer).
 */
export function acceptedFacts(
  command: CommandEnvelope,
  drafts: readonly EventDraft[],
  before: ReadonlyMap<string, GroupState | null>,
  after: (groupId: string) => GroupState | undefined,
): EvidenceFact[] {
  const kind = command.kind;
  const ownGroupId = command.groupId ?? '';
  const facts: EvidenceFact[] = [{ fact: 'accepted', kind }];
  for (const draft of drafts) facts.push({ fact: 'appended', kind, event: draft.kind });
  for (const [groupId, prior] of before) {
    const now = after(groupId);
    if (now === undefined) continue;
    const missionFrom = prior?.mission.state ?? 'none';
    if (missionFrom !== now.mission.state || draftsName(drafts, ownGroupId, groupId, 'mission', now.mission.missionId)) {
      facts.push({ fact: 'transition', kind, target: 'mission', from: missionFrom, to: now.mission.state });
    }
    for (const [id, workItem] of now.workItems) {
      const from = prior?.workItems.get(id)?.state ?? 'none';
      if (from !== workItem.state || draftsName(drafts, ownGroupId, groupId, 'work-item', id)) {
        facts.push({ fact: 'transition', kind, target: 'work-item', from, to: workItem.state });
      }
    }
    for (const [id, proposal] of now.proposals) {
      const from = prior?.proposals.get(id)?.state ?? 'none';
      if (from !== proposal.state) facts.push({ fact: 'transition', kind, target: 'work-proposal', from, to: proposal.state });
    }
  }
  return facts;
}
