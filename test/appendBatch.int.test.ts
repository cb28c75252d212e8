/**
 * The batch append carries its long texts (Event texts, Command texts, aggregate documents) as one
 * packed binary parameter cut by byte offsets: every text must come back byte for byte, whatever
 * characters it holds and whichever rows surround it, and a duplicate receipt must still be
 * refused without an error.
 */

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendBatch, integerArray, textArray, type BatchWrite } from '../src/store/sql/appendBatch.js';
import type { EventRow } from '../src/store/sql/events.js';
import { insertGroups } from '../src/store/sql/groups.js';
import type { ReceiptRow } from '../src/store/sql/receipts.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

let db: TestDatabase;
/** One Mission tree: urn:g:2 is a child of urn:g:1. */
const trees = new Map([['urn:g:1', 'urn:g:1'], ['urn:g:2', 'urn:g:1']]);
const listener = { client: undefined as pg.Client | undefined, payloads: [] as string[] };

beforeAll(async () => {
  db = await createTestDatabase();
  await insertGroups(db.pool, [
    { groupId: 'urn:g:1', missionId: 'urn:m:1', treeId: 'urn:g:1', parentGroupId: null },
    { groupId: 'urn:g:2', missionId: 'urn:m:2', treeId: 'urn:g:1', parentGroupId: 'urn:g:1' },
  ]);
  listener.client = new pg.Client({ connectionString: db.url });
  await listener.client.connect();
  listener.client.on('notification', (m) => listener.payloads.push(m.payload ?? ''));
  await listener.client.query('listen append_batch_test');
});

afterAll(async () => {
  await listener.client?.end();
});

// Multi-byte characters (2, 3 and 4 bytes in UTF-8), escapes, quotes, backslashes and braces, so a
// byte offset counted as characters, or any re-escaping, shows.
const TEXTS = [
  JSON.stringify({ text: 'plain ascii' }),
  JSON.stringify({ text: 'déjà vu — 日本語 🚀 "quoted" \\ back\\slash {braces} ,comma' }),
  JSON.stringify({ text: 'line\nbreak\ttab \u0001 control \u2028 separator' }),
  '',
  JSON.stringify({ text: '𝄞'.repeat(700) }),
];

function event(groupId: string, sequence: number, document: string): EventRow {
  return {
    groupId, sequence, eventId: `urn:e:${groupId}:${sequence}`, kind: 'message.posted', aggregateType: 'message', aggregateId: `urn:msg:${sequence}`,
    aggregateRevision: 1, document, signingHash: `hash-e-${groupId}-${sequence}`, admissionRecordId: `urn:a:e:${groupId}:${sequence}`, trustedAcceptedAt: '2026-12-02T10:00:00.000Z', keyId: 'urn:key:authority',
  };
}

function receipt(actionId: string, command: string, eventIds: string[], groupId: string | null): ReceiptRow {
  return {
    actorType: 'agent', actorId: 'urn:agent:1', actionId, signingHash: `hash-c-${actionId}`, kind: 'message.post', groupId, command, eventIds,
    keyId: 'urn:key:1', admissionRecordId: `urn:a:c:${actionId}`, trustedAcceptedAt: '2026-12-02T10:00:00.000Z',
  };
}

describe('appendBatch', () => {
  it('stores every text byte for byte, each on its own row, and advances the counters', async () => {
    const events = TEXTS.map((text, i) => event(i % 2 === 0 ? 'urn:g:1' : 'urn:g:2', Math.floor(i / 2) + 1, text));
    const batch: BatchWrite = {
      events,
      aggregates: [
        { groupId: 'urn:g:1', type: 'message', id: 'urn:msg:1', revision: 1, document: { text: TEXTS[1] as string, n: 1, nested: { ok: true } }, sequence: 3 },
        { groupId: 'urn:g:2', type: 'message', id: 'urn:msg:2', revision: 2, document: { text: '🚀', list: [1, 'два', null] }, sequence: 2 },
      ],
      receipts: [
        receipt('a1', TEXTS[4] as string, [events[0]?.eventId as string, events[2]?.eventId as string], 'urn:g:1'),
        receipt('a2', TEXTS[1] as string, [], null),
      ],
      sequences: new Map([['urn:g:1', 3], ['urn:g:2', 2]]),
      notify: { channel: 'append_batch_test', payload: '{"urn:g:1":3}' },
      trees,
    };
    const client = await db.pool.connect();
    try {
      await client.query('begin');
      expect(await appendBatch(client, batch)).toBe(2);
      await client.query('commit');
    } finally {
      client.release();
    }
    const stored = await db.pool.query<{ event_id: string; document: string}>('select event_id, document from events order by group_id, sequence');
    expect(new Map(stored.rows.map((r) => [r.event_id, r.document]))).toEqual(new Map(events.map((e) => [e.eventId, e.document])));
    const receipts = await db.pool.query<{ action_id: string; command: string; event_ids: string[]; group_id: string | null }>('select action_id, command, event_ids, group_id from receipts order by action_id');
    expect(receipts.rows).toEqual([
      { action_id: 'a1', command: TEXTS[4], event_ids: ['urn:e:urn:g:1:1', 'urn:e:urn:g:1:2'], group_id: 'urn:g:1' },
      { action_id: 'a2', command: TEXTS[1], event_ids: [], group_id: null },
    ]);
    const aggregates = await db.pool.query<{ aggregate_id: string; revision: number; document: unknown; updated_sequence: number }>(
      'select aggregate_id, revision, document, updated_sequence from aggregates order by aggregate_id');
    expect(aggregates.rows).toEqual([
      { aggregate_id: 'urn:msg:1', revision: 1, document: batch.aggregates[0]?.document, updated_sequence: 3 },
      { aggregate_id: 'urn:msg:2', revision: 2, document: batch.aggregates[1]?.document, updated_sequence: 2 },
    ]);
    const groups = await db.pool.query<{ group_id: string; last_sequence: number }>('select group_id, last_sequence from groups order by group_id');
    expect(groups.rows).toEqual([{ group_id: 'urn:g:1', last_sequence: 3 }, { group_id: 'urn:g:2', last_sequence: 2 }]);
    await expect.poll(() => listener.payloads).toEqual(['{"urn:g:1":3}']);
  });

  it('updates an existing aggregate, and fails the whole statement on a receipt already claimed', async () => {
    const client = await db.pool.connect();
    try {
      await client.query('begin');
      const appended = appendBatch(client, {
        events: [event('urn:g:1', 4, TEXTS[2] as string)],
        aggregates: [{ groupId: 'urn:g:1', type: 'message', id: 'urn:msg:1', revision: 2, document: { text: 'édité' }, sequence: 4 }],
        receipts: [receipt('a1', 'another text', ['urn:e:urn:g:1:4'], 'urn:g:1'), receipt('a3', TEXTS[2] as string, ['urn:e:urn:g:1:4'], 'urn:g:1')],
        sequences: new Map([['urn:g:1', 4]]),
        notify: undefined,
        trees,
      });
      // A lost race (23505), which the commit queue re-runs: nothing of the batch may remain.
      await expect(appended).rejects.toMatchObject({ code: '23505', table: 'receipts' });
      await client.query('rollback');
      const events = await db.pool.query(`select 1 from events where sequence = 4`);
      expect(events.rowCount).toBe(0);
    } finally {
      client.release();
    }
    const client2 = await db.pool.connect();
    try {
      await client2.query('begin');
      await appendBatch(client2, {
        events: [], receipts: [], sequences: new Map(), notify: undefined, trees,
        aggregates: [{ groupId: 'urn:g:1', type: 'message', id: 'urn:msg:1', revision: 2, document: { text: 'édité' }, sequence: 4 }],
      });
      await client2.query('commit');
    } finally {
      client2.release();
    }
    const row = await db.pool.query<{ revision: number; document: unknown }>(`select revision, document from aggregates where aggregate_id = 'urn:msg:1'`);
    expect(row.rows).toEqual([{ revision: 2, document: { text: 'édité' } }]);
    const original = await db.pool.query<{ command: string }>(`select command from receipts where action_id = 'a1'`);
    expect(original.rows).toEqual([{ command: TEXTS[4] }]);
  });

  it('writes short text columns as quoted array literals that PostgreSQL reads back exactly', async () => {
    // Each would be misread unquoted or unescaped: a quote, a backslash, a separator, braces, a
    // space, the word NULL, an empty text, multi-byte characters.
    const ids = ['q"uote', 'back\\slash\\', 'a,b', '{braces}', ' spaced ', 'NULL', '', 'déjà 日本 🚀', '\\"'];
    expect(textArray(['a', null, 'b"c\\'])).toBe('{"a",NULL,"b\\"c\\\\"}');
    expect(textArray([])).toBe('{}');
    const client = await db.pool.connect();
    try {
      await client.query('begin');
      const receipts = ids.map((id) => ({ ...receipt(`hostile-${id}`, 'text', [], null), signingHash: `h-${id}`, admissionRecordId: `r-${id}` }));
      expect(await appendBatch(client, { events: [], aggregates: [], receipts, sequences: new Map(), notify: undefined, trees })).toBe(ids.length);
      await client.query('commit');
    } finally {
      client.release();
    }
    const stored = await db.pool.query<{ action_id: string; signing_hash: string; admission_record_id: string }>(
      `select action_id, signing_hash, admission_record_id from receipts where action_id like 'hostile-%'`);
    expect(new Set(stored.rows.map((r) => JSON.stringify([r.action_id, r.signing_hash, r.admission_record_id]))))
      .toEqual(new Set(ids.map((id) => JSON.stringify([`hostile-${id}`, `h-${id}`, `r-${id}`]))));
  });

  it('writes integer columns as array literals and refuses anything but safe integers', () => {
    expect(integerArray([])).toBe('{}');
    expect(integerArray([1, -2, 9007199254740991])).toBe('{1,-2,9007199254740991}');
    expect(() => integerArray([1.5])).toThrow('not a safe integer');
    expect(() => integerArray([Number.NaN])).toThrow('not a safe integer');
  });
});
