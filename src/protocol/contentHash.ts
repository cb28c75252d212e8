/**
 * Content hashes (`sha256:<64 lower-case hex>`, §2) and the §6.4 signing hash.
 */

import { createHash } from 'node:crypto';

const CONTENT_HASH = /^sha256:[0-9a-f]{64}$/;

export type ContentHash = `sha256:${string}`;

/** True when `text` is a v0.1 content hash. */
export function isContentHash(text: string): text is ContentHash {
  return CONTENT_HASH.test(text);
}

/** The content hash of exact bytes. */
export function sha256ContentHash(bytes: Uint8Array | string): ContentHash {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}
