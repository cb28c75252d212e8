/**
 * The runtime's own state in the local projection: the scheduler's snapshot (one per Agent: the
 * projection file is the Agent's) and each Group's context as the runtime keeps it for that
 * Group's jobs (§11.1: a slot sees only its own Mission's context).
 *
 * Both are JSON documents, kept as the text given, after checking that it parses, and bounded by
 * `maxContextBytes`. A Group's context carries a revision that never goes back: saving an older
 * one is refused (`stale`), so a delayed write cannot replace newer context; the same revision
 * again replaces it (a retry, or a correction before anything newer).
 */

import { AgentClientError } from '../errors.js';
import type { ProjectionContext } from './projectionContext.js';
import { byteLength } from './projectionContext.js';

export interface SavedSnapshot {
  /** The scheduler's snapshot, as saved. */
  readonly snapshot: string;
  readonly savedAt: string;
}

export interface GroupContext {
  readonly groupId: string;
  readonly revision: number;
  /** The context document, as saved. */
  readonly context: string;
  readonly savedAt: string;
}

function checkJson(text: string, what: string): void {
  try {
    JSON.parse(text);
  } catch {
    throw new AgentClientError('INVALID_ARGUMENT', `${what} must be JSON text`);
  }
}

export class ProjectionState {
  constructor(private readonly context: ProjectionContext) {}

  /** Replaces the scheduler's snapshot (JSON text). */
  saveSchedulerSnapshot(snapshot: string): void {
    const { context } = this;
    context.bound('the scheduler snapshot', byteLength(snapshot), context.limits.maxContextBytes, 'maxContextBytes');
    checkJson(snapshot, 'the scheduler snapshot');
    context.write(() =>
      context.db
        .prepare('INSERT INTO scheduler_snapshot (singleton, snapshot, saved_at) VALUES (1, ?, ?) ON CONFLICT (singleton) DO UPDATE SET snapshot = excluded.snapshot, saved_at = excluded.saved_at')
        .run(snapshot, context.now()),
    );
  }

  /** The last scheduler snapshot saved, or undefined before the first. */
  schedulerSnapshot(): SavedSnapshot | undefined {
    return this.context.read(() => {
      const row = this.context.db.prepare('SELECT snapshot, saved_at FROM scheduler_snapshot').get() as { snapshot: string; saved_at: string } | undefined;
      return row === undefined ? undefined : { snapshot: row.snapshot, savedAt: row.saved_at };
    });
  }

  /** Saves a Group's context (JSON text) at `revision`; an older revision than the saved one is refused. */
  saveGroupContext(groupId: string, revision: number, document: string): GroupContext {
    const { context } = this;
    if (!Number.isSafeInteger(revision) || revision < 0) throw new AgentClientError('INVALID_ARGUMENT', `not a context revision: ${revision}`, { groupId });
    context.bound(`the context of Group ${groupId}`, byteLength(document), context.limits.maxContextBytes, 'maxContextBytes', groupId);
    checkJson(document, `the context of Group ${groupId}`);
    return context.write(() => {
      const saved = context.db.prepare('SELECT revision FROM group_context WHERE group_id = ?').get(groupId) as { revision: number } | undefined;
      if (saved !== undefined && saved.revision > revision) {
        throw context.refuse('stale', `the context of Group ${groupId} is at revision ${saved.revision}; revision ${revision} is older`, groupId);
      }
      const savedAt = context.now();
      context.db
        .prepare('INSERT INTO group_context (group_id, revision, context, saved_at) VALUES (?, ?, ?, ?) ON CONFLICT (group_id) DO UPDATE SET revision = excluded.revision, context = excluded.context, saved_at = excluded.saved_at')
        .run(groupId, revision, document, savedAt);
      return { groupId, revision, context: document, savedAt };
    });
  }

  /** A Group's saved context; another Group's is never returned. */
  groupContext(groupId: string): GroupContext | undefined {
    return this.context.read(() => {
      const row = this.context.db.prepare('SELECT revision, context, saved_at FROM group_context WHERE group_id = ?').get(groupId) as
        | { revision: number; context: string; saved_at: string }
        | undefined;
      return row === undefined ? undefined : { groupId, revision: row.revision, context: row.context, savedAt: row.saved_at };
    });
  }

  /** Forgets a Group's context (the Agent left the Group, or its Mission ended). */
  dropGroupContext(groupId: string): void {
    this.context.write(() => this.context.db.prepare('DELETE FROM group_context WHERE group_id = ?').run(groupId));
  }
}
