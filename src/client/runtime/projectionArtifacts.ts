/**
 * Artifacts kept with a `work.submit` signed while the Authority could not be reached (§13.1,
 * §11.5): a submission may cite only published Artifacts, and publishing needs the Authority
 * (the content uploaded to its store, then the signed manifest published under a lease), so the
 * content and its signed manifest wait here, per WorkItem and in the order given, beside the
 * kept Command in the outbox. On reconnect the kept `work.submit` is fenced by the new Session
 * and rebased onto a new Execution Lease (outboxRebase.ts); before it is re-signed, these are
 * uploaded and published under that lease (mcp/keptArtifacts.ts), then dropped.
 *
 * Bounded by `maxKeptArtifactBytes`, all WorkItems together: past it `keep` refuses (`too-large`)
 * and keeps nothing, so the caller refuses the submission instead of keeping it.
 */

import type { ProjectionContext } from './projectionContext.js';

export interface KeptArtifact {
  readonly groupId: string;
  readonly workItemId: string;
  readonly contentHash: string;
  readonly content: Buffer;
  /** The signed Artifact manifest, as it is to be published. */
  readonly manifest: string;
}

interface KeptRow {
  group_id: string;
  work_item_id: string;
  content_hash: string;
  content: Buffer;
  manifest: string;
}

export class ProjectionArtifacts {
  constructor(private readonly context: ProjectionContext) {}

  /**
   * Keeps `artifacts` of one WorkItem, in order, replacing what it kept before; all or nothing.
   * Refuses (`too-large`) when the bytes kept would then pass `maxKeptArtifactBytes`.
   */
  keep(groupId: string, workItemId: string, artifacts: readonly Pick<KeptArtifact, 'contentHash' | 'content' | 'manifest'>[]): void {
    const { context } = this;
    const adding = artifacts.reduce((sum, a) => sum + a.content.byteLength, 0);
    context.write(() => {
      context.db.prepare('DELETE FROM kept_artifacts WHERE work_item_id = ?').run(workItemId);
      const held = this.totalBytes();
      const limit = context.limits.maxKeptArtifactBytes;
      if (held + adding > limit) {
        throw context.refuse('too-large', `${adding} bytes of Artifacts to keep for ${workItemId}, with ${held} kept already, pass the bound maxKeptArtifactBytes (${limit})`, groupId);
      }
      const insert = context.db.prepare('INSERT INTO kept_artifacts (work_item_id, content_hash, group_id, position, content, manifest, kept_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
      artifacts.forEach((a, position) => insert.run(workItemId, a.contentHash, groupId, position, a.content, a.manifest, context.now()));
    });
  }

  /** What is kept for `workItemId`, in the order given. */
  of(workItemId: string): KeptArtifact[] {
    const rows = this.context.read(() => this.context.db.prepare('SELECT * FROM kept_artifacts WHERE work_item_id = ? ORDER BY position').all(workItemId) as KeptRow[]);
    return rows.map((r) => ({ groupId: r.group_id, workItemId: r.work_item_id, contentHash: r.content_hash, content: r.content, manifest: r.manifest }));
  }

  /** Published, or their submission answered: no longer kept. */
  drop(workItemId: string): void {
    this.context.write(() => this.context.db.prepare('DELETE FROM kept_artifacts WHERE work_item_id = ?').run(workItemId));
  }

  /** The content bytes kept, all WorkItems together. */
  totalBytes(): number {
    return this.context.read(() => (this.context.db.prepare('SELECT coalesce(sum(length(content)), 0) AS n FROM kept_artifacts').get() as { n: number }).n);
  }
}
