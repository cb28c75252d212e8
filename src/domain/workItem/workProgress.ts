/**
 * Structured progress (§11.4) and the Evidence a WorkItem keeps. Progress is phase, completed
 * milestones, next checkpoint, blockers, revised estimate and Evidence references, taken from
 * what the Worker reported (its checkpoints) and the Evidence the transitions carried, never an
 * arbitrary percentage.
 */

import type { WorkProgress } from '../documents.js';
import type { WorkCheckpoint } from './workLeases.js';
import type { WorkRecord } from './workRecord.js';

/**
 * Most Evidence IDs a WorkItem's progress keeps: the schema's bound on `progress.evidenceIds`.
 * A WorkItem that fails and is re-offered again and again adds failure Evidence each time; the
 * oldest IDs go first, and every one stays in the Event that carried its Evidence.
 */
export const PROGRESS_EVIDENCE_KEPT = 1_000;

/**
 * The WorkItem's progress, or where a WorkItem that never reported any stands: its state as the
 * phase, nothing completed, its contract deadline as the only completion estimate there is.
 */
export function progressOf(workItem: WorkRecord): WorkProgress {
  return (
    workItem.progress ?? {
      currentPhase: workItem.state,
      completedMilestones: [],
      nextCheckpoint: 'not reported',
      blockers: [],
      updatedCompletionEstimate: workItem.contract.deadline,
      evidenceIds: [],
    }
  );
}

/**
 * Progress as a checkpoint reports it (§11.4): its phase and milestones, its next step (else the
 * phase it is in), the blockers now in force; the estimate and Evidence carry over.
 */
export function progressAtCheckpoint(workItem: WorkRecord, checkpoint: WorkCheckpoint, blockers: readonly string[]): WorkProgress {
  const before = progressOf(workItem);
  return {
    ...before,
    currentPhase: checkpoint.phase,
    completedMilestones: checkpoint.completedMilestones ?? [],
    nextCheckpoint: checkpoint.nextStep ?? checkpoint.phase,
    blockers,
  };
}

/** `progress` with `evidenceIds` added once each, newest last, at most `PROGRESS_EVIDENCE_KEPT`. */
export function withEvidenceIds(progress: WorkProgress, evidenceIds: readonly string[]): WorkProgress {
  const added = new Set(evidenceIds);
  const kept = [...progress.evidenceIds.filter((id) => !added.has(id)), ...added];
  return { ...progress, evidenceIds: kept.slice(-PROGRESS_EVIDENCE_KEPT) };
}
