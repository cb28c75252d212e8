/**
 * The §2 timestamp profile: RFC 3339 date-time, years 0001-9999, real Gregorian dates, no leap
 * seconds, no -00:00, exact instant comparison over every fraction digit; and the §6.4 rule that
 * protected times use an upper-case Z.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addSeconds,
  compareInstants,
  formatTimestamp,
  instantFromMillis,
  isProtocolTimestamp,
  isUtcZTimestamp,
  parseTimestamp,
  type Instant,
} from '../src/protocol/timestamp.js';
import { describeWithTestdata, testdataJson } from './support/spec.js';

interface SuiteGroup {
  description: string;
  tests: { description: string; data: unknown; valid: boolean }[];
}

/** Parses a timestamp that must conform. */
function at(text: string): Instant {
  const instant = parseTimestamp(text);
  if (instant === null) throw new Error(`not a protocol timestamp: ${text}`);
  return instant;
}

const cmp = (a: string, b: string): number => compareInstants(at(a), at(b));

describeWithTestdata('timestamp: JSON-Schema-Test-Suite draft2020-12 format date-time', () => {
  const suite = testdataJson<SuiteGroup[]>('json-schema-test-suite/draft2020-12-optional-format-date-time.json');
  const cases = suite.flatMap((g) => g.tests.map((t) => ({ ...t, group: g.description })));
  // Non-string data ("all string formats ignore integers", ...) only says that `format` does not
  // apply to non-strings; a string checker has nothing to judge there, so those cases are skipped.
  const strings = cases.filter((t) => typeof t.data === 'string');

  it('holds the 27 string cases and 6 non-string cases of the snapshot', () => {
    expect(strings).toHaveLength(27);
    expect(cases.length - strings.length).toBe(6);
  });

  it.each(strings.map((t) => [t.description, t.data as string, t.valid] as const))('%s: %j', (_d, data, valid) => {
    // Seconds = 60 is a leap second: the suite follows RFC 3339 and accepts the two well-placed
    // ones, but the profile forbids every leap second, so those verdicts are inverted.
    const leapSecond = /^.{17}60/.test(data);
    expect(isProtocolTimestamp(data)).toBe(leapSecond ? false : valid);
  });

  it('inverts exactly the two valid leap-second cases', () => {
    const inverted = strings.filter((t) => t.valid && !isProtocolTimestamp(t.data as string));
    expect(inverted.map((t) => t.data)).toStrictEqual(['1998-12-31T23:59:60Z', '1998-12-31T15:59:60.123-08:00']);
  });
});

describe('timestamp: the profile', () => {
  it.each([
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59Z',
    '2024-02-29T12:00:00Z',
    '2000-02-29T12:00:00Z',
    '2023-02-28T23:59:59.999999999999999999999Z',
    '2024-06-30T10:20:30+23:59',
    '2024-06-30T10:20:30-23:59',
    '2024-06-30T10:20:30+00:00',
    '2024-06-30t10:20:30z',
    '2024-06-30T10:20:30.0Z',
    '2024-04-30T00:00:00Z',
    '2024-12-31T00:00:00.1+05:30',
  ])('accepts %j', (text) => {
    expect(isProtocolTimestamp(text)).toBe(true);
  });

  it.each([
    ['year 0000', '0000-01-01T00:00:00Z'],
    ['Feb 29 on a non-leap year', '2023-02-29T00:00:00Z'],
    ['Feb 29 in 1900 (century, not leap)', '1900-02-29T00:00:00Z'],
    ['Feb 30', '2024-02-30T00:00:00Z'],
    ['April 31', '2024-04-31T00:00:00Z'],
    ['month 00', '2024-00-10T00:00:00Z'],
    ['month 13', '2024-13-10T00:00:00Z'],
    ['day 00', '2024-01-00T00:00:00Z'],
    ['day 32', '2024-01-32T00:00:00Z'],
    ['hour 24', '2024-01-01T24:00:00Z'],
    ['minute 60', '2024-01-01T23:60:00Z'],
    ['leap second', '2016-12-31T23:59:60Z'],
    ['unknown offset -00:00', '2024-01-01T00:00:00-00:00'],
    ['offset +24:00', '2024-01-01T00:00:00+24:00'],
    ['offset minute 60', '2024-01-01T00:00:00+01:60'],
    ['offset without colon', '2024-01-01T00:00:00+0100'],
    ['no offset', '2024-01-01T00:00:00'],
    ['empty fraction', '2024-01-01T00:00:00.Z'],
    ['comma fraction', '2024-01-01T00:00:00,5Z'],
    ['space separator', '2024-01-01 00:00:00Z'],
    ['no seconds', '2024-01-01T00:00Z'],
    ['five-digit year', '10000-01-01T00:00:00Z'],
    ['signed year', '-2024-01-01T00:00:00Z'],
    ['trailing newline', '2024-01-01T00:00:00Z\n'],
    ['leading space', ' 2024-01-01T00:00:00Z'],
    ['Arabic-Indic digit', '2024-01-01T00:00:0\u0660Z'],
    ['full-width Z', '2024-01-01T00:00:00\uff3a'],
    ['empty', ''],
  ])('refuses %s', (_name, text) => {
    expect(isProtocolTimestamp(text)).toBe(false);
    expect(parseTimestamp(text)).toBeNull();
  });

  it('agrees with Date on every valid date and offset (years 0001-9999)', () => {
    const two = (n: number): string => String(n).padStart(2, '0');
    const fields = fc.tuple(
      fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }),
      fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }),
      fc.constantFrom('Z', '+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }),
    );
    fc.assert(
      fc.property(fields, ([y, mo, d, h, mi, s, sign, oh, om]) => {
        const offset = sign === 'Z' ? 'Z' : `${sign}${two(oh)}:${two(om)}`;
        const text = `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}${offset}`;
        const date = new Date(Date.UTC(2000, mo - 1, d, h, mi, s));
        date.setUTCFullYear(y, mo - 1, d);
        const realDate = date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
        const instant = parseTimestamp(text);
        if (!realDate || offset === '-00:00') {
          expect(instant).toBeNull();
          return;
        }
        const offsetSeconds = sign === 'Z' ? 0 : (sign === '-' ? -1 : 1) * (oh * 3600 + om * 60);
        expect(instant).toStrictEqual({ seconds: date.getTime() / 1000 - offsetSeconds, fraction: '' });
      }),
      { numRuns: 3000 },
    );
  });
});

describe('timestamp: exact instant comparison', () => {
  it('compares across offsets as instants, not text', () => {
    expect(cmp('2024-01-01T00:00:00+01:00', '2023-12-31T23:00:00Z')).toBe(0);
    expect(cmp('2024-01-01T00:30:00+05:30', '2023-12-31T19:00:00z')).toBe(0);
    expect(cmp('2024-01-01T00:00:00+00:01', '2024-01-01T00:00:00Z')).toBe(-1);
    expect(cmp('2024-01-01T00:00:00-23:59', '2024-01-01T23:58:59Z')).toBe(1);
    expect(cmp('0001-01-01T00:00:00+23:59', '0001-01-01T00:00:00Z')).toBe(-1);
    expect(cmp('9999-12-31T23:59:59-23:59', '9999-12-31T23:59:59Z')).toBe(1);
    // Lexically larger, earlier as an instant.
    expect(cmp('2024-01-02T01:00:00+05:00', '2024-01-01T22:00:00Z')).toBe(-1);
  });

  it('counts every fraction digit, ignoring only trailing zeros', () => {
    expect(cmp('2024-01-01T00:00:00.1234560000000000002Z', '2024-01-01T00:00:00.123456Z')).toBe(1);
    expect(cmp('2024-01-01T00:00:00.123456Z', '2024-01-01T00:00:00.1234560000000000002Z')).toBe(-1);
    expect(cmp('2024-01-01T00:00:00.123456000Z', '2024-01-01T00:00:00.123456Z')).toBe(0);
    expect(cmp('2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00Z')).toBe(0);
    expect(cmp('2024-01-01T00:00:00.0000000001Z', '2024-01-01T00:00:00Z')).toBe(1);
    expect(cmp('2024-01-01T00:00:00.9999999999999Z', '2024-01-01T00:00:01Z')).toBe(-1);
    expect(cmp('2024-01-01T00:00:00.09Z', '2024-01-01T00:00:00.1Z')).toBe(-1);
    expect(cmp('2024-01-01T00:00:00.10Z', '2024-01-01T00:00:00.1Z')).toBe(0);
    expect(at('2024-01-01T00:00:00.1200Z').fraction).toBe('12');
    expect(at('2024-01-01T00:00:00.000Z').fraction).toBe('');
  });

  it('orders fractions numerically (property, against BigInt)', () => {
    const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(digits, digits, (a, b) => {
        const width = Math.max(a.length, b.length);
        const x = BigInt(a.padEnd(width, '0'));
        const y = BigInt(b.padEnd(width, '0'));
        const expected = x === y ? 0 : x < y ? -1 : 1;
        expect(cmp(`2024-01-01T00:00:00.${a}Z`, `2024-01-01T00:00:00.${b}Z`)).toBe(expected);
      }),
    );
  });

  it('is a total order consistent with equality', () => {
    const stamps = ['2024-01-01T00:00:00Z', '2024-01-01T01:00:00+01:00', '2024-01-01T00:00:00.5Z', '2023-12-31T23:59:59.99-00:01'];
    for (const a of stamps) {
      expect(cmp(a, a)).toBe(0);
      for (const b of stamps) expect(cmp(a, b) + cmp(b, a)).toBe(0);
    }
  });
});

describe('timestamp: the §6.4 upper-case Z rule', () => {
  it('requires an upper-case Z suffix on a profile timestamp', () => {
    expect(isUtcZTimestamp('2024-01-01T00:00:00Z')).toBe(true);
    expect(isUtcZTimestamp('2024-01-01t00:00:00.5Z')).toBe(true);
    expect(isUtcZTimestamp('2024-01-01T00:00:00z')).toBe(false);
    expect(isUtcZTimestamp('2024-01-01T00:00:00+00:00')).toBe(false);
    expect(isUtcZTimestamp('2024-02-30T00:00:00Z')).toBe(false);
    expect(isUtcZTimestamp('2024-01-01T00:00:60Z')).toBe(false);
    expect(isUtcZTimestamp('Z')).toBe(false);
  });
});

describe('timestamp: clock helpers', () => {
  it('turns integer millisecond readings into exact instants', () => {
    expect(instantFromMillis(0)).toStrictEqual({ seconds: 0, fraction: '' });
    expect(instantFromMillis(1)).toStrictEqual({ seconds: 0, fraction: '001' });
    expect(instantFromMillis(1050)).toStrictEqual({ seconds: 1, fraction: '05' });
    expect(instantFromMillis(-1)).toStrictEqual({ seconds: -1, fraction: '999' });
    expect(instantFromMillis(-1000)).toStrictEqual({ seconds: -1, fraction: '' });
  });

  it('refuses readings that are not integers (they used to yield fractions such as "1.5")', () => {
    for (const bad of [1.5, -0.5, Number.NaN, Infinity, -Infinity, 2 ** 53]) {
      expect(() => instantFromMillis(bad)).toThrow(RangeError);
    }
  });

  it('formats readings that parse back to the same instant', () => {
    // 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z.
    const millis = fc.integer({ min: -62135596800000, max: 253402300799999 });
    fc.assert(
      fc.property(millis, (ms) => {
        const text = formatTimestamp(ms);
        expect(isUtcZTimestamp(text)).toBe(true);
        expect(compareInstants(at(text), instantFromMillis(ms))).toBe(0);
        expect(compareInstants(instantFromMillis(ms), instantFromMillis(ms + 1))).toBe(-1);
      }),
      { numRuns: 2000 },
    );
  });

  it('adds whole seconds', () => {
    expect(addSeconds(at('2024-01-01T00:00:00.25Z'), 60)).toStrictEqual(at('2024-01-01T00:01:00.25Z'));
    expect(addSeconds(at('2024-03-01T00:00:00Z'), -1)).toStrictEqual(at('2024-02-29T23:59:59Z'));
  });
});
