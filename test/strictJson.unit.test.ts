/**
 * Stage-1 strict JSON (§6.4): one UTF-8 value, no BOM, no trailing data, no duplicate decoded
 * member names, bounded size and depth; 1e400 and "\ud800" are stage-5 matters, not parse errors.
 * The fast path (`parseStrictJsonText`) is checked against the explicit parser as an oracle.
 */

import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../src/protocol/errorCodes.js';
import { parseJsonExplicit } from '../src/protocol/explainJson.js';
import {
  DEFAULT_JSON_LIMITS,
  decodeUtf8Strict,
  parseStrictJson,
  parseStrictJsonText,
  type JsonValue,
} from '../src/protocol/strictJson.js';
import { expectSame } from './support/cheapExpect.js';

/** The `reason` of the ProtocolError that `run` throws (fails the test when it does not). */
function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ProtocolError)) expect(error).toBeInstanceOf(ProtocolError);
    expectSame((error as ProtocolError).code, 'PROTOCOL_VIOLATION');
    return (error as ProtocolError).reason;
  }
  throw new Error('expected a ProtocolError, got a value');
}

const text = (s: string): string => reasonOf(() => parseStrictJsonText(s));
const bytes = (b: number[] | Buffer): string => reasonOf(() => parseStrictJson(Uint8Array.from(b)));
const explicit = (s: string) => parseJsonExplicit(s, DEFAULT_JSON_LIMITS.maxDepth);
const nestArrays = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const nestObjects = (n: number): string => '{"a":'.repeat(n) + '0' + '}'.repeat(n);

describe('parseStrictJson: accepted documents', () => {
  it('parses every JSON type, with JSON whitespace around the value', () => {
    expect(parseStrictJsonText(' \t\r\n{"a":[1,-2.5e3,true,false,null,"x"],"b":{}} \n')).toStrictEqual({
      a: [1, -2500, true, false, null, 'x'],
      b: {},
    });
    expect(parseStrictJson(Buffer.from('"caf\u00e9 \u{1f600}"'))).toBe('caf\u00e9 \u{1f600}');
    expect(parseStrictJsonText('0')).toBe(0);
    expect(Object.is(parseStrictJsonText('-0'), -0)).toBe(true);
  });

  it('reads numbers as binary64 values', () => {
    expect(parseStrictJsonText('0.1')).toBe(0.1);
    expect(parseStrictJsonText('9007199254740993')).toBe(9007199254740992);
    expect(parseStrictJsonText('1E2')).toBe(100);
    expect(parseStrictJsonText('5e-324')).toBe(5e-324);
  });

  it('keeps out-of-range numbers and unpaired surrogates for stage 5 (not parse errors)', () => {
    expect(parseStrictJsonText('1e400')).toBe(Infinity);
    expect(parseStrictJsonText('[-1e400]')).toStrictEqual([-Infinity]);
    expect(parseStrictJson(Buffer.from('"\\ud800"'))).toBe('\ud800');
    const value = parseStrictJsonText('{"\\udc00x":"\\ude00\\ud83d"}') as Record<string, string>;
    expect(Object.keys(value)).toStrictEqual(['\udc00x']);
    expect(value['\udc00x']?.isWellFormed()).toBe(false);
  });

  it('decodes escapes in values and member names', () => {
    expect(parseStrictJsonText('{"\\u0061\\n":"\\ud83d\\ude00\\/\\"\\\\\\b\\f\\r\\t"}')).toStrictEqual({
      'a\n': '\u{1f600}/"\\\b\f\r\t',
    });
  });
});

describe('parseStrictJson: refused documents', () => {
  it('refuses a byte-order mark in bytes and in text', () => {
    expect(bytes([0xef, 0xbb, 0xbf, 0x7b, 0x7d])).toBe('json-byte-order-mark');
    expect(text('\ufeff{}')).toBe('json-byte-order-mark');
    expect(text(' \ufeff{}')).toBe('json-syntax');
  });

  it.each([
    ['lone continuation', [0x22, 0x80, 0x22]], ['invalid byte', [0xff]], ['overlong "/"', [0x22, 0xc0, 0xaf, 0x22]],
    ['UTF-8 encoded surrogate', [0x22, 0xed, 0xa0, 0x80, 0x22]], ['truncated sequence', [0x22, 0xe2, 0x82]],
    ['beyond U+10FFFF', [0x22, 0xf4, 0x90, 0x80, 0x80, 0x22]], ['truncated BOM', [0xef, 0xbb]],
  ])('refuses invalid UTF-8: %s', (_name, b) => {
    expect(bytes(b)).toBe('json-invalid-utf8');
    expect(reasonOf(() => decodeUtf8Strict(Uint8Array.from(b)))).toBe('json-invalid-utf8');
  });

  it.each(['', ' ', ' \r\n\t '])('refuses an empty document %j', (s) => {
    expect(text(s)).toBe('json-empty');
    expect(bytes(Buffer.from(s))).toBe('json-empty');
  });

  it.each([
    '{', '[1,]', '{"a":1,}', '{"a" 1}', '{a:1}', "'a'", '[1 2]', 'NaN', 'Infinity', '-', '01', '1.',
    '.5', '+1', '1e', '0x10', 'tru', 'nul', '"\u0001"', '"a\nb"', '"\\x"', '"\\u12"', '"\\u12G4"', '"abc',
    '/**/1', '\u00a0{}', '{"a":1]', '[}',
  ])('refuses bad syntax %j', (s) => {
    expect(text(s)).toBe('json-syntax');
    expect(explicit(s).ok).toBe(false);
  });

  it.each(['1 2', '{}x', '{}{}', '"a""b"', '[1],', 'null null', '{}\u2028', 'true\u0000', '[1]//'])('refuses trailing data %j', (s) => {
    expect(text(s)).toBe('json-trailing-data');
  });

  it.each([
    '{"a":1,"a":2}', '{"a":1,"a":1}', '{"a":1,"\\u0061":2}', '{"\\u00e9":1,"\u00e9":2}', '{"":1,"":2}',
    '{"\\ud83d\\ude00":1,"\u{1f600}":2}', '[{"x":{"b":[],"b":null}}]', '{"__proto__":1,"__proto__":2}',
  ])('refuses duplicate decoded member names %j', (s) => {
    expect(text(s)).toBe('json-duplicate-member');
    expect(bytes(Buffer.from(s))).toBe('json-duplicate-member');
  });

  it('does not confuse distinct names that JS might conflate', () => {
    expect(parseStrictJsonText('{"1":1,"01":2,"1.0":3,"A":4,"a":5}')).toStrictEqual({ 1: 1, '01': 2, '1.0': 3, A: 4, a: 5 });
    expect(parseStrictJsonText('{"a":{"a":1},"b":{"a":2}}')).toStrictEqual({ a: { a: 1 }, b: { a: 2 } });
  });
});

describe('parseStrictJson: __proto__, constructor and prototype are plain data', () => {
  const doc = '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"prototype":3,' +
    '"n":[{"__proto__":{"polluted":4}}]}';

  const slow = (): unknown => {
    const r = explicit(doc);
    return r.ok ? r.value : expect.unreachable(r.failure.message);
  };
  it.each([['fast path', () => parseStrictJsonText(doc)], ['bytes', () => parseStrictJson(Buffer.from(doc))], ['explicit parser', slow]])('%s', (_name, parse) => {
    const value = parse() as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toStrictEqual(['__proto__', 'constructor', 'prototype', 'n']);
    const own = Object.getOwnPropertyDescriptor(value, '__proto__');
    expect(own).toStrictEqual({ value: { polluted: 1 }, writable: true, enumerable: true, configurable: true });
    expect(Object.getOwnPropertyDescriptor(value, 'constructor')?.value).toStrictEqual({ prototype: { polluted: 2 } });
    const nested = (value['n'] as Record<string, unknown>[])[0] as object;
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
    expect(Object.hasOwn(nested, '__proto__')).toBe(true);
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((value as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('parseStrictJson: size and depth bounds', () => {
  it('accepts nesting 64 and refuses 65 with the default limits', () => {
    expect(DEFAULT_JSON_LIMITS.maxDepth).toBe(64);
    expect(() => parseStrictJsonText(nestArrays(64))).not.toThrow();
    expect(() => parseStrictJsonText(nestObjects(64))).not.toThrow();
    expect(text(nestArrays(65))).toBe('json-too-deep');
    expect(text(nestObjects(65))).toBe('json-too-deep');
    expect(explicit(nestArrays(65))).toMatchObject({ ok: false, failure: { reason: 'json-too-deep' } });
    expect(explicit(nestArrays(64)).ok).toBe(true);
    // Brackets inside strings are not nesting.
    expect(parseStrictJsonText(`[${JSON.stringify('['.repeat(100))}]`)).toStrictEqual(['['.repeat(100)]);
    // Depth is nesting, not the count of containers.
    expect(() => parseStrictJsonText(`[${nestArrays(63)},${nestArrays(63)}]`)).not.toThrow();
    // Custom limits are honoured.
    expect(parseStrictJsonText('[[1]]', { maxBytes: 1000, maxDepth: 2 })).toStrictEqual([[1]]);
    expect(reasonOf(() => parseStrictJsonText('[{"a":[]}]', { maxBytes: 1000, maxDepth: 2 }))).toBe('json-too-deep');
  });

  it('bounds the size in UTF-8 bytes, for bytes and for text', () => {
    const limits = { maxBytes: 10, maxDepth: 64 };
    expect(parseStrictJson(Buffer.from('"12345678"'), limits)).toBe('12345678');
    expect(reasonOf(() => parseStrictJson(Buffer.from('"123456789"'), limits))).toBe('json-too-large');
    expect(parseStrictJsonText('"12345678"', limits)).toBe('12345678');
    expect(reasonOf(() => parseStrictJsonText('"123456789"', limits))).toBe('json-too-large');
    // 6 code units but 10 bytes: accepted; 7 code units but 12 bytes: refused (was accepted).
    expect(parseStrictJsonText('"\u00e9\u00e9\u00e9\u00e9"', limits)).toBe('\u00e9\u00e9\u00e9\u00e9');
    expect(reasonOf(() => parseStrictJsonText('"\u20ac\u20ac\u20ac"', limits))).toBe('json-too-large');
    expect(reasonOf(() => parseStrictJson(Buffer.from('"\u20ac\u20ac\u20ac"'), limits))).toBe('json-too-large');
  });

  it('accepts exactly 1 MiB by default and refuses one byte more', () => {
    const max = DEFAULT_JSON_LIMITS.maxBytes;
    expect(max).toBe(1024 * 1024);
    const fits = `"${'a'.repeat(max - 2)}"`;
    expect(parseStrictJsonText(fits)).toHaveLength(max - 2);
    expect(parseStrictJson(Buffer.from(fits))).toHaveLength(max - 2);
    expect(text(`"${'a'.repeat(max - 1)}"`)).toBe('json-too-large');
    expect(text(`"${'\u00e9'.repeat(max / 2)}"`)).toBe('json-too-large');
  });

  it('refuses huge and hostile inputs quickly', () => {
    const cases: [() => unknown, string][] = [
      [() => parseStrictJsonText('['.repeat(64 * 1024 * 1024)), 'json-too-large'],
      [() => parseStrictJson(new Uint8Array(64 * 1024 * 1024)), 'json-too-large'],
      [() => parseStrictJsonText('['.repeat(1024 * 1024)), 'json-too-deep'],
      [() => parseStrictJsonText(`[${'1,'.repeat(500_000)}x]`), 'json-syntax'],
      [() => parseStrictJsonText(`{${'"a":1,'.repeat(100_000)}"a":1}`), 'json-duplicate-member'],
      [() => parseStrictJsonText(`[${'"\\u0041",'.repeat(100_000)}1]x`), 'json-trailing-data'],
    ];
    for (const [run, reason] of cases) {
      const started = performance.now();
      expect(reasonOf(run)).toBe(reason);
      expect(performance.now() - started).toBeLessThan(2000);
    }
  });
});

/** Spells a value as JSON with random whitespace and \u escapes, optionally a duplicate member. */
function spell(value: unknown, seed: number, duplicate: boolean): string {
  let state = seed >>> 0;
  const rand = (n: number): number => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state % n;
  };
  const ws = (): string => [' ', '', '\n', '\t\r', ''][rand(5)] as string;
  const escape = (ch: string): string =>
    Array.from({ length: ch.length }, (_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
  const str = (s: string): string =>
    `"${[...s].map((ch) => (ch < ' ' || ch === '"' || ch === '\\' || ch.length > 1 || rand(4) === 0 ? escape(ch) : ch)).join('')}"`;
  let pending = duplicate;
  const go = (v: unknown): string => {
    if (Array.isArray(v)) return `[${ws()}${v.map(go).join(`${ws()},${ws()}`)}${ws()}]`;
    if (v === null || typeof v !== 'object') return typeof v === 'string' ? str(v) : JSON.stringify(v);
    const entries = Object.entries(v);
    const members = entries.map(([k, x]) => `${str(k)}${ws()}:${ws()}${go(x)}`);
    if (pending && entries[0] !== undefined) {
      pending = false;
      members.push(`${str(entries[0][0])}:${go(entries[0][1])}`);
    }
    return `{${ws()}${members.join(`${ws()},${ws()}`)}${ws()}}`;
  };
  return ws() + go(value) + ws();
}

/** Both parsers accept or both refuse; accepted values are deep-equal (Object.is on numbers). */
function agree(s: string): { ok: boolean; value?: JsonValue; reason?: string } {
  const slow = explicit(s);
  let fast: { ok: boolean; value?: JsonValue; reason?: string };
  try {
    fast = { ok: true, value: parseStrictJsonText(s) };
  } catch (error) {
    if (!(error instanceof ProtocolError)) expect(error).toBeInstanceOf(ProtocolError);
    fast = { ok: false, reason: (error as ProtocolError).reason };
  }
  // Called tens of thousands of times: expectSame calls expect only for a failure.
  expectSame(fast.ok, slow.ok, s);
  if (slow.ok) expectSame(isDeepStrictEqual(fast.value, slow.value), true, s);
  // The explicit parser knows no BOM rule; it sees U+FEFF as a stray character.
  else if (s.startsWith('\ufeff')) expectSame(fast.reason, 'json-byte-order-mark', s);
  else expectSame(fast.reason, slow.failure.reason, s);
  return fast;
}

describe('parseStrictJsonText agrees with the explicit parser', () => {
  // Any code point, sometimes a lone surrogate (kept by stage 1, refused later by JCS).
  const unit = fc.oneof(
    { weight: 9, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
  );

  it('on fc.json() documents, which both accept and read as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.json({ stringUnit: unit }), (s) => {
        const r = agree(s);
        expect(r.ok).toBe(true);
        expect(isDeepStrictEqual(r.value, JSON.parse(s))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('on re-spelled documents (escapes, whitespace) and with an injected duplicate member', () => {
    const objects = fc.dictionary(fc.string({ unit }), fc.jsonValue({ stringUnit: unit }), { minKeys: 1 });
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: unit }), objects, fc.integer(), (v, o, seed) => {
        expect(agree(spell(v, seed, false))).toMatchObject({ ok: true });
        expect(agree(spell(o, seed, true))).toMatchObject({ ok: false, reason: 'json-duplicate-member' });
      }),
      { numRuns: 1000 },
    );
  });

  it('on mutated documents: insertions, deletions, duplications and trailing garbage', () => {
    const garbage = fc.string({ unit: fc.constantFrom(...'{}[]":,\\ 0-1eE.tfn\u0000\ufeffx'), maxLength: 4 });
    const mutated = fc
      .tuple(fc.json(), fc.nat(), garbage, fc.constantFrom('insert', 'delete', 'repeat', 'trail'))
      .map(([j, p, g, kind]) => {
        const i = p % (j.length + 1);
        if (kind === 'insert') return j.slice(0, i) + g + j.slice(i);
        if (kind === 'delete') return j.slice(0, i) + j.slice(i + 1 + (p % 3));
        if (kind === 'repeat') return j.slice(0, i) + j.slice(i, i + 1 + (p % 7)) + j.slice(i);
        return j + g;
      });
    fc.assert(fc.property(mutated, (s) => void agree(s)), { numRuns: 5000 });
    const alphabet = fc.constantFrom(...'{}[]":,\\ 0123456789.eE+-tfnulrsa/bu\t\n'.split(''));
    fc.assert(fc.property(fc.string({ unit: alphabet, maxLength: 24 }), (s) => void agree(s)), {
      numRuns: 20000,
    });
  });

  it('on random bytes: parseStrictJson equals strict decoding then the explicit parser', () => {
    const docs = fc.oneof(
      fc.uint8Array({ maxLength: 32 }),
      fc.tuple(fc.json(), fc.nat(), fc.integer({ min: 0, max: 255 })).map(([j, p, b]) => {
        const raw = Buffer.from(j);
        raw[p % raw.length] = b;
        return Uint8Array.from(raw);
      }),
    );
    fc.assert(
      fc.property(docs, (b) => {
        let decoded: string | null = null;
        try {
          decoded = decodeUtf8Strict(b);
        } catch {
          expect(['json-invalid-utf8', 'json-byte-order-mark']).toContain(reasonOf(() => parseStrictJson(b)));
          return;
        }
        const slow = explicit(decoded);
        if (slow.ok) expectSame(isDeepStrictEqual(parseStrictJson(b), slow.value), true);
        else expectSame(reasonOf(() => parseStrictJson(b)), slow.failure.reason);
      }),
      { numRuns: 5000 },
    );
  });
});
