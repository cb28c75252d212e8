/**
 * A page of replay, read as bytes and framed without strings: each served Event's stored text
 * is copied once, from the database's message into its EVENT frame (§17.4: the frame wraps the
 * signed text verbatim, so the bytes are those of `eventFrame`), behind its WebSocket header
 * (`wireFrame.ts`). The frames of a page are cut from shared slabs, so a page of 500 Events
 * costs a few allocations, not thousands — the garbage collector was a third of the replaying
 * thread (docs/perf/where-the-time-goes.md) — and lie end to end, so they leave in one write.
 */

import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import type { StoredEventBytes } from '../store/sql/replayRows.js';
import { changesMembership } from './deliveryEvent.js';
import { headerBytes, writeHeader } from './wireFrame.js';

const PREFIX = Buffer.from('{"event":', 'latin1');
const MIDDLE = Buffer.from(',"frameId":', 'latin1');
const SUFFIX = Buffer.from(',"frameType":"EVENT","protocolVersion":"0.1"}', 'latin1');
const FIXED = PREFIX.length + MIDDLE.length + SUFFIX.length;

/**
 * Bytes per slab: a few hundred ~1.5 KB frames. A slab lives while any of its frames is queued,
 * so it is kept small next to the connection's queued-bytes budget (`maxQueuedEventBytes`).
 */
const SLAB_BYTES = 256 * 1024;

/** The Events of one replay page, in order: parallel arrays, no object per Event. */
export interface ReplayPage {
  readonly sequences: number[];
  /** Each EVENT frame on the wire (WebSocket header, then the frame's UTF-8 bytes). */
  readonly wires: Buffer[];
  /** Whether each Event may have changed a Membership (its subscriber re-checks its own). */
  readonly changesMembership: boolean[];
}

/** Reads one page: `read` calls back once per served Event, in order. */
export type ReplayRead = (onEvent: (event: StoredEventBytes) => void) => Promise<number>;

/** Whether `bytes[start, end)` is printable ASCII with no `"` or `\`: JSON.stringify would only add quotes. */
function plainAscii(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = bytes[i] as number;
    if (byte < 0x20 || byte > 0x7e || byte === 0x22 || byte === 0x5c) return false;
  }
  return true;
}

/** Assembles wire frames into slabs; each is a view of the slab it was written to, after the previous one. */
export class FrameAssembler {
  private slab = Buffer.alloc(0);
  private used = 0;

  wire(event: StoredEventBytes): Buffer {
    const { bytes, eventIdStart, eventIdEnd, documentStart, documentEnd } = event;
    // The frame ID member is JSON.stringify(eventId), as `eventFrame` writes it.
    const plainId = plainAscii(bytes, eventIdStart, eventIdEnd);
    const quotedId = plainId ? undefined : Buffer.from(JSON.stringify(bytes.toString('utf8', eventIdStart, eventIdEnd)), 'utf8');
    const idBytes = quotedId === undefined ? eventIdEnd - eventIdStart + 2 : quotedId.length;
    const length = FIXED + (documentEnd - documentStart) + idBytes;
    const size = headerBytes(length) + length;
    if (this.slab.length - this.used < size) {
      this.slab = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, size));
      this.used = 0;
    }
    const slab = this.slab;
    const start = this.used;
    let at = writeHeader(slab, start, length);
    at += PREFIX.copy(slab, at);
    at += bytes.copy(slab, at, documentStart, documentEnd);
    at += MIDDLE.copy(slab, at);
    if (quotedId === undefined) {
      slab[at++] = 0x22;
      at += bytes.copy(slab, at, eventIdStart, eventIdEnd);
      slab[at++] = 0x22;
    } else {
      at += quotedId.copy(slab, at);
    }
    at += SUFFIX.copy(slab, at);
    this.used = at;
    return slab.subarray(start, at);
  }
}

/** Reads and frames one page. */
export async function readReplayPage(kinds: KindRegistry, read: ReplayRead): Promise<ReplayPage> {
  const page: ReplayPage = { sequences: [], wires: [], changesMembership: [] };
  const assembler = new FrameAssembler();
  await read((event) => {
    page.sequences.push(event.sequence);
    page.wires.push(assembler.wire(event));
    page.changesMembership.push(changesMembership(kinds, event.kind));
  });
  return page;
}
