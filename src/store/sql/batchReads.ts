/**
 * The reads of a Group write transaction, folded into as few round trips as their ordering
 * allows: every statement costs the database a parse-bind-execute cycle and this process a
 * socket write and a wake-up, and at low load a batch holds one Command, so round trips, not
 * rows, are the price of a Command.
 *
 * 1. Lock the Groups' counter rows and read the Registry revision (one statement).
 * 2. After the locks are held, so that its snapshot sees every earlier writer of those Groups:
 *    the receipts of the batch's Action IDs and the actors' Session Epochs, the latter locked
 *    `for share` so a concurrent session activation waits for this transaction (one statement).
 *
 * Both go out with the BEGIN in one round trip (`PipelinedTransaction`): PostgreSQL still runs
 * them one after the other, each with its own snapshot, so 2 still sees what 1 waited for.
 */

import type pg from 'pg';
import type { Statement } from '../pipeline.js';
import { RECEIPTS_OF_KEYS, receiptKey, receiptKeyValues, type ReceiptKey, type ReceiptRow } from './receipts.js';

export interface LockedGroups {
  readonly lastSequences: Map<string, number>;
  readonly registryRevision: number;
}

/** Locks existing Groups' counter rows in a fixed order and reads the Registry revision. */
export function lockGroupsStatement(groupIds: readonly string[], organizationId: string): Statement {
  return {
    name: 'lock-groups-reading-revision',
    text: `select (select registry_revision from organization_state where organization_id = $2) as registry_revision,
                  g.group_id, g.last_sequence
           from (select 1) as one
           left join lateral (select group_id, last_sequence from groups
                              where group_id = any($1::text[]) order by group_id for update) as g on true`,
    values: [groupIds, organizationId],
  };
}

/** The lock statement's rows: each locked Group's last sequence, and the Registry revision. */
export function parseLockedGroups(result: pg.QueryResult): LockedGroups {
  const rows = result.rows as { registry_revision: number | null; group_id: string | null; last_sequence: number | null }[];
  const lastSequences = new Map<string, number>();
  for (const row of rows) if (row.group_id !== null) lastSequences.set(row.group_id, Number(row.last_sequence));
  return { lastSequences, registryRevision: Number(rows[0]?.registry_revision ?? 0) };
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
