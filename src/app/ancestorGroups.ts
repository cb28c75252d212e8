/**
 * The ancestor Groups of the Commands whose kind declares `ancestry` (a budget charge updates its
 * Mission's complete WorkItem/Mission ancestry, §12): resolved before the batch takes its locks,
 * so that they are locked with the Commands' own Groups in the one sorted order.
 *
 * Reading outside the locks is safe because a Mission's parent is fixed when it is created
 * (§14): the chain of an existing Group never changes, so it is cached, boundedly.
 */

import { MAX_LEDGER_ANCESTRY } from '../domain/workItem/budgetLimits.js';
import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import type { Queryable } from '../store/pool.js';
import { readAncestorGroups } from '../store/sql/ancestorGroups.js';
import type { VerifiedCommand } from './verifyCommand.js';

/** Enough chains for every active Mission of a busy node, like the Group state cache. */
export const ANCESTRY_CACHE_CAPACITY = 10_000;

/** A Group's ancestor Groups, nearest parent first; `tooDeep` when beyond MAX_LEDGER_ANCESTRY. */
export interface Ancestry {
  readonly groupIds: readonly string[];
  readonly tooDeep: boolean;
}

const ROOT: Ancestry = { groupIds: [], tooDeep: false };

export class AncestorGroupCache {
  private readonly chains = new Map<string, Ancestry>();

  async of(db: Queryable, groupId: string): Promise<Ancestry> {
    const known = this.chains.get(groupId);
    if (known !== undefined) return known;
    const { exists, ancestors } = await readAncestorGroups(db, groupId, MAX_LEDGER_ANCESTRY + 1);
    const ancestry = ancestors.length === 0 ? ROOT : { groupIds: ancestors.slice(0, MAX_LEDGER_ANCESTRY), tooDeep: ancestors.length > MAX_LEDGER_ANCESTRY };
    // A Group not created yet has no chain to remember: it may yet be created as a child.
    if (exists) {
      this.chains.set(groupId, ancestry);
      while (this.chains.size > ANCESTRY_CACHE_CAPACITY) {
        const oldest = this.chains.keys().next().value;
        if (oldest === undefined) break;
        this.chains.delete(oldest);
      }
    }
    return ancestry;
  }
}

/** The ancestries of the batch's Groups whose Commands need them, by Group ID. */
export async function ancestriesOf(db: Queryable, cache: AncestorGroupCache, kinds: KindRegistry, items: readonly VerifiedCommand[]): Promise<Map<string, Ancestry>> {
  const ancestries = new Map<string, Ancestry>();
  for (const { envelope } of items) {
    const groupId = envelope.groupId as string;
    const flag = kinds.groupKind(envelope.kind)?.ancestry;
    if (ancestries.has(groupId) || flag === undefined || (flag !== true && !flag(envelope))) continue;
    ancestries.set(groupId, await cache.of(db, groupId));
  }
  return ancestries;
}
