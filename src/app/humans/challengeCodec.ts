/**
 * Stateless human-session challenges (docs/human-api.md): the challengeId carries the transcript's
 * fields, authenticated by an HMAC-SHA256 under a secret this node made at start and keeps in
 * memory only. Issuing a challenge therefore stores nothing, so no number of challenge requests
 * for one human, or for made-up ones, can fill a table and lock anyone out. Another node or a
 * restart does not know the secret: its challenges fail the MAC there, AUTH_REQUIRED, and the
 * console signs in again.
 *
 * Layout (then canonical base64url): version 1 (1 byte) | expiresAt, ms since the epoch (6
 * bytes, big-endian) | challenge nonce (32 bytes) | humanId, keyId, audience, each a 2-byte
 * big-endian length and its UTF-8 bytes | HMAC-SHA256 of everything before it (32 bytes).
 * `decode` checks the MAC in constant time before it reads any field.
 */

import { createHmac, timingSafeEqual } from 'node:crypto';
import { decodeBase64url, encodeBase64url } from '../../protocol/base64url.js';

const VERSION = 1;
const EXPIRY_BYTES = 6;
export const CHALLENGE_NONCE_BYTES = 32;
const MAC_BYTES = 32;
const FIELDS = 3;
/** Version, expiry, nonce and MAC: what a challengeId holds besides its three strings. */
const FIXED_BYTES = 1 + EXPIRY_BYTES + CHALLENGE_NONCE_BYTES + FIELDS * 2 + MAC_BYTES;

export interface ChallengeFields {
  readonly expiresAtMillis: number;
  /** The transcript's `challenge`, base64url. */
  readonly nonce: string;
  readonly humanId: string;
  readonly keyId: string;
  readonly audience: string;
}

/** The longest challengeId whose three strings are each at most `maxFieldChars` UTF-16 units. */
export function maxChallengeIdChars(maxFieldChars: number): number {
  // A UTF-16 unit takes at most 3 UTF-8 bytes (a surrogate pair: 4 bytes for 2 units).
  return Math.ceil(((FIXED_BYTES + FIELDS * 3 * maxFieldChars) * 4) / 3);
}

function mac(secret: Buffer, bytes: Buffer): Buffer {
  return createHmac('sha256', secret).update(bytes).digest();
}

export function encodeChallengeId(secret: Buffer, fields: ChallengeFields): string {
  const head = Buffer.alloc(1 + EXPIRY_BYTES);
  head.writeUInt8(VERSION, 0);
  head.writeUIntBE(fields.expiresAtMillis, 1, EXPIRY_BYTES);
  const parts: Buffer[] = [head, Buffer.from(fields.nonce, 'base64url')];
  for (const text of [fields.humanId, fields.keyId, fields.audience]) {
    const bytes = Buffer.from(text, 'utf8');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(bytes.length, 0);
    parts.push(length, bytes);
  }
  const body = Buffer.concat(parts);
  return encodeBase64url(Buffer.concat([body, mac(secret, body)]));
}

/** The fields a challengeId made under `secret` carries; undefined for anything else. */
export function decodeChallengeId(secret: Buffer, challengeId: string): ChallengeFields | undefined {
  const bytes = decodeBase64url(challengeId);
  if (bytes === null || bytes.length < FIXED_BYTES) return undefined;
  const body = bytes.subarray(0, bytes.length - MAC_BYTES);
  if (!timingSafeEqual(mac(secret, body), bytes.subarray(bytes.length - MAC_BYTES))) return undefined;
  // Authentic from here on: this node wrote these bytes, so the reads below stay within them.
  if (body.readUInt8(0) !== VERSION) return undefined;
  const expiresAtMillis = body.readUIntBE(1, EXPIRY_BYTES);
  let offset = 1 + EXPIRY_BYTES;
  const nonce = encodeBase64url(body.subarray(offset, offset + CHALLENGE_NONCE_BYTES));
  offset += CHALLENGE_NONCE_BYTES;
  const texts: string[] = [];
  for (let i = 0; i < FIELDS; i++) {
    if (offset + 2 > body.length) return undefined;
    const length = body.readUInt16BE(offset);
    if (offset + 2 + length > body.length) return undefined;
    texts.push(body.toString('utf8', offset + 2, offset + 2 + length));
    offset += 2 + length;
  }
  const [humanId, keyId, audience] = texts as [string, string, string];
  return { expiresAtMillis, nonce, humanId, keyId, audience };
}
