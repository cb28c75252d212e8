/**
 * Strict parsing of untrusted JSON bytes (§6.4 stage 1, §17.4).
 *
 * Exactly one UTF-8 JSON value: no byte-order mark, no trailing data, no duplicate member names
 * after escape decoding, bounded size and nesting depth. Numbers become binary64 values; a
 * number outside the finite binary64 domain (it parses to ±Infinity) and a string holding an
 * unpaired surrogate are kept as they are, because §6.4 classifies both at stage 5 (JCS), not
 * here.
 *
 * The hot path lets V8's native JSON.parse do the grammar and catches what it tolerates
 * (duplicates, depth) with one linear pre-scan plus one member count. When anything fails, the
 * slow, fully explicit parser in `explainJson.ts` names the precise reason.
 */

import { ProtocolError } from './errorCodes.js';
import { explainJsonFailure } from './explainJson.js';
import type { JsonValue } from './jsonValue.js';

// Named here too, where most modules already import them from, beside the parser.
export type { JsonObject, JsonValue } from './jsonValue.js';

export interface StrictJsonLimits {
  /** Largest accepted document in UTF-8 bytes. */
  readonly maxBytes: number;
  /** Deepest accepted nesting of arrays and objects (the top-level container is depth 1). */
  readonly maxDepth: number;
}

/**
 * Protocol documents are small (large content travels as Artifacts, §17.4); 1 MiB leaves ample
 * room for a Group Snapshot while bounding the work any one input can cost. 64 levels is far
 * deeper than any schema needs and keeps every later recursive walk safe from stack exhaustion.
 */
export const DEFAULT_JSON_LIMITS: StrictJsonLimits = { maxBytes: 1024 * 1024, maxDepth: 64 };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function violation(reason: string, message: string): ProtocolError {
  return new ProtocolError('PROTOCOL_VIOLATION', reason, message);
}

/** Decodes bytes as strict UTF-8 text, refusing a byte-order mark and invalid sequences. */
export function decodeUtf8Strict(bytes: Uint8Array, limits = DEFAULT_JSON_LIMITS): string {
  if (bytes.length > limits.maxBytes) {
    throw violation('json-too-large', `document exceeds ${limits.maxBytes} bytes`);
  }
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw violation('json-byte-order-mark', 'a UTF-8 byte-order mark is not permitted');
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw violation('json-invalid-utf8', 'document is not valid UTF-8');
  }
}

/** Parses exactly one JSON value from untrusted bytes. Throws `PROTOCOL_VIOLATION`. */
export function parseStrictJson(bytes: Uint8Array, limits = DEFAULT_JSON_LIMITS): JsonValue {
  return parseDecoded(decodeUtf8Strict(bytes, limits), limits);
}

/**
 * Parses exactly one JSON value from text that is already known to be well-formed UTF-16
 * decoded from UTF-8 (for example a WebSocket text frame, which `ws` validates as UTF-8).
 * `limits.maxBytes` bounds the text's UTF-8 length, exactly as for `parseStrictJson`.
 */
export function parseStrictJsonText(text: string, limits = DEFAULT_JSON_LIMITS): JsonValue {
  // A JS string of n code units is n to 3n UTF-8 bytes: count them only when that matters.
  if (
    text.length > limits.maxBytes ||
    (text.length * 3 > limits.maxBytes && Buffer.byteLength(text, 'utf8') > limits.maxBytes)
  ) {
    throw violation('json-too-large', `document exceeds ${limits.maxBytes} bytes`);
  }
  return parseDecoded(text, limits);
}

/** The parse proper, for text whose UTF-8 size is already known to be within the limit. */
function parseDecoded(text: string, limits: StrictJsonLimits): JsonValue {
  if (text.charCodeAt(0) === 0xfeff) {
    throw violation('json-byte-order-mark', 'a byte-order mark is not permitted');
  }
  const scan = prescan(text, limits.maxDepth);
  if (scan < 0) {
    throw violation('json-too-deep', `nesting deeper than ${limits.maxDepth} levels`);
  }
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    throw explained(text, limits);
  }
  // Every ':' outside a string separates one member; fewer members than separators means a
  // later duplicate silently replaced an earlier one.
  if (countMembers(value) !== scan) {
    throw explained(text, limits);
  }
  return value;
}

function explained(text: string, limits: StrictJsonLimits): ProtocolError {
  const failure = explainJsonFailure(text, limits.maxDepth);
  return violation(failure.reason, failure.message);
}

/**
 * One pass over the text: returns the number of member separators outside strings, or -1 when
 * the nesting depth exceeds `maxDepth`. It trusts nothing; JSON.parse judges the grammar.
 */
function prescan(text: string, maxDepth: number): number {
  let depth = 0;
  let colons = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string body; an escape consumes the next code unit whatever it is.
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return -1;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    } else if (c === 0x3a) {
      colons++;
    }
  }
  return colons;
}

function countMembers(value: JsonValue): number {
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += countMembers(item);
    return count;
  }
  for (const key of Object.keys(value)) {
    count += 1 + countMembers(value[key] as JsonValue);
  }
  return count;
}
