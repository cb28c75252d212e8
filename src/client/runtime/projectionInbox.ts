/**
 * Cursors and the inbox of the local projection, per Group (§11.1, §16).
 *
 * The inbox keeps each verified Event once, by Event ID: a second delivery (a replay racing the
 * live stream, a resend after a reconnect) is recognised and not handed over again. An Event is
 * applied when the Cursor of its Group reaches its sequence; `cursors.save` moves the Cursor and
 * marks the Events up to it applied in one transaction. Applied Events beyond
 * `maxInboxEventsPerGroup` are pruned, oldest first; a late duplicate of a pruned one is still
 * recognised, since its sequence is at or below the Cursor. An Event that would put more than
 * the bound of unapplied ones in its Group's inbox is refused (`inbox-full`): it is not
 * acknowledged, so the Authority delivers it again from the Cursor.
 *
 * `ProjectionCursors` is a CursorStore, so a MissionWeaveAgent keeps its Cursors here
 * (`cursorStore: projection.cursors`). A Cursor never moves back.
 */

import type { CursorStore } from '../cursorStore.js';
import { AgentClientError } from '../errors.js';
import type { ProjectionContext } from './projectionContext.js';

export interface InboxEvent {
  readonly groupId: string;
  readonly eventId: string;
  readonly sequence: number;
  /** The Event as received. */
  readonly event: Readonly<Record<string, unknown>>;
  readonly applied: boolean;
  readonly receivedAt: string;
}

/** `new`: kept, to be handed over; `duplicate`: this Event was received before. */
export type InboxOutcome = 'new' | 'duplicate';

interface InboxRow {
  event_id: string;
  group_id: string;
  sequence: number;
  event: string;
  applied: number;
  received_at: string;
}

function inboxEventOf(row: InboxRow): InboxEvent {
  return {
    groupId: row.group_id,
    eventId: row.event_id,
    sequence: row.sequence,
    event: JSON.parse(row.event) as Record<string, unknown>,
    applied: row.applied === 1,
    receivedAt: row.received_at,
  };
}

function cursorOf(context: ProjectionContext, groupId: string): number | undefined {
  const row = context.db.prepare('SELECT sequence FROM cursors WHERE group_id = ?').get(groupId) as { sequence: number } | undefined;
  return row?.sequence;
}

/** Deletes the oldest applied Events of a Group until at most `keep` rows remain. */
function prune(context: ProjectionContext, groupId: string, keep: number): void {
  const { n } = context.db.prepare('SELECT count(*) AS n FROM inbox WHERE group_id = ?').get(groupId) as { n: number };
  if (n <= keep) return;
  context.db
    .prepare('DELETE FROM inbox WHERE event_id IN (SELECT event_id FROM inbox WHERE group_id = ? AND applied = 1 ORDER BY sequence LIMIT ?)')
    .run(groupId, n - keep);
}

export class ProjectionInbox {
  constructor(private readonly context: ProjectionContext) {}

  /** Keeps a verified Group Event unless it was received before. */
  receive(event: Readonly<Record<string, unknown>>): InboxOutcome {
    const { eventId, groupId, sequence } = event;
    if (typeof eventId !== 'string' || typeof groupId !== 'string' || typeof sequence !== 'number' || !Number.isSafeInteger(sequence) || sequence < 1) {
      throw new AgentClientError('INVALID_ARGUMENT', 'the inbox keeps Group Events: eventId, groupId and a positive sequence are required');
    }
    const text = JSON.stringify(event);
    const { context } = this;
    return context.write(() => {
      const existing = context.db.prepare('SELECT group_id, sequence FROM inbox WHERE event_id = ?').get(eventId) as Pick<InboxRow, 'group_id' | 'sequence'> | undefined;
      if (existing !== undefined) {
        if (existing.group_id === groupId && existing.sequence === sequence) return 'duplicate';
        throw context.refuse('event-id-collision', `Event ID ${eventId} is in the inbox as ${existing.group_id}#${existing.sequence}, not ${groupId}#${sequence}`, groupId);
      }
      if (sequence <= (cursorOf(context, groupId) ?? 0)) return 'duplicate';
      const limit = context.limits.maxInboxEventsPerGroup;
      prune(context, groupId, limit - 1);
      const { n } = context.db.prepare('SELECT count(*) AS n FROM inbox WHERE group_id = ?').get(groupId) as { n: number };
      if (n >= limit) throw context.refuse('inbox-full', `${n} Events of the Group are not applied yet, the bound maxInboxEventsPerGroup (${limit})`, groupId);
      context.db.prepare('INSERT INTO inbox (event_id, group_id, sequence, event, received_at) VALUES (?, ?, ?, ?, ?)').run(eventId, groupId, sequence, text, context.now());
      return 'new';
    });
  }

  has(eventId: string): boolean {
    return this.context.read(() => this.context.db.prepare('SELECT 1 FROM inbox WHERE event_id = ?').get(eventId) !== undefined);
  }

  /** Events received and not applied yet, by Group and sequence: what a restart hands over again. */
  unapplied(groupId?: string): InboxEvent[] {
    const { db } = this.context;
    return this.context.read(() => {
      const rows = (groupId === undefined
        ? db.prepare('SELECT * FROM inbox WHERE applied = 0 ORDER BY group_id, sequence').all()
        : db.prepare('SELECT * FROM inbox WHERE applied = 0 AND group_id = ? ORDER BY sequence').all(groupId)) as InboxRow[];
      return rows.map(inboxEventOf);
    });
  }

  /** Inbox rows of a Group, applied or not. */
  count(groupId: string): number {
    return this.context.read(() => (this.context.db.prepare('SELECT count(*) AS n FROM inbox WHERE group_id = ?').get(groupId) as { n: number }).n);
  }
}

export class ProjectionCursors implements CursorStore {
  constructor(private readonly context: ProjectionContext) {}

  /** The Cursor of a Group, or undefined when none was saved. */
  get(groupId: string): number | undefined {
    return this.context.read(() => cursorOf(this.context, groupId));
  }

  /** Every saved Cursor, by Group: where a restart resumes each Group's replay. */
  all(): ReadonlyMap<string, number> {
    return this.context.read(
      () => new Map((this.context.db.prepare('SELECT group_id, sequence FROM cursors ORDER BY group_id').all() as { group_id: string; sequence: number }[]).map((row) => [row.group_id, row.sequence])),
    );
  }

  /** Moves the Cursor forward (never back) and marks the Group's Events up to it applied. */
  set(groupId: string, sequence: number): void {
    if (!Number.isSafeInteger(sequence) || sequence < 0) throw new RangeError(`not a Cursor: ${sequence}`);
    const { context } = this;
    context.write(() => {
      if (sequence <= (cursorOf(context, groupId) ?? -1)) return;
      context.db
        .prepare('INSERT INTO cursors (group_id, sequence, updated_at) VALUES (?, ?, ?) ON CONFLICT (group_id) DO UPDATE SET sequence = excluded.sequence, updated_at = excluded.updated_at')
        .run(groupId, sequence, context.now());
      context.db.prepare('UPDATE inbox SET applied = 1 WHERE group_id = ? AND applied = 0 AND sequence <= ?').run(groupId, sequence);
      prune(context, groupId, context.limits.maxInboxEventsPerGroup);
    });
  }

  load(groupId: string): Promise<number | undefined> {
    try {
      return Promise.resolve(this.get(groupId));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  save(groupId: string, sequence: number): Promise<void> {
    try {
      this.set(groupId, sequence);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
