/**
 * The write half of a Group transaction as one statement: Events, changed aggregates, receipts
 * (each in its actor's table, receipts.ts) and the Groups' counters, plus the one NOTIFY of the batch.
 *
 * Short columns travel as array literals, written here (`textArray`, `integerArray`), unpacked
 * by `unnest`. The long texts — each Event's signed text, each receipt's Command text, each
 * aggregate document — travel as one binary (`bytea`) parameter with a byte offset and length
 * per row, cut by `substring` and decoded by `convert_from`: neither side escapes or parses them.
 * This statement is most of PostgreSQL's CPU per Command, and `json_to_recordset` (the previous
 * shape) spent a fifth of it re-parsing those texts from one JSON document, copying every field
 * twice and hashing every row's keys, after this process had escaped every quote in them
 * (BENCHMARKS.md, "PostgreSQL cost per Command").
 */

import type { JsonValue } from '../../protocol/strictJson.js';
import type { Queryable } from '../pool.js';
import { queryConfig, type Statement } from '../pipeline.js';
import type { EventRow } from './events.js';
import { SERVICE_ACTOR, type ReceiptRow } from './receipts.js';

export interface AggregateWrite {
  readonly groupId: string;
  readonly type: string;
  readonly id: string;
  readonly revision: number;
  readonly document: JsonValue;
  readonly sequence: number;
}

export interface BatchWrite {
  readonly events: readonly EventRow[];
  readonly aggregates: readonly AggregateWrite[];
  readonly receipts: readonly ReceiptRow[];
  /** Each advanced Group's new last sequence. */
  readonly sequences: ReadonlyMap<string, number>;
  /** The Mission tree of every Group written (migration 0021). */
  readonly trees: ReadonlyMap<string, string>;
  readonly notify: { readonly channel: string; readonly payload: string } | undefined;
}

/** The text at byte offset `o` (1-based) and length `l` of the packed parameter `$1`. */
const cut = (o: string, l: string) => `convert_from(substring($1::bytea from ${o} for ${l}), 'UTF8')`;

const SQL = `
with new_events as (
  insert into events (tree_id, group_id, sequence, event_id, kind, aggregate_type, aggregate_id, aggregate_revision,
                      document, signing_hash, admission_record_id, trusted_accepted_at, key_id)
  select tr, g, s, e, k, t, i, r, ${cut('o', 'l')}, h, a, w, ki
  from unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[],
              $9::int[], $10::int[], $11::text[], $12::text[], $13::text[], $37::text[], $38::text[]) as x(g, s, e, k, t, i, r, o, l, h, a, w, ki, tr)
  returning 1
), new_aggregates as (
  insert into aggregates (tree_id, group_id, aggregate_type, aggregate_id, revision, document, updated_sequence)
  select tr, g, t, i, r, ${cut('o', 'l')}::jsonb, s
  from unnest($14::text[], $15::text[], $16::text[], $17::bigint[], $18::int[], $19::int[], $20::bigint[], $39::text[]) as x(g, t, i, r, o, l, s, tr)
  on conflict (tree_id, group_id, aggregate_type, aggregate_id)
  do update set revision = excluded.revision, document = excluded.document, updated_sequence = excluded.updated_sequence
  returning 1
), receipt_rows as (
  select at, ai, c, h, k, g, o, l, e, ki, a, w
  from unnest($21::text[], $22::text[], $23::text[], $24::text[], $25::text[], $26::text[], $27::int[], $28::int[],
              $29::text[], $30::text[], $31::text[], $32::text[]) as x(at, ai, c, h, k, g, o, l, e, ki, a, w)
), new_receipts as (
  insert into receipts (actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids,
                        key_id, admission_record_id, trusted_accepted_at)
  select at, ai, c, h, k, g, ${cut('o', 'l')}, string_to_array(e, ' '), ki, a, w
  from receipt_rows where at <> '${SERVICE_ACTOR}'
  returning 1
), new_service_receipts as (
  insert into organization_receipts (actor_type, actor_id, action_id, signing_hash, kind, group_id, command, event_ids,
                                     key_id, admission_record_id, trusted_accepted_at)
  select at, ai, c, h, k, g, ${cut('o', 'l')}, string_to_array(e, ' '), ki, a, w
  from receipt_rows where at = '${SERVICE_ACTOR}'
  returning 1
), advanced as (
  update groups g set last_sequence = x.last_sequence
  from unnest($33::text[], $34::bigint[], $40::text[]) as x(group_id, last_sequence, tree_id)
  where g.tree_id = x.tree_id and g.group_id = x.group_id
  returning 1
)
select ((select count(*) from new_receipts) + (select count(*) from new_service_receipts))::int as receipts,
       (select count(*) from new_events)::int as events,
       (select count(*) from new_aggregates)::int as aggregates,
       (select count(*) from advanced)::int as groups,
       case when $35::text is null then null else pg_notify($35, $36) end as notified`;

/** Long texts packed into one buffer, with each one's 1-based byte offset and byte length. */
class Packed {
  private readonly parts: Buffer[] = [];
  private next = 1;

  /** Appends `text`; returns its offset and length columns' values. */
  add(text: string): [number, number] {
    const bytes = Buffer.from(text, 'utf8');
    this.parts.push(bytes);
    const at = this.next;
    this.next += bytes.length;
    return [at, bytes.length];
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/**
 * An integer column as PostgreSQL's array literal. `pg` turns a JS array into one element by
 * element, quoting and escaping each with two regular expressions; integers need neither, and
 * these columns are half of a batch's elements.
 */
export function integerArray(values: readonly number[]): string {
  for (const v of values) if (!Number.isSafeInteger(v)) throw new Error(`not a safe integer: ${v}`);
  return `{${values.join(',')}}`;
}

/** Whether a text must be escaped inside a quoted array element: it holds `"` or `\\`. */
const NEEDS_ESCAPE = /["\\]/;

/**
 * A text column as PostgreSQL's array literal, every element quoted (`null` as NULL). `pg` runs
 * two regular-expression replacements on every element; the IDs, hashes and timestamps that fill
 * these columns hold neither character, so one test decides.
 */
export function textArray(values: readonly (string | null)[]): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) literal += ',';
    const v = values[i];
    if (v === null || v === undefined) literal += 'NULL';
    else if (NEEDS_ESCAPE.test(v)) literal += `"${v.replace(/[\\"]/g, '\\$&')}"`;
    else literal += `"${v}"`;
  }
  return literal + '}';
}

/** One column of `rows` as an array literal: text or integer. */
type Column<T> = { readonly text: (row: T) => string | null } | { readonly integer: (row: T) => number };

/** The columns of `rows` as array literals, then the offsets and lengths of each row's long text, packed. */
function columns<T>(rows: readonly T[], packed: Packed, long: (row: T) => string, keys: readonly Column<T>[]): string[] {
  const offsets: number[] = [];
  const lengths: number[] = [];
  for (const row of rows) {
    const [at, length] = packed.add(long(row));
    offsets.push(at);
    lengths.push(length);
  }
  const literal = (key: Column<T>): string => ('text' in key ? textArray(rows.map(key.text)) : integerArray(rows.map(key.integer)));
  return [...keys.map(literal), integerArray(offsets), integerArray(lengths)];
}

/** A written Group's tree; every Group a batch writes was locked, and its tree read, first. */
function treeOf(batch: BatchWrite, groupId: string): string {
  const tree = batch.trees.get(groupId);
  if (tree === undefined) throw new Error(`no Mission tree known for Group ${groupId}`);
  return tree;
}

/**
 * The batch's one statement. A receipt another transaction claimed first (the same Action ID or
 * signed document, accepted by another node) fails it with a unique violation (23505), which the
 * commit queue re-runs as a lost race: the re-run reads the winner's receipt and answers with it.
 * That makes the statement's success the whole check, so COMMIT can travel with it.
 */
export function appendBatchStatement(batch: BatchWrite): Statement {
  const packed = new Packed();
  const events = columns(batch.events, packed, (e) => e.document, [
    { text: (e) => e.groupId }, { integer: (e) => e.sequence }, { text: (e) => e.eventId }, { text: (e) => e.kind },
    { text: (e) => e.aggregateType }, { text: (e) => e.aggregateId }, { integer: (e) => e.aggregateRevision },
  ]);
  const aggregates = columns(batch.aggregates, packed, (a) => JSON.stringify(a.document), [
    { text: (a) => a.groupId }, { text: (a) => a.type }, { text: (a) => a.id }, { integer: (a) => a.revision },
  ]);
  const receipts = columns(batch.receipts, packed, (r) => r.command, [
    { text: (r) => r.actorType }, { text: (r) => r.actorId }, { text: (r) => r.actionId }, { text: (r) => r.signingHash },
    { text: (r) => r.kind }, { text: (r) => r.groupId },
  ]);
  return {
    name: 'append-batch',
    text: SQL,
    values: [
      packed.bytes(),
      ...events,
      textArray(batch.events.map((e) => e.signingHash)), textArray(batch.events.map((e) => e.admissionRecordId)),
      textArray(batch.events.map((e) => e.trustedAcceptedAt)),
      ...aggregates, integerArray(batch.aggregates.map((a) => a.sequence)),
      ...receipts,
      // Event IDs are URNs, which hold no space (as in `insertReceipts`).
      textArray(batch.receipts.map((r) => r.eventIds.join(' '))), textArray(batch.receipts.map((r) => r.keyId)),
      textArray(batch.receipts.map((r) => r.admissionRecordId)), textArray(batch.receipts.map((r) => r.trustedAcceptedAt)),
      textArray([...batch.sequences.keys()]), integerArray([...batch.sequences.values()]),
      batch.notify?.channel ?? null,
      batch.notify?.payload ?? null,
      textArray(batch.events.map((e) => e.keyId)),
      textArray(batch.events.map((e) => treeOf(batch, e.groupId))),
      textArray(batch.aggregates.map((a) => treeOf(batch, a.groupId))),
      textArray([...batch.sequences.keys()].map((g) => treeOf(batch, g))),
    ],
  };
}

/** Appends a batch; returns how many receipts were inserted. */
export async function appendBatch(db: Queryable, batch: BatchWrite): Promise<number> {
  const result = await db.query<{ receipts: number }>(queryConfig(appendBatchStatement(batch)));
  return result.rows[0]?.receipts ?? 0;
}
