/**
 * `COPY (select …) TO STDOUT (FORMAT binary)` read as raw bytes. `pg` decodes every field of a
 * query's DataRow to a string, even in its `binary` mode (pg-protocol's `parseDataRowMessage`
 * calls `reader.string`), so a column of stored UTF-8 text cannot reach a socket without a
 * decode and a re-encode. COPY's CopyData messages reach a query object as Buffers: in binary
 * format a `text` field is its bytes as stored, a `bigint` eight big-endian bytes. Replay reads
 * its pages this way (`sql/replayRows.ts`); the profile showed the decode, the re-encode and
 * the garbage they make were over 40 % of the replaying thread (docs/perf/where-the-time-goes.md).
 *
 * COPY takes no bind parameters, so its statement is built with `literal` and integers only.
 */

import type pg from 'pg';

/** The 11-byte signature, then a 32-bit flags field and a 32-bit header extension length. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const HEADER_BYTES = SIGNATURE.length + 8;

/**
 * One row's fields as views into the message that carried them: valid only while `onRow` runs
 * (pg reuses its read buffer), so a consumer copies what it keeps. A null field ends at -1.
 */
export type CopyRowHandler = (row: Buffer, fieldStarts: Int32Array, fieldEnds: Int32Array, fieldCount: number) => void;

/** A PostgreSQL string literal for `text`, escaped as `pg`'s `escapeLiteral` does (any `standard_conforming_strings`). */
export function literal(text: string): string {
  if (text.includes('\0')) throw new Error('a literal cannot hold NUL');
  const quoted = `'${text.replaceAll("'", "''")}'`;
  return text.includes('\\') ? `E${quoted.replaceAll('\\', '\\\\')}` : quoted;
}

/** An integer to splice into a statement; anything else is refused. */
export function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not a safe integer: ${value}`);
  return String(value);
}

/**
 * A `pg` query object (`Submittable`) for one binary COPY out: `client.query(copy)`, then await
 * `copy.done`. Rows are parsed as their CopyData messages arrive; a row split over messages
 * (not what PostgreSQL sends, but allowed) is joined first.
 */
export class BinaryCopyOut implements pg.Submittable {
  readonly done: Promise<number>;
  private settle!: (error: Error | undefined) => void;
  private rows = 0;
  private headerSeen = false;
  private pending: Buffer | undefined;
  private failure: Error | undefined;
  private readonly starts = new Int32Array(16);
  private readonly ends = new Int32Array(16);

  constructor(
    private readonly text: string,
    private readonly onRow: CopyRowHandler,
  ) {
    this.done = new Promise<number>((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve(this.rows) : reject(error));
    });
  }

  submit(connection: pg.Connection): void {
    (connection as unknown as { query(text: string): void }).query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    if (this.failure !== undefined) return;
    try {
      this.take(message.chunk);
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
    }
  }

  private take(chunk: Buffer): void {
    let bytes = chunk;
    if (this.pending !== undefined) {
      bytes = Buffer.concat([this.pending, chunk]);
      this.pending = undefined;
    }
    let offset = 0;
    if (!this.headerSeen) {
      if (bytes.length < HEADER_BYTES) {
        this.pending = Buffer.from(bytes);
        return;
      }
      if (!bytes.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
      offset = HEADER_BYTES + bytes.readUInt32BE(SIGNATURE.length + 4);
      this.headerSeen = true;
    }
    while (offset + 2 <= bytes.length) {
      const fieldCount = bytes.readInt16BE(offset);
      if (fieldCount === -1) return; // the trailer
      if (fieldCount > this.starts.length) throw new Error(`a COPY row of ${fieldCount} fields`);
      let at = offset + 2;
      let complete = true;
      for (let i = 0; i < fieldCount; i++) {
        if (at + 4 > bytes.length) {
          complete = false;
          break;
        }
        const length = bytes.readInt32BE(at);
        at += 4;
        this.starts[i] = at;
        this.ends[i] = length < 0 ? -1 : at + length;
        if (length > 0) at += length;
        if (at > bytes.length) {
          complete = false;
          break;
        }
      }
      if (!complete) break;
      this.rows++;
      this.onRow(bytes, this.starts, this.ends, fieldCount);
      offset = at;
    }
    // A row cut short: kept (copied, since pg reuses the buffer) until the rest arrives.
    if (offset < bytes.length) this.pending = Buffer.from(bytes.subarray(offset));
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {
    this.settle(this.failure ?? (this.pending === undefined ? undefined : new Error('a binary COPY stream ended inside a row')));
  }

  handleError(error: Error): void {
    this.settle(error);
  }

  handleRowDescription(): void {
    this.failure ??= new Error('a COPY statement returned rows');
  }

  handleDataRow(): void {}

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: pg.Connection): void {
    (connection as unknown as { sendCopyFail(message: string): void }).sendCopyFail('COPY FROM is not read here');
  }
}
