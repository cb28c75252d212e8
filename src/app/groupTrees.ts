/**
 * Which Mission tree each Group is in (migration 0021), read before a batch takes its locks so
 * that every statement of the batch names its tree (on Citus: routed to the tree's one shard).
 * A Group's tree never changes once it exists, so it is cached, boundedly; a Group not created yet
 * is looked up again next time.
 */

import type { Queryable } from '../store/pool.js';
import { isCitusCoordinator } from '../store/citusLayout.js';
import { readGroupTrees } from '../store/sql/groupTrees.js';

/** Enough Groups for every active Mission of a busy node, like the Group state cache. */
export const TREE_CACHE_CAPACITY = 10_000;

export class GroupTreeCache {
  private readonly trees = new Map<string, string>();
  private citus: Promise<boolean> | undefined;

  /**
   * Whether the database is a Citus coordinator (asked once it has answered). A question that
   * failed (the database away) is asked again next time: kept, it failed every later Group batch
   * of this node for good (test/firstBatchOutage.int.test.ts).
   */
  onCitus(db: Queryable): Promise<boolean> {
    this.citus ??= isCitusCoordinator(db).catch((error: unknown) => {
      this.citus = undefined;
      throw error;
    });
    return this.citus;
  }

  /** The trees of those of `groupIds` that exist. */
  async of(db: Queryable, groupIds: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const id of groupIds) {
      const tree = this.trees.get(id);
      if (tree === undefined) missing.push(id);
      else found.set(id, tree);
    }
    if (missing.length === 0) return found;
    for (const [id, { treeId }] of await readGroupTrees(db, missing)) {
      found.set(id, treeId);
      this.remember(id, treeId);
    }
    return found;
  }

  /** The tree of a Group, if this node has met it (no database read). */
  cached(groupId: string): string | undefined {
    return this.trees.get(groupId);
  }

  /** Notes the tree of a Group this node just created. */
  remember(groupId: string, treeId: string): void {
    this.trees.set(groupId, treeId);
    while (this.trees.size > TREE_CACHE_CAPACITY) {
      const oldest = this.trees.keys().next().value;
      if (oldest === undefined) break;
      this.trees.delete(oldest);
    }
  }
}
