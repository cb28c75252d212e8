/**
 * Group Event frames as they go on the wire: the WebSocket header of a final, unmasked text
 * frame (RFC 6455 §5.2, what a server sends) followed by the UTF-8 EVENT frame. Built once per
 * Event, so a socket sends queued Events as they lie in memory — consecutive replayed frames
 * are adjacent in their slab and leave in one write (`Outbox`) — instead of one `ws` send, one
 * header allocation and two stream writes per Event per subscriber.
 */

/** Header bytes for a payload of `length` bytes: 7-bit, 16-bit or 64-bit length. */
export function headerBytes(length: number): number {
  return length < 126 ? 2 : length < 65_536 ? 4 : 10;
}

/** Writes the header of a text frame of `length` payload bytes at `at`; returns where the payload starts. */
export function writeHeader(target: Buffer, at: number, length: number): number {
  target[at] = 0x81; // FIN, opcode 1 (text)
  if (length < 126) {
    target[at + 1] = length;
    return at + 2;
  }
  if (length < 65_536) {
    target[at + 1] = 126;
    target.writeUInt16BE(length, at + 2);
    return at + 4;
  }
  target[at + 1] = 127;
  target.writeUInt32BE(Math.floor(length / 2 ** 32), at + 2);
  target.writeUInt32BE(length >>> 0, at + 6);
  return at + 10;
}

/** The wire bytes of a text frame holding `text`. */
export function wireFrameOf(text: string): Buffer {
  const length = Buffer.byteLength(text, 'utf8');
  const wire = Buffer.allocUnsafe(headerBytes(length) + length);
  wire.write(text, writeHeader(wire, 0, length), 'utf8');
  return wire;
}

/** The payload of a wire frame (its EVENT frame bytes), as a view. */
export function payloadOf(wire: Buffer): Buffer {
  const length7 = (wire[1] as number) & 0x7f;
  return wire.subarray(length7 < 126 ? 2 : length7 === 126 ? 4 : 10);
}
