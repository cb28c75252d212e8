/**
 * What the domain checks of the Evidence a WorkItem Command carries (§13.2). Each Evidence
 * arrives schema-valid and already verified by the app, like the embedded Approval of
 * `mission.approve`: six stages, signed by its `generatedBy` Principal's key, first admitted with
 * the Command (§6.4; the kinds declare `embedded: {member: 'evidence', many: true}`). So the
 * decider checks what only state can tell: each Evidence is about this WorkItem (or one of the
 * Artifacts the transition names), was produced by whom the transition requires, references only
 * published Artifacts, and says what the transition needs it to say.
 *
 * Mapping to acceptance criteria (§13.2 "submission MUST include Evidence mapped to acceptance
 * criteria"): every criterion ID an Evidence names is one of the Work Contract's, and
 * `checkCoverage` says which criteria a set of Evidence leaves uncovered. A submission covers a
 * criterion with Evidence of a kind the criterion lists in `evidenceRequired` (a Worker's own
 * test, integrity check or schema validation); the Coordinator's acceptance covers every criterion
 * with its own passed review Evidence, whatever kind the review took — acceptance is the review's
 * judgement per criterion, and a criterion whose submitted Evidence failed is accepted only by a
 * review that says it now passes.
 */

import type { MissionWeaveEvidence } from '../../protocol/schemas/payloadTypes.js';
import { samePrincipal, type Principal } from '../../protocol/principal.js';
import { refuse, type Refusal } from '../model.js';
import { WORK_REASONS } from './workReasons.js';
import type { WorkRecord } from './workRecord.js';

export type Evidence = MissionWeaveEvidence;

export interface EvidenceRules {
  /** Artifacts (content hashes) an Evidence may have as its subject besides the WorkItem. */
  readonly artifactHashes: readonly string[];
  /** Every Evidence was produced by this Principal (a Worker's own submission or failure). */
  readonly producer?: Principal;
  /** No Evidence was produced by this Principal (a review is not by the reviewed, §7.2, §13.2). */
  readonly notProducer?: Principal;
  /** Every Evidence records a `passed` result (a review that succeeded, §10.2). */
  readonly passed?: boolean;
  /** Published Artifacts of the Group: an Evidence references no other (§13.1, §13.2). */
  readonly published?: { has(contentHash: string): boolean };
}

/** Criterion IDs a refusal lists: enough to act on, small enough for any error. */
const UNCOVERED_LISTED = 16;

function isAbout(workItem: WorkRecord, evidence: Evidence, artifactHashes: readonly string[]): boolean {
  const { subject } = evidence;
  return subject.type === 'work_item' ? subject.id === workItem.workItemId : subject.type === 'artifact' && artifactHashes.includes(subject.id);
}

/** The first Evidence that breaks `rules`, as a refusal naming it; `null` when all pass. */
export function checkEvidence(workItem: WorkRecord, evidence: readonly Evidence[], rules: EvidenceRules): Refusal | null {
  const ids = new Set<string>();
  for (const e of evidence) {
    const details = { evidenceId: e.evidenceId };
    if (ids.has(e.evidenceId)) return refuse('INVALID_COMMAND', WORK_REASONS.evidenceIdRepeated, 'an Evidence ID appears twice', details);
    ids.add(e.evidenceId);
    if (e.workItemId !== workItem.workItemId || e.missionId !== workItem.missionId || e.groupId !== workItem.groupId) {
      return refuse('INVALID_COMMAND', WORK_REASONS.evidenceOtherWorkItem, 'the Evidence belongs to another WorkItem', details);
    }
    if (!isAbout(workItem, e, rules.artifactHashes)) {
      return refuse('INVALID_COMMAND', WORK_REASONS.evidenceSubjectMismatch, 'the Evidence subject is neither the WorkItem nor an Artifact it names', details);
    }
    if (rules.producer !== undefined && !samePrincipal(e.generatedBy, rules.producer)) {
      return refuse('INVALID_COMMAND', WORK_REASONS.evidenceProducerMismatch, 'the Evidence was produced by someone else', details);
    }
    if (rules.notProducer !== undefined && samePrincipal(e.generatedBy, rules.notProducer)) {
      return refuse('INVALID_COMMAND', WORK_REASONS.evidenceByOwner, 'review Evidence cannot come from the WorkItem owner', details);
    }
    const unknown = e.criterionIds.find((id) => !workItem.contract.acceptanceCriteria.some((c) => c.criterionId === id));
    if (unknown !== undefined) {
      return refuse('INVALID_COMMAND', WORK_REASONS.evidenceCriterionUnknown, 'the Evidence names a criterion the Work Contract does not have', { ...details, criterionId: unknown });
    }
    const unpublished = rules.published === undefined ? undefined : e.artifactHashes.find((hash) => !rules.published!.has(hash));
    if (unpublished !== undefined) {
      return refuse('INVALID_COMMAND', WORK_REASONS.evidenceArtifactUnpublished, 'the Evidence references an Artifact not published in this Group', { ...details, contentHash: unpublished });
    }
    if (rules.passed === true && e.result !== 'passed') {
      return refuse('INVALID_COMMAND', WORK_REASONS.reviewNotPassed, 'acceptance needs Evidence whose result is passed', details);
    }
  }
  return null;
}

/**
 * Refuses Evidence that leaves an acceptance criterion of the Work Contract uncovered: `kinds`
 * `required`, each criterion needs an Evidence naming it of a kind it lists; `any`, any Evidence
 * naming it (the checks above already judged producer and result).
 */
export function checkCoverage(workItem: WorkRecord, evidence: readonly Evidence[], kinds: 'required' | 'any'): Refusal | null {
  const uncovered = workItem.contract.acceptanceCriteria
    .filter((criterion) => !evidence.some((e) => e.criterionIds.includes(criterion.criterionId) && (kinds === 'any' || (criterion.evidenceRequired as readonly string[]).includes(e.type))))
    .map((criterion) => criterion.criterionId);
  if (uncovered.length === 0) return null;
  return refuse('INVALID_COMMAND', WORK_REASONS.acceptanceCriteriaUncovered, 'the Evidence does not cover every acceptance criterion of the Work Contract', {
    workItemId: workItem.workItemId,
    uncoveredCount: uncovered.length,
    uncoveredCriterionIds: uncovered.slice(0, UNCOVERED_LISTED),
  });
}

export function evidenceIdsOf(evidence: readonly Evidence[]): string[] {
  return evidence.map((e) => e.evidenceId);
}
