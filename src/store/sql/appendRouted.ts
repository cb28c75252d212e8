/**
 * The batch append as Citus routes it (docs/operations.md, "Citus"): the same rows as
 * `appendBatchStatement`, as one multi-row `VALUES` statement per table and Mission tree
 * (receipts: per actor, a service's to the coordinator's `organization_receipts`), each of which
 * Citus sends to one shard (or runs on the coordinator alone). The one-statement form's
 * `INSERT … SELECT FROM unnest(…)` and data-modifying CTEs are planned through the coordinator,
 * with two-phase commit even for one shard. The NOTIFY goes through the coordinator, as on plain
 * PostgreSQL. A receipt already claimed fails its statement with a unique violation, as there.
 */

import type { Statement } from '../pipeline.js';
import type { BatchWrite } from './appendBatch.js';
import { receiptTableOf, type ReceiptRow } from './receipts.js';

/** Groups `rows` by `key`, in first-seen order. */
function byKey<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list === undefined) groups.set(k, [row]);
    else list.push(row);
  }
  return groups;
}

/** `(…), (…)` placeholders for `rows` rows of `casts` columns, numbered from $1. */
function valuesList(rows: number, casts: readonly string[]): string {
  const out: string[] = [];
  for (let r = 0; r < rows; r++) out.push(`(${casts.map((cast, c) => `$${r * casts.length + c + 1}${cast}`).join(', ')})`);
  return out.join(', ');
}

const EVENT_CASTS = ['', '', '::bigint', '', '', '', '', '::bigint', '', '', '', '', ''];
const AGGREGATE_CASTS = ['', '', '', '', '::bigint', '::jsonb', '::bigint'];
const RECEIPT_CASTS = ['', '', '', '', '', '', '', '::text[]', '', '', ''];

/** The statements of one batch, in a fixed order: Events, aggregates, receipts, counters, NOTIFY. */
export function appendRoutedStatements(batch: BatchWrite): Statement[] {
  const tree = (groupId: string): string => {
    const t = batch.trees.get(groupId);
    if (t === undefined) throw new Error(`no Mission tree known for Group ${groupId}`);
    return t;
  };
  const statements: Statement[] = [];
  for (const [treeId, events] of byKey(batch.events, (e) => tree(e.groupId))) {
    statements.push({
      text: `insert into events (tree_id, group_id, sequence, event_id, kind, aggregate_type, aggregate_id, aggregate_revision,
                                 document, signing_hash, admission_record_id, trusted_accepted_at, key_id)
             values ${valuesList(events.length, EVENT_CASTS)}`,
      values: events.flatMap((e) => [treeId, e.groupId, e.sequence, e.eventId, e.kind, e.aggregateType, e.aggregateId, e.aggregateRevision,
        e.document, e.signingHash, e.admissionRecordId, e.trustedAcceptedAt, e.keyId]),
    });
  }
  for (const [treeId, rows] of byKey(batch.aggregates, (a) => tree(a.groupId))) {
    statements.push({
      text: `insert into aggregates (tree_id, group_id, aggregate_type, aggregate_id, revision, document, updated_sequence)
             values ${valuesList(rows.length, AGGREGATE_CASTS)}
             on conflict (tree_id, group_id, aggregate_type, aggregate_id)
             do update set revision = excluded.revision, document = excluded.document, updated_sequence = excluded.updated_sequence`,
      values: rows.flatMap((a) => [treeId, a.groupId, a.type, a.id, a.revision, JSON.stringify(a.document), a.sequence]),
    });
  }
  // Each actor's receipts into its table (a service's: the coordinator's own, receipts.ts).
  for (const rows of byKey(batch.receipts, (r) => `${receiptTableOf(r.actorType)}\u001f${r.actorId}`).values()) {
    statements.push({
      text: `insert into ${receiptTableOf((rows[0] as ReceiptRow).actorType)} (actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids,
                                   key_id, admission_record_id, trusted_accepted_at)
             values ${valuesList(rows.length, RECEIPT_CASTS)}`,
      values: rows.flatMap((r) => [r.actorType, r.actorId, r.actionId, r.signingHash, r.kind, r.groupId, r.command, [...r.eventIds],
        r.keyId, r.admissionRecordId, r.trustedAcceptedAt]),
    });
  }
  // One per Group: a batch advances few, and the array form of one statement per tree crashed
  // Citus 13.2's coordinator (signal 11) when planned with parameters.
  for (const [groupId, sequence] of batch.sequences) {
    statements.push({ name: 'advance-group', text: 'update groups set last_sequence = $3 where tree_id = $1 and group_id = $2', values: [tree(groupId), groupId, sequence] });
  }
  if (batch.notify !== undefined) statements.push({ name: 'notify', text: 'select pg_notify($1, $2)', values: [batch.notify.channel, batch.notify.payload] });
  return statements;
}
