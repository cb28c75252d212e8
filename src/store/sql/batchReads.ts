/**
 * The reads of a Group write transaction, folded into as few round trips as their ordering
 * allows: every statement costs the database a parse-bind-execute cycle and this process a
 * socket write and a wake-up, and at low load a batch holds one Command, so round trips, not
 * rows, are the price of a Command.
 *
 * 1. Lock the Groups' counter rows and read the Registry revision (one statement; on Citus one
 *    per Mission tree, each routed to its tree's shard, after the revision's own and the trees'
 *    fence on the coordinator, below).
 * 2. After the locks are held, so that its snapshot sees every earlier writer of those Groups:
 *    the receipts of the batch's Action IDs and the actors' Session Epochs, the latter locked
 *    `for share` so a concurrent session activation waits for this transaction (one statement).
 *
 * Both go out with the BEGIN in one round trip (`PipelinedTransaction`): PostgreSQL still runs
 * them one after the other, each with its own snapshot, so 2 still sees what 1 waited for.
 */

import type pg from 'pg';
import type { Statement } from '../pipeline.js';
import { RECEIPTS_OF_KEYS, receiptKey, receiptKeyValues, receiptsOfActorsStatements, type ReceiptKey, type ReceiptRow } from './receipts.js';

export interface LockedGroups {
  readonly lastSequences: Map<string, number>;
  readonly registryRevision: number;
}

/** The Groups to lock, by Mission tree. */
export type GroupsByTree = ReadonlyMap<string, readonly string[]>;

/** Names "a Mission tree's fence" among the coordinator's advisory locks (the other key: the tree's hash). */
export const TREE_FENCE_LOCK_CLASS = 0x4d575466;

/**
 * On Citus, the batch's trees fenced on the coordinator, first: a transaction-scoped advisory lock
 * per tree (by `hashtext`, in ascending order, so two batches never wait on each other in a
 * cycle). A two-phase commit makes the workers' changes visible one by one: the tree's row locks
 * on its worker go as soon as that worker has committed, maybe before the receipts on another
 * worker are visible. The coordinator's own locks go only after every worker has answered its
 * COMMIT PREPARED (Citus's commit callback waits for them), so a duplicate of the batch's Command
 * that waits here reads its receipt, wherever it lies, instead of deciding it anew.
 * `fenced`: the trees of the Groups locked, and the Groups being created (a new tree's ID is its
 * root Group's).
 */
export function fenceTreesStatement(fenced: readonly string[]): Statement {
  return {
    name: 'fence-trees-on-coordinator',
    text: `select count(pg_advisory_xact_lock(${TREE_FENCE_LOCK_CLASS}, k)) as fenced
           from (select distinct hashtext(t) as k from unnest($1::text[]) as t order by k offset 0) as keys`,
    values: [[...new Set(fenced)].sort()],
  };
}

/**
 * Locks existing Groups' counter rows in one fixed order (tree, then Group) and reads the Registry
 * revision. `perTree` (on Citus, where one `FOR UPDATE` may not span two trees): the trees' fence
 * (`fenceTreesStatement`, with `fenced`), the revision's read, then one lock statement per tree,
 * in that order; otherwise one statement.
 */
export function lockGroupsStatements(byTree: GroupsByTree, organizationId: string, perTree: boolean, fenced: readonly string[] = [...byTree.keys()]): Statement[] {
  const trees = [...byTree.keys()].sort();
  if (!perTree) {
    const pairs = trees.flatMap((t) => [...(byTree.get(t) ?? [])].sort().map((g) => [t, g] as const));
    return [{
      name: 'lock-groups-reading-revision',
      text: `select (select registry_revision from organization_state where organization_id = $2) as registry_revision,
                    g.group_id, g.last_sequence
             from (select 1) as one
             left join lateral (select group_id, last_sequence from groups
                                where tree_id = any($3::text[]) and group_id = any($1::text[])
                                order by tree_id, group_id for update) as g on true`,
      values: [pairs.map(([, g]) => g), organizationId, [...new Set(pairs.map(([t]) => t))]],
    }];
  }
  return [
    ...(fenced.length === 0 ? [] : [fenceTreesStatement(fenced)]),
    { name: 'read-registry-revision', text: 'select registry_revision from organization_state where organization_id = $1', values: [organizationId] },
    ...trees.map((tree) => ({
      name: 'lock-groups-of-tree',
      text: 'select group_id, last_sequence from groups where tree_id = $1 and group_id = any($2::text[]) order by group_id for update',
      values: [tree, [...(byTree.get(tree) ?? [])].sort()],
    })),
  ];
}

/** The lock statements' rows: each locked Group's last sequence, and the Registry revision. */
export function parseLockedGroups(results: readonly pg.QueryResult[]): LockedGroups {
  const lastSequences = new Map<string, number>();
  let registryRevision = 0;
  for (const result of results) {
    const rows = result.rows as { registry_revision?: number | null; group_id?: string | null; last_sequence?: number | null }[];
    for (const row of rows) {
      if (row.registry_revision !== undefined && row.registry_revision !== null) registryRevision = Number(row.registry_revision);
      if (row.group_id !== undefined && row.group_id !== null) lastSequences.set(row.group_id, Number(row.last_sequence));
    }
  }
  return { lastSequences, registryRevision };
}

export interface ReceiptsAndSessions {
  readonly receipts: Map<string, ReceiptRow>;
  readonly sessions: Map<string, number>;
}

/** Receipts of these Action IDs and these Agents' Session Epochs (locked for share); none when there is nothing to read. */
export function receiptsAndSessionsStatement(keys: readonly ReceiptKey[], agentIds: readonly string[]): Statement | undefined {
  if (keys.length === 0 && agentIds.length === 0) return undefined;
  return {
    name: 'read-receipts-and-sessions',
    text: `select
             (select json_agg(receipt) from (${RECEIPTS_OF_KEYS}) as receipt) as receipts,
             (select json_agg(json_build_object('a', s.agent_id, 'e', s.session_epoch))
              from (select agent_id, session_epoch from agent_sessions
                    where agent_id = any($4::text[]) order by agent_id for share) as s) as sessions`,
    values: [...receiptKeyValues(keys), agentIds],
  };
}

/** The read statement's row; empty maps when the statement was not sent. */
export function parseReceiptsAndSessions(result: pg.QueryResult | undefined): ReceiptsAndSessions {
  const row = result?.rows[0] as { receipts: ReceiptRow[] | null; sessions: { a: string; e: number }[] | null } | undefined;
  return {
    receipts: new Map((row?.receipts ?? []).map((r) => [receiptKey(r), r])),
    sessions: new Map((row?.sessions ?? []).map((s) => [s.a, Number(s.e)])),
  };
}

/**
 * The same reads as Citus routes them: the receipts of each actor in a statement of its own (a
 * service's from the coordinator's `organization_receipts`, any other actor's from its shard of
 * `receipts`), then each Agent's Session Epoch, locked `for share`, in a statement of its own.
 * `agent_sessions` is sharded by Agent, co-located with the receipts (citusLayout.ts), so each is
 * a row lock on one shard: batches of other Agents never wait for it (test/citusSessionLocks.int.test.ts).
 * Parsed by `parseRoutedReads`.
 */
export function routedReadStatements(keys: readonly ReceiptKey[], agentIds: readonly string[]): Statement[] {
  return [
    ...receiptsOfActorsStatements(keys),
    ...[...new Set(agentIds)].sort().map((agentId) => ({
      name: 'read-session-for-share',
      text: 'select agent_id, session_epoch from agent_sessions where agent_id = $1 for share',
      values: [agentId],
    })),
  ];
}

/** The routed reads' rows: Session Epochs (rows with `session_epoch`) and receipts. */
export function parseRoutedReads(results: readonly pg.QueryResult[]): ReceiptsAndSessions {
  const receipts = new Map<string, ReceiptRow>();
  const sessions = new Map<string, number>();
  for (const result of results) {
    for (const row of result.rows as (ReceiptRow | { agent_id: string; session_epoch: number })[]) {
      if ('session_epoch' in row) sessions.set(row.agent_id, Number(row.session_epoch));
      else receipts.set(receiptKey(row), row);
    }
  }
  return { receipts, sessions };
}
