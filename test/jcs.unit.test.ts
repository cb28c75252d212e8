/**
 * RFC 8785 canonicalization (§2, §6.4 stage 5): the cyberphone vectors, the Appendix B number
 * samples, refusal of values outside the I-JSON data model, key order by UTF-16 code units, and
 * the omission of exactly the top-level member for signing.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../src/protocol/errorCodes.js';
import { canonicalBytes, canonicalBytesWithout, canonicalize, canonicalMembers, joinCanonicalMembers, withCanonicalMember } from '../src/protocol/jcs.js';
import { parseStrictJson, parseStrictJsonText } from '../src/protocol/strictJson.js';
import { describeWithTestdata, TESTDATA_DIR } from './support/spec.js';

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe('PROTOCOL_VIOLATION');
    return (error as ProtocolError).reason;
  }
  throw new Error('expected a ProtocolError, got a value');
}

/** The binary64 whose IEEE 754 bits are `hex` (1-16 hex digits). */
function doubleFromHex(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

function lines(relative: string): string[] {
  return readFileSync(join(TESTDATA_DIR, relative), 'utf8').split('\n').filter((l) => l.trim() !== '');
}

describeWithTestdata('JCS: cyberphone/json-canonicalization vectors', () => {
  const dir = join(TESTDATA_DIR, 'jcs');
  const names = readdirSync(join(dir, 'input')).filter((f) => f.endsWith('.json')).sort();

  it('has the six upstream vectors', () => {
    expect(names).toStrictEqual(['arrays.json', 'french.json', 'structures.json', 'unicode.json', 'values.json', 'weird.json']);
  });

  it.each(names)('%s', (name) => {
    const input = readFileSync(join(dir, 'input', name));
    const expected = readFileSync(join(dir, 'output', name));
    const hex = readFileSync(join(dir, 'outhex', name.replace(/\.json$/, '.txt')), 'utf8');
    expect(Buffer.from(hex.replace(/\s+/g, ''), 'hex')).toStrictEqual(expected);
    const value: unknown = JSON.parse(input.toString('utf8'));
    expect(canonicalize(value)).toBe(expected.toString('utf8'));
    expect(canonicalBytes(value)).toStrictEqual(expected);
    // The strict stage-1 parser reads the same values, and canonical output is a fixed point.
    expect(canonicalBytes(parseStrictJson(input))).toStrictEqual(expected);
    expect(canonicalBytes(parseStrictJson(expected))).toStrictEqual(expected);
  });
});

describeWithTestdata('JCS: number serialization (RFC 8785 Appendix B and samples)', () => {
  const rows = lines('jcs-numbers/rfc8785-appendixB-and-samples.csv').map((l) => l.split(','));

  it('has the 26 documented rows', () => {
    expect(rows).toHaveLength(26);
  });

  it.each(rows)('%s -> %s', (hex, expected) => {
    const n = doubleFromHex(hex as string);
    expect(canonicalize(n)).toBe(expected);
    expect(canonicalize([n, { n }])).toBe(`[${expected},{"n":${expected}}]`);
    // The canonical text reads back as the same binary64 (-0 becomes 0, which RFC 8785 wants).
    expect(JSON.parse(expected as string)).toBe(n === 0 ? 0 : n);
  });

  it.each(lines('jcs-numbers/must-reject.txt').map((l) => l.split(' ')))('refuses %s (%s)', (hex) => {
    const n = doubleFromHex(hex as string);
    expect(Number.isFinite(n)).toBe(false);
    expect(reasonOf(() => canonicalize(n))).toBe('jcs-non-finite-number');
    expect(reasonOf(() => canonicalBytes({ a: [1, n] }))).toBe('jcs-non-finite-number');
    expect(reasonOf(() => canonicalBytesWithout({ signature: 1, a: n }, 'signature'))).toBe('jcs-non-finite-number');
  });
});

describe('JCS: numbers', () => {
  it('refuses every NaN and infinity, including other NaN payloads and 1e400 from stage 1', () => {
    for (const hex of ['7ff8000000000000', 'fff8000000000000', '7ff0000000000001', 'ffffffffffffffff']) {
      expect(reasonOf(() => canonicalize(doubleFromHex(hex)))).toBe('jcs-non-finite-number');
    }
    expect(reasonOf(() => canonicalize(parseStrictJsonText('{"big":1e400}')))).toBe('jcs-non-finite-number');
    expect(reasonOf(() => canonicalize(parseStrictJsonText('-1e400')))).toBe('jcs-non-finite-number');
  });

  it('serializes like ECMAScript Number#toString', () => {
    expect(canonicalize([-0, 1e21, 1e-7, 123e-20, 0.000001, 100, 1.5, -1e300])).toBe(
      '[0,1e+21,1e-7,1.23e-18,0.000001,100,1.5,-1e+300]',
    );
    expect(canonicalize(parseStrictJsonText('[1.0, 1E2, 0.10, -0.0, 9007199254740993]'))).toBe(
      '[1,100,0.1,0,9007199254740992]',
    );
  });

  it('matches Number#toString on arbitrary finite doubles', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(canonicalize(n)).toBe(Object.is(n, -0) ? '0' : String(n));
        expect(Object.is(JSON.parse(canonicalize(n)), n === 0 ? 0 : n)).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('JCS: strings', () => {
  it('escapes exactly as RFC 8785 §3.2.2.2 says', () => {
    const short: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
    for (let c = 0; c < 0x20; c++) {
      const expected = short[c] ?? `\\u${c.toString(16).padStart(4, '0')}`;
      expect(canonicalize(String.fromCharCode(c))).toBe(`"${expected}"`);
    }
    expect(canonicalize('"\\/\u007f\u0080\u2028\u2029\ufeff\uffff')).toBe('"\\"\\\\/\u007f\u0080\u2028\u2029\ufeff\uffff"');
    expect(canonicalBytes('\u{1f600}\u20ac')).toStrictEqual(Buffer.from('22f09f9880e282ac22', 'hex'));
  });

  it.each([
    ['lone high surrogate', '\ud800'],
    ['lone low surrogate', '\udc00'],
    ['high surrogate at the end', 'abc\ud83d'],
    ['low surrogate first', '\ude00x'],
    ['reversed pair', '\ude00\ud83d'],
    ['two high surrogates', '\ud83d\ud83d\ude00'],
  ])('refuses an unpaired surrogate: %s, as value and as member name', (_name, s) => {
    expect(reasonOf(() => canonicalize(s))).toBe('jcs-unpaired-surrogate');
    expect(reasonOf(() => canonicalize({ ok: [s] }))).toBe('jcs-unpaired-surrogate');
    expect(reasonOf(() => canonicalize({ [s]: 1 }))).toBe('jcs-unpaired-surrogate');
  });

  it('refuses a surrogate escape that stage 1 kept, and accepts a proper pair', () => {
    expect(reasonOf(() => canonicalBytes(parseStrictJsonText('{"a":"\\udead"}')))).toBe('jcs-unpaired-surrogate');
    expect(canonicalize(parseStrictJsonText('"\\ud83d\\ude00"'))).toBe('"\u{1f600}"');
  });
});

describe('JCS: member order', () => {
  it('sorts members by UTF-16 code units, not code points or insertion order', () => {
    const value = {
      '\ufb33': 1, '\u{1f600}': 2, '\u20ac': 3, a: 4, B: 5, 10: 6, 2: 7, '': 8, '1': 9, '\u0080': 10,
    };
    // U+FB33 sorts after U+1F600 because the latter starts with the code unit 0xD83D.
    expect(canonicalize(value)).toBe(
      '{"":8,"1":9,"10":6,"2":7,"B":5,"a":4,"\u0080":10,"\u20ac":3,"\u{1f600}":2,"\ufb33":1}',
    );
    expect(canonicalize({ '\ud83d\ude00': 'smiley', '\u20ac': 'euro' })).toBe('{"\u20ac":"euro","\u{1f600}":"smiley"}');
  });

  it('is independent of member insertion order, at every level', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'grapheme' }), fc.jsonValue()), (o) => {
        const reversed = Object.fromEntries(Object.entries(o).reverse());
        expect(canonicalize({ x: reversed })).toBe(canonicalize({ x: o }));
      }),
    );
  });
});

describe('JCS: top-level members serialized once', () => {
  it('assemble exactly the canonical text, with a member left out, and with one set', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'grapheme' }), fc.jsonValue()), fc.string({ unit: 'grapheme' }), fc.jsonValue(), (o, name, value) => {
        const record = Object.fromEntries(Object.entries(o)) as Record<string, unknown>;
        const members = canonicalMembers(record);
        expect(joinCanonicalMembers(members)).toBe(canonicalize(record));
        expect(joinCanonicalMembers(members, name)).toBe(canonicalBytesWithout(record, name).toString('utf8'));
        const changed = Object.fromEntries([...Object.entries(record).filter(([k]) => k !== name), [name, value]]);
        expect(joinCanonicalMembers(withCanonicalMember(members, name, value))).toBe(canonicalize(changed));
      }),
    );
  });

  it('refuse what canonicalize refuses', () => {
    expect(() => canonicalMembers({ a: Number.NaN })).toThrow(ProtocolError);
    expect(() => withCanonicalMember([], 'b', '\ud800')).toThrow(ProtocolError);
  });
});

/** An independent reference: sort by code units explicitly, then JSON.stringify. */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort((a, b) => {
      for (let i = 0; i < Math.min(a.length, b.length); i++) {
        if (a.charCodeAt(i) !== b.charCodeAt(i)) return a.charCodeAt(i) - b.charCodeAt(i);
      }
      return a.length - b.length;
    });
    const record = value as Record<string, unknown>;
    return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Any code point, often a lone surrogate code unit (which sometimes pairs up by chance). */
const withSurrogates = fc.oneof(
  { weight: 9, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
);

describe('JCS: properties over arbitrary JSON values', () => {
  it('equals the reference for well-formed values, refuses unpaired surrogates, and is a fixed point', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: withSurrogates }), (v) => {
        if (!isWellFormedDeep(v)) {
          expect(reasonOf(() => canonicalize(v))).toBe('jcs-unpaired-surrogate');
          return;
        }
        const text = canonicalize(v);
        expect(text).toBe(reference(v));
        expect(canonicalBytes(v)).toStrictEqual(Buffer.from(text, 'utf8'));
        expect(canonicalize(parseStrictJson(Buffer.from(text, 'utf8')))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});

function isWellFormedDeep(v: unknown): boolean {
  if (typeof v === 'string') return v.isWellFormed();
  if (Array.isArray(v)) return v.every(isWellFormedDeep);
  if (v !== null && typeof v === 'object') {
    return Object.entries(v).every(([k, x]) => k.isWellFormed() && isWellFormedDeep(x));
  }
  return true;
}

describe('JCS: values outside the data model are refused', () => {
  class Thing {
    a = 1;
  }
  const sparse: unknown[] = [1];
  sparse[2] = 3;

  it.each([
    ['undefined', undefined],
    ['undefined member', { a: undefined }],
    ['undefined element', [undefined]],
    ['array hole', sparse],
    ['function', () => 1],
    ['bigint', 1n],
    ['symbol', Symbol('s')],
    ['Date', new Date(0)],
    ['Map', new Map()],
    ['class instance', new Thing()],
    ['boxed number', Object(1) as unknown],
    ['boxed string', Object('s') as unknown],
    ['Buffer', Buffer.from('x')],
    ['Uint8Array', new Uint8Array(1)],
    ['RegExp', /x/],
  ])('%s', (_name, value) => {
    expect(reasonOf(() => canonicalize(value))).toBe('jcs-unsupported-value');
    expect(reasonOf(() => canonicalize({ nested: [value] }))).toBe('jcs-unsupported-value');
  });

  it('accepts null-prototype objects and ignores toJSON', () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare['b'] = 1;
    bare['a'] = { toJSON: 'plain member' };
    expect(canonicalize(bare)).toBe('{"a":{"toJSON":"plain member"},"b":1}');
  });
});

describe('JCS: canonicalBytesWithout omits exactly the top-level member', () => {
  const doc = {
    z: [{ signature: 'in array' }],
    signature: { algorithm: 'Ed25519', value: 'xyz' },
    a: { signature: 'nested' },
    signatures: 1,
  };

  it('keeps nested members of that name and similar names', () => {
    expect(canonicalBytesWithout(doc, 'signature').toString('utf8')).toBe(
      '{"a":{"signature":"nested"},"signatures":1,"z":[{"signature":"in array"}]}',
    );
    const { signature: _omitted, ...rest } = doc;
    expect(canonicalBytesWithout(doc, 'signature')).toStrictEqual(canonicalBytes(rest));
  });

  it('handles first, last, only and absent members without stray commas', () => {
    expect(canonicalBytesWithout({ signature: 1 }, 'signature').toString()).toBe('{}');
    expect(canonicalBytesWithout({ a: 1, signature: 2 }, 'signature').toString()).toBe('{"a":1}');
    expect(canonicalBytesWithout({ signature: 2, z: 1 }, 'signature').toString()).toBe('{"z":1}');
    expect(canonicalBytesWithout({ a: 1, signature: 2, z: 3 }, 'signature').toString()).toBe('{"a":1,"z":3}');
    expect(canonicalBytesWithout({ a: 1 }, 'signature')).toStrictEqual(canonicalBytes({ a: 1 }));
  });

  it('never changes the input and still refuses bad values elsewhere', () => {
    const before = JSON.stringify(doc);
    canonicalBytesWithout(doc, 'signature');
    expect(JSON.stringify(doc)).toBe(before);
    // The omitted member is not even inspected; every other member is.
    expect(canonicalBytesWithout({ signature: undefined, a: 1 }, 'signature').toString()).toBe('{"a":1}');
    expect(reasonOf(() => canonicalBytesWithout({ signature: 1, a: '\ud800' }, 'signature'))).toBe(
      'jcs-unpaired-surrogate',
    );
  });
});
