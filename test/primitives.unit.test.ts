/**
 * Small primitives: content hashes (§2, §6.4 signing hash), non-negative safe integers (§2), and
 * the §19 error-code catalogue with its one error class.
 */

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isContentHash, sha256ContentHash } from '../src/protocol/contentHash.js';
import { ERROR_CODES, isErrorCode, isProtocolError, isRetryable, ProtocolError } from '../src/protocol/errorCodes.js';
import { isNonNegativeSafeInteger, isPositiveSafeInteger } from '../src/protocol/integers.js';
import { canonicalBytesWithout } from '../src/protocol/jcs.js';
import { describeWithSpec, specBytes } from './support/spec.js';

describe('contentHash', () => {
  const EMPTY = 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

  it('hashes exact bytes as lower-case hex SHA-256', () => {
    expect(sha256ContentHash(new Uint8Array(0))).toBe(EMPTY);
    expect(sha256ContentHash('')).toBe(EMPTY);
    expect(sha256ContentHash('abc')).toBe('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // A string is hashed as its UTF-8 bytes.
    expect(sha256ContentHash('\u00e9')).toBe(sha256ContentHash(Uint8Array.from([0xc3, 0xa9])));
  });

  it('gives the §6.4 signing hash of the JCS bytes without the top-level signature', () => {
    const doc = { signature: { value: 'x' }, b: 2, a: { signature: 1 } };
    const expected = createHash('sha256').update('{"a":{"signature":1},"b":2}').digest('hex');
    expect(sha256ContentHash(canonicalBytesWithout(doc, 'signature'))).toBe(`sha256:${expected}`);
  });

  it('recognises exactly sha256: plus 64 lower-case hex digits', () => {
    expect(isContentHash(EMPTY)).toBe(true);
    for (const bad of [
      EMPTY.toUpperCase(),
      EMPTY.replace('e3b0', 'E3B0'),
      `SHA256:${EMPTY.slice(7)}`,
      EMPTY.slice(0, -1),
      `${EMPTY}0`,
      `${EMPTY}\n`,
      ` ${EMPTY}`,
      EMPTY.replace('sha256:', 'sha512:'),
      EMPTY.replace('sha256:', 'sha256::'),
      EMPTY.slice(7),
      EMPTY.replace('e3', 'g3'),
      '',
    ]) {
      expect(isContentHash(bad), bad).toBe(false);
    }
  });

  it('always produces a value it recognises', () => {
    fc.assert(fc.property(fc.uint8Array(), (b) => isContentHash(sha256ContentHash(b))));
  });
});

describe('integers', () => {
  it.each([
    [0, true, false],
    [1, true, true],
    [Number.MAX_SAFE_INTEGER, true, true],
    [Number.MAX_SAFE_INTEGER + 1, false, false],
    [-1, false, false],
    [1.5, false, false],
    [1e-300, false, false],
    [Number.NaN, false, false],
    [Infinity, false, false],
    [-Infinity, false, false],
    ['1', false, false],
    [1n, false, false],
    [null, false, false],
    [undefined, false, false],
    [Object(1) as unknown, false, false],
    [true, false, false],
  ])('%s: non-negative %s, positive %s', (value, nonNegative, positive) => {
    expect(isNonNegativeSafeInteger(value)).toBe(nonNegative);
    expect(isPositiveSafeInteger(value)).toBe(positive);
  });

  it('treats -0 as the integer 0 (JCS writes it as "0"), never as positive', () => {
    expect(isNonNegativeSafeInteger(-0)).toBe(true);
    expect(isPositiveSafeInteger(-0)).toBe(false);
  });

  it('agrees with the definition on arbitrary doubles', () => {
    fc.assert(
      fc.property(fc.double(), (n) => {
        const expected = Number.isInteger(n) && n >= 0 && n <= 2 ** 53 - 1;
        expect(isNonNegativeSafeInteger(n)).toBe(expected);
        expect(isPositiveSafeInteger(n)).toBe(expected && n >= 1);
      }),
    );
  });
});

describe('errorCodes', () => {
  it('classifies only RATE_LIMITED, BACKPRESSURE and INTERNAL_ERROR as retryable', () => {
    const retryable = Object.keys(ERROR_CODES).filter((c) => isErrorCode(c) && isRetryable(c));
    expect(retryable.sort()).toStrictEqual(['BACKPRESSURE', 'INTERNAL_ERROR', 'RATE_LIMITED']);
  });

  it('recognises codes exactly, not inherited or misspelled names', () => {
    expect(isErrorCode('PROTOCOL_VIOLATION')).toBe(true);
    for (const bad of ['protocol_violation', 'PROTOCOL_VIOLATION ', 'toString', '__proto__', 'constructor', '', 1, null]) {
      expect(isErrorCode(bad)).toBe(false);
    }
  });

  it('carries code, reason, message and details', () => {
    const error = new ProtocolError('PROTOCOL_VIOLATION', 'json-syntax', 'bad token at 3', { offset: 3 });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ProtocolError');
    expect([error.code, error.reason, error.message]).toStrictEqual(['PROTOCOL_VIOLATION', 'json-syntax', 'bad token at 3']);
    expect(error.details).toStrictEqual({ offset: 3 });
    const bare = new ProtocolError('AUTH_INVALID_SIGNATURE', 'r-small-order');
    expect(bare.message).toBe('r-small-order');
    expect(bare.details).toBeUndefined();
  });

  it('isProtocolError accepts errors with a catalogued code only', () => {
    expect(isProtocolError(new ProtocolError('INTERNAL_ERROR', 'x'))).toBe(true);
    expect(isProtocolError(Object.assign(new Error('x'), { code: 'RATE_LIMITED' }))).toBe(true);
    expect(isProtocolError(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe(false);
    expect(isProtocolError(new Error('x'))).toBe(false);
    expect(isProtocolError({ code: 'PROTOCOL_VIOLATION', message: 'not an Error' })).toBe(false);
    expect(isProtocolError(null)).toBe(false);
  });
});

describeWithSpec('errorCodes: the catalogue matches §19 of the specification', () => {
  it('has exactly the core codes of the §19 table, with the same meanings', () => {
    const text = specBytes('spec/PROTOCOL.md').toString('utf8');
    const section = text.slice(text.indexOf('## 19. Errors'), text.indexOf('## 20.'));
    const rows = [...section.matchAll(/^\| `([A-Z_]+)` \| (.+?) \|$/gm)].map((m) => [m[1], m[2]]);
    expect(rows.length).toBeGreaterThan(20);
    expect(Object.entries(ERROR_CODES).map(([code, { meaning }]) => [code, meaning])).toStrictEqual(rows);
  });
});
