/**
 * Replay reads stored Event text as bytes through a binary COPY (src/store/binaryCopy.ts,
 * src/store/sql/replayRows.ts): the bytes must be exactly what the string path returns, a
 * redacted Event must come as its rendering (§7.4), the literals COPY needs instead of bind
 * parameters must survive quotes and backslashes, and a row split across messages must parse.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { BinaryCopyOut, integer, literal } from '../src/store/binaryCopy.js';
import { checkOut } from '../src/store/pool.js';
import { insertEventRedaction, readServedEventsAfter } from '../src/store/sql/eventRedactions.js';
import { readServedEventBytesAfter } from '../src/store/sql/replayRows.js';
import type { TestDatabase } from './support/database.js';
import type { MissionRefs } from './support/missions.js';
import { world } from './support/world.js';

let db: TestDatabase;
let mission: MissionRefs;

beforeAll(async () => {
  const w = await world({
    humans: { owner: 'owner' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
  });
  ({ db, mission } = w);
  const { h, owner } = w;
  for (const content of ['déjà vu — « guillemets »', 'emoji 🧵 and \u2028', 'a "quoted" \\ back\tslash']) {
    await h.expectOk(h.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content }, { groupId: mission.groupId, membershipEpoch: 1 }));
  }
});

/** Runs one binary COPY and returns each row's fields, copied out (null as null). */
async function copyRows(text: string): Promise<(Buffer | null)[][]> {
  const rows: (Buffer | null)[][] = [];
  const copy = new BinaryCopyOut(text, (bytes, starts, ends, count) => {
    rows.push(Array.from({ length: count }, (_, i) => ((ends[i] as number) < 0 ? null : Buffer.from(bytes.subarray(starts[i], ends[i])))));
  });
  const { client, release } = await checkOut(db.pool);
  try {
    client.query(copy);
    await copy.done;
  } finally {
    release();
  }
  return rows;
}

/** A binary COPY stream of `rows` (text fields, null as -1), as PostgreSQL writes it. */
function copyStream(rows: (string | null)[][]): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)];
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(row.length);
    parts.push(count);
    for (const field of row) {
      const length = Buffer.alloc(4);
      const bytes = field === null ? Buffer.alloc(0) : Buffer.from(field, 'utf8');
      length.writeInt32BE(field === null ? -1 : bytes.length);
      parts.push(length, bytes);
    }
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

describe('binary COPY reads', () => {
  it('serve the same Events as the string read, byte for byte, and a redacted one as its rendering', async () => {
    const strings = await readServedEventsAfter(db.pool, mission.groupId, 0, 1_000);
    const target = strings[strings.length - 1];
    if (target === undefined) throw new Error('no Events');
    const rendering = target.document.replace('back', 'REDACTED');
    await insertEventRedaction(db.pool, { groupId: mission.groupId, sequence: target.sequence, eventId: target.eventId, redactedBy: `urn:uuid:${randomUUID()}`, document: rendering });
    const served = await readServedEventsAfter(db.pool, mission.groupId, 0, 1_000);
    expect(served[served.length - 1]?.document).toBe(rendering);
    const bytes: { sequence: number; eventId: string; kind: string; document: string }[] = [];
    const count = await readServedEventBytesAfter(db.pool, mission.groupId, 0, 1_000, (event) => {
      const document = Buffer.from(event.bytes.subarray(event.documentStart, event.documentEnd));
      bytes.push({ sequence: event.sequence, eventId: event.bytes.toString('utf8', event.eventIdStart, event.eventIdEnd), kind: event.kind, document: document.toString('hex') });
    });
    expect(count).toBe(served.length);
    expect(bytes).toEqual(served.map((row) => ({ sequence: row.sequence, eventId: row.eventId, kind: row.kind, document: Buffer.from(row.document, 'utf8').toString('hex') })));
    const later: number[] = [];
    await readServedEventBytesAfter(db.pool, mission.groupId, 2, 2, (event) => later.push(event.sequence));
    expect(later).toEqual([3, 4]);
  });

  it('splice literals that keep quotes, backslashes and any text intact, and refuse what is not an integer', async () => {
    const texts = ["it's", 'back\\slash', "both ' and \\ and \\'", 'é 🧵 \u2028', "'; drop table events; --"];
    const rows = await copyRows(`copy (select ${texts.map(literal).join(', ')}, null::text, ${integer(2 ** 40)}::bigint) to stdout (format binary)`);
    expect(rows).toHaveLength(1);
    const [row] = rows as [(Buffer | null)[]];
    expect(row.slice(0, texts.length).map((field) => field?.toString('utf8'))).toEqual(texts);
    expect(row[texts.length]).toBeNull();
    expect(row[texts.length + 1]?.readBigInt64BE()).toBe(2n ** 40n);
    expect(() => integer(1.5)).toThrow();
    expect(() => integer(2 ** 53)).toThrow();
    expect(() => literal('nul \0')).toThrow();
  });

  it('parse a stream cut anywhere, and refuse one that is not binary COPY', () => {
    const rows = [['urn:e:1', 'déjà'], [null, ''], ['x'.repeat(300), '🧵']];
    const stream = copyStream(rows);
    for (let cut = 1; cut < stream.length; cut += 7) {
      for (const step of [cut, 3]) {
        const seen: (string | null)[][] = [];
        const copy = new BinaryCopyOut('', (bytes, starts, ends, count) => {
          seen.push(Array.from({ length: count }, (_, i) => ((ends[i] as number) < 0 ? null : bytes.toString('utf8', starts[i], ends[i]))));
        });
        // Each chunk is handed over in a buffer that is then overwritten, as pg reuses its own.
        for (let at = 0; at < stream.length; at += step) {
          const chunk = Buffer.from(stream.subarray(at, Math.min(stream.length, at + step)));
          copy.handleCopyData({ chunk });
          chunk.fill(0);
        }
        copy.handleReadyForQuery();
        expect(seen).toEqual(rows);
      }
    }
    const wrong = new BinaryCopyOut('', () => undefined);
    wrong.handleCopyData({ chunk: Buffer.from('not a copy stream at all') });
    wrong.handleReadyForQuery();
    return expect(wrong.done).rejects.toThrow('not a binary COPY stream');
  });
});
