/**
 * The reads (seed « Lecture : fils, événements, boîte de réception »), as pure functions of the
 * slice: a thread as a tree in creation order, its state-change log, and the inbox of threads
 * whose turn is yours, read on from `since` or from an opaque `cursor`.
 */

import { compareInstants, parseTimestamp } from '../../protocol/timestamp.js';
import type { Refusal } from '../model.js';
import { parleyRefusal } from './parleyRefusals.js';
import { parleyLimits } from './parleyLimits.js';
import type { ParleyMessage, ParleyState, ParleyThread, Rights, StateChange } from './parleyTypes.js';

export interface MessageNode {
  readonly message: ParleyMessage;
  readonly replies: readonly MessageNode[];
}

/** Seed: « ses messages imbriqués selon parent, dans l'ordre de création ». */
export function threadTree(state: ParleyState, thread: number): readonly MessageNode[] | undefined {
  const record = state.threads[thread];
  if (record === undefined) return undefined;
  // Message numbers grow in creation order, so sorting by number is creation order.
  const messages = record.messages.map((n) => state.messages[n]).filter((m): m is ParleyMessage => m !== undefined);
  messages.sort((a, b) => a.number - b.number);
  const children = new Map<number | undefined, ParleyMessage[]>();
  for (const m of messages) {
    const key = m.parent !== undefined && record.messages.includes(m.parent) ? m.parent : undefined;
    children.set(key, [...(children.get(key) ?? []), m]);
  }
  const build = (m: ParleyMessage): MessageNode => ({ message: m, replies: (children.get(m.number) ?? []).map(build) });
  return (children.get(undefined) ?? []).map(build);
}

/** Seed « Événements »: each state change with its origin, label, time and confirmation. */
export function stateLog(state: ParleyState, thread: number): readonly StateChange[] | undefined {
  return state.threads[thread]?.log;
}

export interface InboxReader {
  readonly identity: string;
  /** When given, this extension's own questions are masked (seed); it hides nothing else. */
  readonly extension?: string;
  readonly rights: Rights;
}

export interface InboxQuery {
  /** Only threads with a message after this instant (UTC `Z` text). */
  readonly since?: string;
  /** The opaque position a previous read returned. */
  readonly cursor?: string;
  readonly limit?: number;
}

export interface InboxEntry {
  readonly thread: number;
  readonly key: string;
  readonly state: ParleyThread['state'];
  readonly confirmed: boolean;
  readonly lastMessage: number;
  readonly lastMessageAt: string;
  readonly awaiting: NonNullable<ParleyThread['turn']>;
}

export interface InboxPage {
  readonly threads: readonly InboxEntry[];
  readonly cursor: string;
}

const CURSOR_PREFIX = 'ibx_';

// Opaque to clients: a position among messages, which grow in creation order.
function encodeCursor(message: number): string {
  return `${CURSOR_PREFIX}${message.toString(36)}`;
}

function decodeCursor(cursor: string): number | undefined {
  if (!cursor.startsWith(CURSOR_PREFIX)) return undefined;
  const digits = cursor.slice(CURSOR_PREFIX.length);
  if (!/^[0-9a-z]{1,10}$/.test(digits)) return undefined;
  return parseInt(digits, 36);
}

function awaitsReader(thread: ParleyThread, last: ParleyMessage | undefined, reader: InboxReader): boolean {
  const turn = thread.turn;
  if (turn === undefined) return false;
  // Your own extension's question waits for others, not for you.
  if (reader.extension !== undefined && last?.from.identity === reader.identity && last.from.extension === reader.extension) return false;
  if (turn.to === 'anyone') return true;
  if (turn.to === 'authority') return reader.rights.lock || reader.rights.human;
  // A turn is the line's, whichever extension it names: a model that comes back under another
  // label (`--extension`) still sees what awaits it; the entry's `awaiting` says which label.
  return turn.identity === reader.identity;
}

export function inbox(state: ParleyState, reader: InboxReader, query: InboxQuery = {}): InboxPage | Refusal {
  const after = query.cursor === undefined ? 0 : decodeCursor(query.cursor);
  if (after === undefined) return parleyRefusal('invalid_cursor', 'the cursor is not one this inbox returned');
  const since = query.since === undefined ? undefined : parseTimestamp(query.since);
  if (since === null) return parleyRefusal('invalid_since', 'since is a UTC instant');
  const limit = Math.min(Math.max(query.limit ?? parleyLimits.inboxDefaultPage, 1), parleyLimits.inboxMaxPage);
  const waiting = Object.values(state.threads)
    .filter((t) => t.lastMessage > after && (since === undefined || compareInstants(parseTimestamp(t.lastMessageAt) ?? since, since) > 0))
    .filter((t) => awaitsReader(t, state.messages[t.lastMessage], reader))
    .sort((a, b) => a.lastMessage - b.lastMessage)
    .slice(0, limit);
  const threads = waiting.map((t) => ({
    thread: t.number,
    key: `th_${t.number}`,
    state: t.state,
    confirmed: t.stateConfirmedAt !== null,
    lastMessage: t.lastMessage,
    lastMessageAt: t.lastMessageAt,
    awaiting: t.turn as NonNullable<ParleyThread['turn']>,
  }));
  const last = waiting.at(-1);
  return { threads, cursor: encodeCursor(last === undefined ? after : last.lastMessage) };
}
