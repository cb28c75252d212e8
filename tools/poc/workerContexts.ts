/**
 * What a PoC Worker hands a job (the job contract of `missionweave worker`), and each Group's
 * context as the Worker keeps it in its projection: the stages its Events named, the documents
 * of the WorkItems it owns there (what a restart needs to start them again) and its Membership
 * Epoch. A job is handed its own Group's context only (§11.1 slot isolation).
 */

import type { WorkItemDocument } from '#src/client/workDocuments.js';
import type { LocalProjection } from '#src/client/runtime/projection.js';

export interface Job {
  readonly groupId: string;
  readonly workItemId: string;
  readonly contract: WorkItemDocument['contract'];
  readonly context: Readonly<GroupContextDoc>;
  readonly credential: string | undefined;
  readonly seed: number;
  readonly resumeFrom: unknown;
  readonly signal: AbortSignal;
  checkpoint(data: unknown, options?: { readonly safe?: boolean }): Promise<'continue' | 'yield'>;
  publishArtifact(content: string, options: { readonly mediaType: string }): Promise<string>;
  submit(result: { readonly summary: string }): Promise<void>;
  fail(reason: string): Promise<void>;
}

export interface GroupContextDoc {
  readonly groupId: string;
  readonly workItems: Record<string, { stage: string; state: string }>;
  /** This Agent's owned WorkItems' documents: what a restart needs to start them again. */
  readonly owned: Record<string, WorkItemDocument>;
  /** Its Membership Epoch here: a restart resumes past the Events that told it (GroupEpochs.set). */
  membershipEpoch?: number;
}

export class GroupContexts {
  private readonly entries = new Map<string, { doc: GroupContextDoc; revision: number }>();

  constructor(private readonly projection: LocalProjection) {}

  /** A Group's context, from memory or its projection row (another Group's is never read). */
  of(groupId: string): GroupContextDoc {
    let entry = this.entries.get(groupId);
    if (entry === undefined) {
      const saved = this.projection.state.groupContext(groupId);
      entry = saved === undefined ? { doc: { groupId, workItems: {}, owned: {} }, revision: 0 } : { doc: JSON.parse(saved.context) as GroupContextDoc, revision: saved.revision };
      this.entries.set(groupId, entry);
    }
    return entry.doc;
  }

  /** Saves it at `revision` (its latest Event's sequence; never lower than before). */
  save(groupId: string, revision: number): void {
    const doc = this.of(groupId);
    const entry = this.entries.get(groupId) as { doc: GroupContextDoc; revision: number };
    entry.revision = Math.max(entry.revision, revision);
    this.projection.state.saveGroupContext(groupId, entry.revision, JSON.stringify(doc));
  }
}

/** The Group IDs anywhere in `value`. */
export function groupsIn(value: unknown): string[] {
  return [...new Set(JSON.stringify(value).match(/urn:missionweave:group:[0-9a-f-]+/g) ?? [])];
}
