/**
 * The Policy Log table (migrations 0004, 0012): protected audit records of refused Signed
 * Documents, and of accepted policy decisions (§20 grant issuance and consumption), which carry
 * the accepted Event's ID and the decision's details.
 * Rows go in many at a time as one JSON array (one statement, one round trip); they are read
 * oldest first, by time, optionally for one claimed Group.
 */

import type { JsonObject } from '../../protocol/strictJson.js';
import type { Queryable } from '../pool.js';

export interface PolicyLogRow {
  readonly entryId: string;
  /** Trusted time of the (first) refusal, ISO 8601 UTC. */
  readonly occurredAt: string;
  readonly lastOccurredAt: string;
  readonly occurrences: number;
  readonly stage: string;
  readonly reason: string;
  readonly code: string;
  /** `authority`: an accepted decision recorded by the Group Authority's own pipeline. */
  readonly transport: 'wss' | 'https' | 'hello' | 'cli' | 'authority';
  readonly address: string | null;
  readonly claimedActorType: string | null;
  readonly claimedActorId: string | null;
  readonly claimedKeyId: string | null;
  readonly claimedActionId: string | null;
  readonly claimedKind: string | null;
  readonly claimedGroupId: string | null;
  readonly signingHash: string | null;
  /** The accepted Event an accepted decision is linked to (absent for refusals). */
  readonly eventId?: string | null;
  readonly details?: JsonObject | null;
}

const INSERT = `
insert into policy_log (entry_id, occurred_at, last_occurred_at, occurrences, stage, reason, code, transport, address,
                        claimed_actor_type, claimed_actor_id, claimed_key_id, claimed_action_id, claimed_kind,
                        claimed_group_id, signing_hash, event_id, details)
select "entryId", "occurredAt", "lastOccurredAt", "occurrences", "stage", "reason", "code", "transport", "address",
       "claimedActorType", "claimedActorId", "claimedKeyId", "claimedActionId", "claimedKind", "claimedGroupId", "signingHash",
       "eventId", "details"
from json_to_recordset($1::json) as x("entryId" text, "occurredAt" timestamptz, "lastOccurredAt" timestamptz,
     "occurrences" integer, "stage" text, "reason" text, "code" text, "transport" text, "address" text,
     "claimedActorType" text, "claimedActorId" text, "claimedKeyId" text, "claimedActionId" text, "claimedKind" text,
     "claimedGroupId" text, "signingHash" text, "eventId" text, "details" jsonb)
order by "occurredAt"`;

/** Appends rows in one statement; returns how many were inserted. */
export async function insertPolicyLogRows(db: Queryable, rows: readonly PolicyLogRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db.query({ name: 'insert-policy-log', text: INSERT, values: [JSON.stringify(rows)] });
  return result.rowCount ?? 0;
}

const COLUMNS = `entry_id as "entryId",
  to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "occurredAt",
  to_char(last_occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "lastOccurredAt",
  occurrences, stage, reason, code, transport, address,
  claimed_actor_type as "claimedActorType", claimed_actor_id as "claimedActorId", claimed_key_id as "claimedKeyId",
  claimed_action_id as "claimedActionId", claimed_kind as "claimedKind", claimed_group_id as "claimedGroupId",
  signing_hash as "signingHash", event_id as "eventId", details`;

export interface PolicyLogQuery {
  readonly groupId?: string;
  /** Only records at or after this instant (ISO 8601). */
  readonly since?: string;
  /** Only records at or before this instant (ISO 8601). */
  readonly until?: string;
  readonly limit: number;
  /** Which end of the range the limit keeps; the rows come back oldest first either way. */
  readonly keep: 'oldest' | 'newest';
}

/** Records in time order, oldest first, at most `limit` of them. */
export async function readPolicyLog(db: Queryable, query: PolicyLogQuery): Promise<PolicyLogRow[]> {
  const direction = query.keep === 'oldest' ? 'asc' : 'desc';
  const result = await db.query<PolicyLogRow>(
    `select ${COLUMNS} from policy_log
     where position in (
       select position from policy_log
       where ($1::text is null or claimed_group_id = $1)
         and ($2::timestamptz is null or occurred_at >= $2)
         and ($3::timestamptz is null or occurred_at <= $3)
       order by occurred_at ${direction}, position ${direction}
       limit $4)
     order by occurred_at, position`,
    [query.groupId ?? null, query.since ?? null, query.until ?? null, query.limit],
  );
  return result.rows;
}
