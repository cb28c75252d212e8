/**
 * Canonical unpadded base64url (§2; RFC 4648 §5, §3.2, §3.5): one spelling per byte string.
 * Node's own decoder is lenient, so every noncanonical spelling must come back as null.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64url, encodeBase64url } from '../src/protocol/base64url.js';

const hex = (text: string): string | null => decodeBase64url(text)?.toString('hex') ?? null;

describe('base64url: canonical spellings', () => {
  it.each([
    ['', ''],
    ['f', 'Zg'],
    ['fo', 'Zm8'],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg'],
    ['fooba', 'Zm9vYmE'],
    ['foobar', 'Zm9vYmFy'],
  ])('RFC 4648 §10 vector %j <-> %j (unpadded)', (plain, encoded) => {
    expect(encodeBase64url(Buffer.from(plain))).toBe(encoded);
    expect(decodeBase64url(encoded)?.toString('utf8')).toBe(plain);
  });

  it('uses - and _ for 62 and 63', () => {
    expect(encodeBase64url(Uint8Array.from([0xfb, 0xff, 0xbf]))).toBe('-_-_');
    expect(hex('-_-_')).toBe('fbffbf');
    expect(hex('-_8')).toBe('fbff');
    expect(hex('AAAA')).toBe('000000');
    expect(hex('____')).toBe('ffffff');
  });

  it('encodes a view without leaking the bytes around it', () => {
    const backing = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const view = backing.subarray(2, 5);
    expect(encodeBase64url(view)).toBe(encodeBase64url(Uint8Array.from([3, 4, 5])));
    expect(encodeBase64url(Buffer.from(backing.buffer, 1, 2))).toBe('AgM');
  });
});

describe('base64url: noncanonical or foreign spellings decode to null', () => {
  it.each([
    ['padding', 'Zg=='],
    ['single pad', 'Zm8='],
    ['short padding', 'Zg='],
    ['padding on a full quantum', 'Zm9v===='],
    ['pad in the middle', 'Zg==Zg'],
    ['standard alphabet +', '-_+_'],
    ['standard alphabet /', '-_-/'],
    ['standard alphabet +/8 (= -_8)', '+/8'],
    ['space', 'Zm9v Yg'],
    ['leading space', ' Zm9v'],
    ['trailing newline', 'Zm9v\n'],
    ['tab', 'Zm\t9v'],
    ['dot', 'Zm9v.'],
    ['non-ASCII', 'Zm9\u00e9'],
    ['full-width letter', 'Zm9\uff56'],
    ['NUL', 'Zm9v\u0000'],
    ['length 1', 'A'],
    ['length 5', 'AAAAA'],
    ['length 9', 'Zm9vYmFyZ'],
  ])('refuses %s: %j', (_name, text) => {
    expect(decodeBase64url(text)).toBeNull();
  });

  it('refuses nonzero unused pad bits ("AB" vs "AA", "AAB" vs "AAA")', () => {
    expect(hex('AA')).toBe('00');
    expect(hex('AQ')).toBe('01');
    for (const c of 'BCDEFGHIJKLMNOP') expect(decodeBase64url(`A${c}`)).toBeNull();
    expect(hex('AAA')).toBe('0000');
    expect(hex('AAE')).toBe('0001');
    for (const c of 'BCD') expect(decodeBase64url(`AA${c}`)).toBeNull();
    // The 32-byte key and 64-byte signature lengths end in 43 and 86 characters.
    const key = encodeBase64url(new Uint8Array(32).fill(0xff));
    expect(key).toHaveLength(43);
    expect(key.endsWith('8')).toBe(true);
    expect(decodeBase64url(`${key.slice(0, 42)}9`)).toBeNull();
    const sig = encodeBase64url(new Uint8Array(64).fill(0xff));
    expect(sig).toHaveLength(86);
    expect(decodeBase64url(`${sig.slice(0, 85)}_`)).toBeNull();
  });
});

describe('base64url: properties', () => {
  it('round-trips every byte string', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = encodeBase64url(bytes);
        expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(text.length % 4).not.toBe(1);
        expect(text).toHaveLength(Math.ceil((bytes.length * 4) / 3));
        expect(new Uint8Array(decodeBase64url(text) ?? [])).toStrictEqual(bytes);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts a string iff it is the encoding of what it decodes to (one spelling per value)', () => {
    const alphabet = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split(''));
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 20 }), (text) => {
        const bytes = decodeBase64url(text);
        const lenient = Buffer.from(text, 'base64url');
        if (bytes === null) {
          expect(text.length % 4 === 1 || encodeBase64url(lenient) !== text).toBe(true);
        } else {
          expect(encodeBase64url(bytes)).toBe(text);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses any character outside the URL-safe alphabet wherever it appears', () => {
    const foreign = fc.constantFrom('+', '/', '=', ' ', '\n', '.', '\u00e9', '\u0000', '*');
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 30 }), fc.nat(), foreign, (bytes, at, c) => {
        const text = encodeBase64url(bytes);
        const i = at % (text.length + 1);
        expect(decodeBase64url(text.slice(0, i) + c + text.slice(i))).toBeNull();
      }),
    );
  });
});
