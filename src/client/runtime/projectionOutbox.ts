/**
 * The durable outbox: signed Commands kept byte for byte until the Authority answers them. A
 * Command signed while offline survives a restart and is sent again with exactly the bytes it
 * was signed as, so a resend is an unchanged retry (§19: same Action ID, same content) and the
 * Authority applies it at most once.
 *
 *   pending ──sent──▶ sent ──acked──▶ acked
 *      │               │  └─refused─▶ refused
 *      └───acked / refused───────────▶
 *
 * `toSend()` lists `pending` and `sent` rows, oldest first: a Command sent before a crash but
 * never answered is sent again. Adding an Action ID already present with the same bytes
 * returns the row; with other bytes it is refused (`action-id-collision`), since a changed
 * Command needs a new Action ID. `rebase` is how a kept Command fenced by a new Session changes:
 * re-signed under the current Session with a new Action ID (§19, outboxRebase.ts), its row takes
 * the new Action ID and bytes in one statement — same place in the order, pending again, the
 * Action ID it was first kept under in `rebasedFrom` — so a crash leaves exactly one of the two
 * pending, never both. Rows not yet answered are bounded (`maxOutboxCommands`); answered ones
 * make room for new ones, oldest first.
 */

import { AgentClientError } from '../errors.js';
import { MAX_COMMAND_TEXT_BYTES } from '../limits.js';
import type { ProjectionContext } from './projectionContext.js';

/** The Commands the runtime keeps in the outbox before they are sent (outboxCommands.ts): each ends a run under an Execution Lease. */
export const OUTBOX_KINDS: ReadonlySet<string> = new Set(['work.checkpoint', 'work.submit', 'work.fail', 'work.block']);

export type OutboxState = 'pending' | 'sent' | 'acked' | 'refused';

export interface OutboxCommand {
  /** Order of arrival in the outbox: Commands are sent in it. */
  readonly position: number;
  readonly actionId: string;
  readonly groupId: string;
  readonly kind: string;
  /** The signed Command exactly as it was added. */
  readonly bytes: Buffer;
  readonly state: OutboxState;
  /** The error code of a refusal. */
  readonly refusal?: string;
  /** The Event that recorded an accepted Command, when the answer named one. */
  readonly eventId?: string;
  /** The Action ID this Command was first kept under, before a §19 rebase gave it a new one. */
  readonly rebasedFrom?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

interface OutboxRow {
  position: number;
  action_id: string;
  group_id: string;
  kind: string;
  bytes: Buffer;
  state: OutboxState;
  refusal: string | null;
  event_id: string | null;
  rebased_from: string | null;
  created_at: string;
  updated_at: string;
}

const NEXT: Readonly<Record<OutboxState, readonly OutboxState[]>> = {
  pending: ['sent', 'acked', 'refused'],
  sent: ['sent', 'acked', 'refused'],
  acked: [],
  refused: [],
};

function commandOf(row: OutboxRow): OutboxCommand {
  return {
    position: row.position,
    actionId: row.action_id,
    groupId: row.group_id,
    kind: row.kind,
    bytes: row.bytes,
    state: row.state,
    ...(row.refusal === null ? {} : { refusal: row.refusal }),
    ...(row.event_id === null ? {} : { eventId: row.event_id }),
    ...(row.rebased_from === null ? {} : { rebasedFrom: row.rebased_from }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The Action ID, Group and kind of a signed Command's text. */
function headerOf(bytes: Buffer): { actionId: string; groupId: string; kind: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new AgentClientError('INVALID_ARGUMENT', 'the outbox keeps signed Commands: this is not JSON');
  }
  const command = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  const { actionId, groupId, kind } = command;
  if (typeof actionId !== 'string' || typeof groupId !== 'string' || typeof kind !== 'string' || typeof command['signature'] !== 'object') {
    throw new AgentClientError('INVALID_ARGUMENT', 'the outbox keeps signed Commands: actionId, groupId, kind and signature are required');
  }
  return { actionId, groupId, kind };
}

export class ProjectionOutbox {
  constructor(private readonly context: ProjectionContext) {}

  /** Keeps a signed Command (its text or its UTF-8 bytes) until it is answered. */
  add(command: string | Uint8Array): OutboxCommand {
    const bytes = Buffer.from(typeof command === 'string' ? Buffer.from(command, 'utf8') : command);
    const { context } = this;
    context.bound('a signed Command', bytes.byteLength, MAX_COMMAND_TEXT_BYTES, 'MAX_COMMAND_TEXT_BYTES');
    const { actionId, groupId, kind } = headerOf(bytes);
    return context.write(() => {
      const existing = this.row(actionId);
      if (existing !== undefined) {
        if (existing.bytes.equals(bytes)) return commandOf(existing);
        throw context.refuse('action-id-collision', `Action ID ${actionId} is in the outbox with other bytes; a changed Command needs a new Action ID`, groupId);
      }
      const { maxOutboxCommands } = context.limits;
      const open = this.count('pending') + this.count('sent');
      if (open >= maxOutboxCommands) throw context.refuse('outbox-full', `${open} Commands await an answer, the bound maxOutboxCommands (${maxOutboxCommands})`, groupId);
      const excess = (context.db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n + 1 - maxOutboxCommands;
      if (excess > 0) {
        context.db
          .prepare(`DELETE FROM outbox WHERE position IN (SELECT position FROM outbox WHERE state IN ('acked', 'refused') ORDER BY position LIMIT ?)`)
          .run(excess);
      }
      const now = context.now();
      context.db
        .prepare(`INSERT INTO outbox (action_id, group_id, kind, bytes, state, created_at, updated_at) VALUES (?, ?, ?, ?, 'pending', ?, ?)`)
        .run(actionId, groupId, kind, bytes, now, now);
      return commandOf(this.row(actionId) as OutboxRow);
    });
  }

  /**
   * Replaces the unanswered Command `fromActionId` with its re-signed form under a new Action ID
   * (same Group and kind: a §19 rebase onto the current Session). One statement moves the row to
   * the new Action ID and bytes, pending again at the same place in the order; `rebasedFrom` keeps
   * the Action ID it was first kept under (through any number of rebases).
   */
  rebase(fromActionId: string, command: string | Uint8Array): OutboxCommand {
    const bytes = Buffer.from(typeof command === 'string' ? Buffer.from(command, 'utf8') : command);
    const { context } = this;
    context.bound('a signed Command', bytes.byteLength, MAX_COMMAND_TEXT_BYTES, 'MAX_COMMAND_TEXT_BYTES');
    const header = headerOf(bytes);
    return context.write(() => {
      const row = this.row(fromActionId);
      if (row === undefined) throw context.refuse('stale', `Action ID ${fromActionId} is not in the outbox; add it`, header.groupId);
      if (row.state !== 'pending' && row.state !== 'sent') throw context.refuse('stale', `outbox Command ${fromActionId} is ${row.state}; an answered Command is not rebased`, row.group_id);
      if (row.group_id !== header.groupId || row.kind !== header.kind) {
        throw context.refuse('action-id-collision', `Action ID ${fromActionId} is a ${row.kind} of ${row.group_id} in the outbox, not a ${header.kind} of ${header.groupId}`, header.groupId);
      }
      if (this.row(header.actionId) !== undefined) {
        throw context.refuse('action-id-collision', `Action ID ${header.actionId} is in the outbox already; a rebased Command needs a new Action ID (§19)`, header.groupId);
      }
      context.db
        .prepare(`UPDATE outbox SET action_id = ?, bytes = ?, state = 'pending', rebased_from = coalesce(rebased_from, action_id), updated_at = ? WHERE action_id = ?`)
        .run(header.actionId, bytes, context.now(), fromActionId);
      return commandOf(this.row(header.actionId) as OutboxRow);
    });
  }

  get(actionId: string): OutboxCommand | undefined {
    return this.context.read(() => {
      const row = this.row(actionId);
      return row === undefined ? undefined : commandOf(row);
    });
  }

  /** Commands to send, oldest first: never sent, or sent and not answered (a restart came between). */
  toSend(): OutboxCommand[] {
    return this.context.read(() =>
      (this.context.db.prepare(`SELECT * FROM outbox WHERE state IN ('pending', 'sent') ORDER BY position`).all() as OutboxRow[]).map(commandOf),
    );
  }

  count(state?: OutboxState): number {
    return this.context.read(() => {
      const row = (state === undefined
        ? this.context.db.prepare('SELECT count(*) AS n FROM outbox').get()
        : this.context.db.prepare('SELECT count(*) AS n FROM outbox WHERE state = ?').get(state)) as { n: number };
      return row.n;
    });
  }

  /** The Command went out on the wire (again, after a restart or reconnect). */
  markSent(actionId: string): OutboxCommand {
    return this.move(actionId, 'sent', null, null);
  }

  /** The Authority accepted it (or answered ACTION_ID_COLLISION for an earlier acceptance). */
  markAcked(actionId: string, eventId?: string): OutboxCommand {
    return this.move(actionId, 'acked', null, eventId ?? null);
  }

  /** The Authority refused it for good with `code`; it is not sent again. */
  markRefused(actionId: string, code: string): OutboxCommand {
    return this.move(actionId, 'refused', code, null);
  }

  private move(actionId: string, state: OutboxState, refusal: string | null, eventId: string | null): OutboxCommand {
    const { context } = this;
    return context.write(() => {
      const row = this.row(actionId);
      if (row === undefined) throw context.refuse('stale', `Action ID ${actionId} is not in the outbox`);
      if (row.state === state && state !== 'sent') return commandOf(row);
      if (!NEXT[row.state].includes(state)) throw context.refuse('stale', `outbox Command ${actionId} is ${row.state}; it cannot become ${state}`, row.group_id);
      context.db
        .prepare('UPDATE outbox SET state = ?, refusal = ?, event_id = coalesce(?, event_id), updated_at = ? WHERE action_id = ?')
        .run(state, refusal, eventId, context.now(), actionId);
      return commandOf(this.row(actionId) as OutboxRow);
    });
  }

  private row(actionId: string): OutboxRow | undefined {
    return this.context.db.prepare('SELECT * FROM outbox WHERE action_id = ?').get(actionId) as OutboxRow | undefined;
  }
}
