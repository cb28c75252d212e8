/**
 * RFC 8785 JSON Canonicalization Scheme in the page, so a Command or an Approval is signed over
 * exactly the bytes the Authority verifies (§6.4, §17.4). The same rules as the server's
 * src/protocol/jcs.ts (test/consoleJcs.unit.test.ts compares them on the RFC vectors): members
 * sorted by UTF-16 code units, ECMAScript string escaping and shortest number form, and values
 * outside I-JSON refused rather than rewritten (a NaN would otherwise sign as `null`).
 */

/** In `u` mode a paired surrogate is one code point, so only a lone one matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;

function serialize(value: unknown, skipTopLevel: string | undefined): string {
  switch (typeof value) {
    case 'string':
      if (LONE_SURROGATE.test(value)) throw new Error('JCS: a string contains an unpaired surrogate');
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Error('JCS: a number is not finite');
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map((item) => serialize(item, undefined)).join(',')}]`;
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new Error('JCS: only plain objects');
      const record = value as Record<string, unknown>;
      const members = Object.keys(record)
        .filter((key) => key !== skipTopLevel && record[key] !== undefined)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${serialize(record[key], undefined)}`);
      return `{${members.join(',')}}`;
    }
    default:
      throw new Error(`JCS: a ${typeof value} is not a JSON value`);
  }
}

/** The canonical text of a JSON value. */
export function canonicalize(value: unknown): string {
  return serialize(value, undefined);
}

/** The v0.1 signing input: the canonical UTF-8 bytes without the top-level `signature` (§6.4). */
export function signingBytes(document: Record<string, unknown>): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(serialize(document, 'signature'));
}
