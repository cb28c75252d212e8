/**
 * Context Packages (migration 0011): the recipients the reactor's sweep owes one, the previous
 * version of a recipient's package, storing a new one, reading them back for their recipient,
 * and whether a replacement Coordinator's is stored (its assignments wait for it, §7.2). The due
 * statements repeat the partial index predicates of 0011 word for word so that the planner uses
 * them.
 */

import type { Queryable } from '../pool.js';

export type ContextCause = 'membership' | 'coordinator';

/** A recipient owed a package for `cause` at `causeEpoch`. */
export interface DueContextRecipient {
  readonly groupId: string;
  readonly cause: ContextCause;
  readonly causeEpoch: number;
  readonly recipient: { readonly type: string; readonly id: string };
  /** The package ID a provisional grant named (§8), to be the package's own when still free. */
  readonly namedPackageId?: string;
}

/**
 * At most `limit` current members and replacement Coordinators of running Groups with no package
 * for their current epoch. Joins only, each on `tree_id` (no correlated subquery, which Citus
 * refuses beside a subquery in FROM): on Citus every shard answers for its own trees.
 */
export async function findDueContextRecipients(db: Queryable, limit: number): Promise<DueContextRecipient[]> {
  const result = await db.query<{ group_id: string; cause: ContextCause; cause_epoch: number; recipient_type: string; recipient_id: string; named: string | null }>({
    name: 'find-due-context-recipients',
    text: `select due.group_id, due.cause, due.cause_epoch, due.recipient_type, due.recipient_id, due.named from (
             select m.tree_id, m.group_id, 'membership' as cause, (m.document ->> 'membershipEpoch')::integer as cause_epoch,
                    m.document #>> '{member,type}' as recipient_type, m.document #>> '{member,id}' as recipient_id,
                    m.document ->> 'contextPackageId' as named
             from aggregates m
             join aggregates g on g.tree_id = m.tree_id and g.group_id = m.group_id and g.aggregate_type = 'mission'
                              and g.document #>> '{mission,state}' in ('active', 'awaiting_approval')
             join groups r on r.tree_id = m.tree_id and r.group_id = m.group_id
             where m.aggregate_type = 'membership'
               and m.document ->> 'state' in ('provisional', 'active')
               and m.document ->> 'role' not in ('mission_owner', 'coordinator')
               -- Not before the Group reaches the Membership's visibility: until then it may read nothing.
               and (m.document ->> 'visibilityStartSequence')::bigint <= r.last_sequence
             union all
             select g.tree_id, g.group_id, 'coordinator', (g.document #>> '{mission,coordinator,coordinatorEpoch}')::integer,
                    'agent', g.document #>> '{mission,coordinator,agentId}', null
             from aggregates g
             where g.aggregate_type = 'mission'
               and (g.document #>> '{mission,coordinator,coordinatorEpoch}')::integer > 1
               and g.document #>> '{mission,state}' in ('active', 'awaiting_approval')
           ) due
           left join context_packages p
             on p.tree_id = due.tree_id and p.group_id = due.group_id and p.recipient_type = due.recipient_type
            and p.recipient_id = due.recipient_id and p.cause = due.cause and p.cause_epoch = due.cause_epoch
           where p.group_id is null
           order by due.group_id, due.recipient_id
           limit $1`,
    values: [limit],
  });
  return result.rows.map((r) => ({
    groupId: r.group_id,
    cause: r.cause,
    causeEpoch: r.cause_epoch,
    recipient: { type: r.recipient_type, id: r.recipient_id },
    ...(r.named === null ? {} : { namedPackageId: r.named }),
  }));
}

/** A replacement Coordinator's package that an assignment waits for (§7.2). */
export interface CoordinatorPackageKey {
  readonly treeId: string;
  readonly groupId: string;
  readonly agentId: string;
  readonly coordinatorEpoch: number;
}

/**
 * Those of `keys` whose package is stored, in one statement over the unique key of one package
 * per cause. A join, not a correlated `exists` over the keys: Citus refuses a correlated subquery
 * whose FROM holds a set-returning function, and every assignment of a replacement Coordinator
 * failed there (INTERNAL_ERROR) until this was rewritten.
 */
export async function readStoredCoordinatorPackages(db: Queryable, keys: readonly CoordinatorPackageKey[]): Promise<CoordinatorPackageKey[]> {
  if (keys.length === 0) return [];
  const result = await db.query<{ tree_id: string; group_id: string; agent_id: string; coordinator_epoch: number }>({
    name: 'read-stored-coordinator-packages',
    text: `select p.tree_id, p.group_id, p.recipient_id as agent_id, p.cause_epoch as coordinator_epoch
           from context_packages p
           join unnest($1::text[], $2::text[], $3::text[], $4::integer[]) as k(tree_id, group_id, agent_id, coordinator_epoch)
             on p.tree_id = k.tree_id and p.group_id = k.group_id and p.recipient_id = k.agent_id and p.cause_epoch = k.coordinator_epoch
           where p.recipient_type = 'agent' and p.cause = 'coordinator'`,
    values: [keys.map((k) => k.treeId), keys.map((k) => k.groupId), keys.map((k) => k.agentId), keys.map((k) => k.coordinatorEpoch)],
  });
  return result.rows.map((r) => ({ treeId: r.tree_id, groupId: r.group_id, agentId: r.agent_id, coordinatorEpoch: r.coordinator_epoch }));
}

export interface StoredPackageVersion {
  readonly contextPackageId: string;
  readonly version: number;
  readonly packageHash: string;
}

/** The newest package of a recipient for one scope, if any. */
export async function readLatestContextPackage(db: Queryable, groupId: string, recipient: { type: string; id: string }, scopeKey: string): Promise<StoredPackageVersion | undefined> {
  const result = await db.query<{ context_package_id: string; version: number; package_hash: string }>({
    name: 'read-latest-context-package',
    text: `select context_package_id, version, package_hash from context_packages
           where group_id = $1 and recipient_type = $2 and recipient_id = $3 and scope_key = $4
           order by version desc limit 1`,
    values: [groupId, recipient.type, recipient.id, scopeKey],
  });
  const row = result.rows[0];
  return row === undefined ? undefined : { contextPackageId: row.context_package_id, version: row.version, packageHash: row.package_hash };
}

/** Whether any package, in any Group, already has this ID. */
export async function contextPackageIdTaken(db: Queryable, contextPackageId: string): Promise<boolean> {
  const result = await db.query({ name: 'context-package-id-taken', text: 'select 1 from context_packages where context_package_id = $1', values: [contextPackageId] });
  return (result.rowCount ?? 0) > 0;
}

export interface NewContextPackage {
  readonly contextPackageId: string;
  readonly groupId: string;
  readonly recipient: { readonly type: string; readonly id: string };
  readonly scopeKey: string;
  readonly version: number;
  readonly cause: ContextCause;
  readonly causeEpoch: number;
  readonly packageHash: string;
  readonly document: string;
  readonly createdAt: string;
}

/**
 * Stores a package; false when another node (or an earlier round) stored this one first. Counted
 * by the rows it returns, not `rowCount`: on Citus this INSERT … SELECT is pulled to the
 * coordinator, whose `rowCount` is the rows selected, those that conflicted included.
 */
export async function insertContextPackage(db: Queryable, row: NewContextPackage): Promise<boolean> {
  const result = await db.query({
    name: 'insert-context-package',
    text: `insert into context_packages (tree_id, context_package_id, group_id, recipient_type, recipient_id, scope_key, version, cause, cause_epoch, package_hash, document, created_at)
           select tree_id, $1::text, $2::text, $3::text, $4::text, $5::text, $6::int, $7::text, $8::int, $9::text, $10::text, $11::text
           from group_trees where group_id = $2
           on conflict do nothing returning 1 as stored`,
    values: [row.contextPackageId, row.groupId, row.recipient.type, row.recipient.id, row.scopeKey, row.version, row.cause, row.causeEpoch, row.packageHash, row.document, row.createdAt],
  });
  return result.rows.length > 0;
}

export interface StoredContextPackage {
  readonly contextPackageId: string;
  readonly recipient: { readonly type: string; readonly id: string };
  readonly version: number;
  readonly scopeKey: string;
  readonly packageHash: string;
  readonly document: string;
  readonly createdAt: string;
}

function stored(r: { context_package_id: string; recipient_type: string; recipient_id: string; version: number; scope_key: string; package_hash: string; document: string; created_at: string }): StoredContextPackage {
  return {
    contextPackageId: r.context_package_id,
    recipient: { type: r.recipient_type, id: r.recipient_id },
    version: r.version,
    scopeKey: r.scope_key,
    packageHash: r.package_hash,
    document: r.document,
    createdAt: r.created_at,
  };
}

const COLUMNS = 'context_package_id, recipient_type, recipient_id, version, scope_key, package_hash, document, created_at';

/** One package of a Group by ID. */
export async function readContextPackage(db: Queryable, groupId: string, contextPackageId: string): Promise<StoredContextPackage | undefined> {
  const result = await db.query({
    name: 'read-context-package',
    text: `select ${COLUMNS} from context_packages where group_id = $1 and context_package_id = $2`,
    values: [groupId, contextPackageId],
  });
  const row = result.rows[0] as Parameters<typeof stored>[0] | undefined;
  return row === undefined ? undefined : stored(row);
}

/** A recipient's packages in a Group, newest first, at most `limit`. */
export async function listContextPackages(db: Queryable, groupId: string, recipient: { type: string; id: string }, limit: number): Promise<StoredContextPackage[]> {
  const result = await db.query({
    name: 'list-context-packages',
    text: `select ${COLUMNS} from context_packages where group_id = $1 and recipient_type = $2 and recipient_id = $3
           order by created_at desc, version desc limit $4`,
    values: [groupId, recipient.type, recipient.id, limit],
  });
  return (result.rows as Parameters<typeof stored>[0][]).map(stored);
}
