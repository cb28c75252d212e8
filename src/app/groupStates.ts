/**
 * This process's cache of Group states, keyed by Group and valid for exactly one Group
 * sequence. Under the Group's row lock the database's `last_sequence` says whether the cached
 * state is current; when another process wrote in between, the state is reloaded from the
 * aggregates written in the same transactions as those Events, and its rate windows from the
 * Group's recent Events.
 */

import type { GroupState } from '../domain/kinds/groupState.js';
import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import type { Queryable } from '../store/pool.js';
import { readGroupAggregates, readMessages, type AggregateRow } from '../store/sql/aggregates.js';
import { readRecentEventsOfKinds } from '../store/sql/recentEvents.js';
import { THRESHOLD_NOTICE_KIND, WINDOW_EVENT_KINDS, rebuildRateWindows, type RateWindow, type WindowEvent } from '../domain/policy/rateWindows.js';
import { GROUP_STATE_CACHE_CAPACITY, RATE_WINDOW_REBUILD_SCAN } from './limits.js';

/**
 * The rate windows (§20) of a Group loaded from its rows, rebuilt from its recent Events: the
 * windows are not rows (`policy/rateWindows.ts`), and a reload must not reset them.
 */
async function recentRateWindows(db: Queryable, groupId: string, treeId: string, lastSequence: number): Promise<ReadonlyMap<string, RateWindow>> {
  const rows = await readRecentEventsOfKinds(db, groupId, treeId, lastSequence, RATE_WINDOW_REBUILD_SCAN, WINDOW_EVENT_KINDS, THRESHOLD_NOTICE_KIND);
  // The rows are the Authority's own signed Events, written by the same deciders.
  return rebuildRateWindows(rows.map((row) => ({ ...row, payload: row.payload ?? undefined }) as unknown as WindowEvent));
}

export class GroupStateCache {
  private readonly states = new Map<string, GroupState>();

  /** `kinds` stores and rebuilds the states: its modules own the rows. */
  constructor(private readonly kinds: KindRegistry) {}

  /**
   * The state of an existing Group at `lastSequence`, with the given Messages loaded. Every read
   * names the Group's Mission tree (`treeId`), so on Citus it needs only the tree's shard.
   */
  async load(db: Queryable, groupId: string, treeId: string, lastSequence: number, messageIds: readonly string[]): Promise<GroupState> {
    let state = this.states.get(groupId);
    if (state === undefined || state.lastSequence !== lastSequence) {
      const loaded = this.kinds.decodeState(groupId, lastSequence, await readGroupAggregates(db, groupId, treeId));
      state = { ...loaded, rateWindows: await recentRateWindows(db, groupId, treeId, lastSequence) };
    }
    if (messageIds.length === 0) return state;
    const messages = await readMessages(db, groupId, treeId, messageIds);
    if (messages.length === 0) return state;
    // Rate windows are derived, not rows (`policy/rateWindows.ts`): they survive adding Messages.
    return { ...this.kinds.decodeState(groupId, lastSequence, [...this.kinds.encodeState(state), ...messages]), rateWindows: state.rateWindows };
  }

  /** Installs states committed by this process, without their (partial) Message views. */
  commit(states: ReadonlyMap<string, GroupState>): void {
    for (const [groupId, state] of states) {
      this.states.delete(groupId);
      this.states.set(groupId, state.messages.size === 0 ? state : { ...state, messages: new Map() });
    }
    while (this.states.size > GROUP_STATE_CACHE_CAPACITY) {
      const oldest = this.states.keys().next().value;
      if (oldest === undefined) break;
      this.states.delete(oldest);
    }
  }

  invalidate(groupIds: Iterable<string>): void {
    for (const groupId of groupIds) this.states.delete(groupId);
  }
}

/**
 * The aggregates of `after` that differ from `before` (new, or changed in any way). A row object
 * found in both states is unchanged: the slice codecs hand back the same rows for what evolve
 * left alone, so only the rows of changed members are looked up by key and compared.
 */
export function changedAggregates(kinds: KindRegistry, before: GroupState | null, after: GroupState): AggregateRow[] {
  const afterRows = kinds.encodeState(after);
  if (before === null) return afterRows;
  const beforeRows = kinds.encodeState(before);
  const kept = new Set(beforeRows);
  const candidates = afterRows.filter((row) => !kept.has(row));
  if (candidates.length === 0) return candidates;
  const stillThere = new Set(afterRows);
  const previous = new Map<string, AggregateRow>();
  for (const row of beforeRows) if (!stillThere.has(row)) previous.set(`${row.type} ${row.id}`, row);
  return candidates.filter((row) => {
    const old = previous.get(`${row.type} ${row.id}`);
    if (old === undefined) return true;
    return old.document !== row.document && (old.revision !== row.revision || JSON.stringify(old.document) !== JSON.stringify(row.document));
  });
}
