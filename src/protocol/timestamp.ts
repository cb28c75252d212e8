/**
 * The MissionWeaveProtocol 0.1 timestamp profile (§2) and the §6.4 protected-time rule.
 *
 * RFC 3339 `date-time` narrowed to years 0001–9999, real Gregorian dates, seconds 00–59 (no leap
 * seconds) and no `-00:00`. `T` and `Z` may be lower case and offsets span ±23:59. Instants are
 * compared exactly: every fraction digit counts, no rounding, trailing zeros change nothing.
 * Parsing never rewrites the text; callers keep the original string for hashing and signing.
 */

export interface Instant {
  /** Whole seconds since 1970-01-01T00:00:00Z (negative before it; always a safe integer). */
  readonly seconds: number;
  /** Fraction-of-second digits with trailing zeros removed ('' when zero). */
  readonly fraction: string;
}

const PATTERN =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's algorithm). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Parses a timestamp under the protocol profile; `null` when it does not conform. */
export function parseTimestamp(text: string): Instant | null {
  const m = PATTERN.exec(text);
  if (m === null) return null;
  const [, ys, mos, ds, hs, mis, ss, frac, z, sign, ohs, oms] = m;
  const year = Number(ys);
  const month = Number(mos);
  const day = Number(ds);
  const hour = Number(hs);
  const minute = Number(mis);
  const second = Number(ss);
  if (year < 1 || month < 1 || month > 12 || day < 1) return null;
  const monthDays = month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] as number);
  if (day > monthDays || hour > 23 || minute > 59 || second > 59) return null;
  let offsetSeconds = 0;
  if (z === undefined) {
    const offsetHours = Number(ohs);
    const offsetMinutes = Number(oms);
    if (offsetHours > 23 || offsetMinutes > 59) return null;
    // RFC 3339 §4.3 "-00:00" means "offset unknown"; the profile forbids it.
    if (sign === '-' && offsetHours === 0 && offsetMinutes === 0) return null;
    offsetSeconds = (sign === '-' ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
  }
  const local = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second;
  return { seconds: local - offsetSeconds, fraction: (frac ?? '').replace(/0+$/, '') };
}

/** True when `text` is a timestamp under the protocol profile. */
export function isProtocolTimestamp(text: string): boolean {
  return parseTimestamp(text) !== null;
}

/** Orders two instants exactly; -1, 0 or 1. */
export function compareInstants(a: Instant, b: Instant): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  if (a.fraction === b.fraction) return 0;
  // Both fractions lack trailing zeros, so right-padding makes lexical order numeric order.
  const width = Math.max(a.fraction.length, b.fraction.length);
  return a.fraction.padEnd(width, '0') < b.fraction.padEnd(width, '0') ? -1 : 1;
}

/**
 * The §6.4 rule for the protected signed time and `signature.createdAt`: a UTC value spelled
 * with an upper-case `Z` (the lower-case `t` separator remains allowed).
 */
export function isUtcZTimestamp(text: string): boolean {
  return text.endsWith('Z') && parseTimestamp(text) !== null;
}

/**
 * The instant of a JavaScript millisecond clock reading (an integer such as `Date.now()`).
 * Throws `RangeError` for anything else: a fractional or non-finite reading has no exact
 * millisecond fraction and would yield a malformed `Instant`.
 */
export function instantFromMillis(millis: number): Instant {
  if (!Number.isSafeInteger(millis)) {
    throw new RangeError(`not an integer millisecond clock reading: ${millis}`);
  }
  const seconds = Math.floor(millis / 1000);
  const ms = millis - seconds * 1000;
  return { seconds, fraction: String(ms).padStart(3, '0').replace(/0+$/, '') };
}

/** Formats a millisecond clock reading as the protocol's canonical UTC spelling. */
export function formatTimestamp(millis: number): string {
  return new Date(millis).toISOString();
}

/** Adds whole seconds to an instant. */
export function addSeconds(instant: Instant, seconds: number): Instant {
  return { seconds: instant.seconds + seconds, fraction: instant.fraction };
}
