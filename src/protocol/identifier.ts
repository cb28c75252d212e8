/**
 * Protocol identifiers: absolute RFC 3986 URIs, consumed completely (§2).
 *
 * `scheme ":" hier-part [ "?" query ] [ "#" fragment ]` with the RFC 3986 grammar for authority,
 * IP literals, paths and percent-encoding. Only ASCII is accepted (an IRI-only spelling is not a
 * URI), so whitespace, controls and a trailing line feed all fail. Identifiers are compared
 * byte-for-byte; nothing here normalizes.
 */

const ALPHA = /[A-Za-z]/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;

/**
 * What each ASCII code unit may be, as bits: a lookup per character instead of a regular
 * expression per character (identifiers are checked on every Command, Event and frame, and a
 * schema validation checks each URI-formatted member).
 */
const HEX_DIGIT = 1;
const UNRESERVED_OR_SUB = 2;
const COLON = 4;
const AT = 8;
const SLASH = 16;
const QUESTION = 32;
const CLASS = ((): Uint8Array => {
  const table = new Uint8Array(128);
  const mark = (characters: string, bit: number): void => {
    for (let i = 0; i < characters.length; i++) table[characters.charCodeAt(i)] = (table[characters.charCodeAt(i)] ?? 0) | bit;
  };
  mark('0123456789ABCDEFabcdef', HEX_DIGIT);
  mark("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=", UNRESERVED_OR_SUB);
  mark(':', COLON);
  mark('@', AT);
  mark('/', SLASH);
  mark('?', QUESTION);
  return table;
})();

/** What a run of each part may hold besides percent escapes (RFC 3986 reg-name, userinfo, pchar, query and fragment). */
const HOST_RUN = UNRESERVED_OR_SUB;
const USERINFO_RUN = UNRESERVED_OR_SUB | COLON;
const PATH_RUN = UNRESERVED_OR_SUB | COLON | AT | SLASH;
const QUERY_RUN = PATH_RUN | QUESTION;

/** The class bits of code unit `c` (none outside ASCII). */
function classOf(c: number): number {
  return c < 128 ? (CLASS[c] ?? 0) : 0;
}

/** Largest identifier length the normative schemas allow. */
export const MAX_IDENTIFIER_LENGTH = 512;

/**
 * Returns where the run of allowed characters or percent escapes of `s` from `i` ends (at most
 * `end`); -1 on a malformed escape. `allowed` is the class bits a character may have
 * (one of the `*_RUN` sets).
 */
function scanRun(s: string, i: number, end: number, allowed: number): number {
  let j = i;
  while (j < end) {
    const c = s.charCodeAt(j);
    if (c === 0x25) {
      if (j + 2 >= end) return -1;
      if ((classOf(s.charCodeAt(j + 1)) & HEX_DIGIT) === 0 || (classOf(s.charCodeAt(j + 2)) & HEX_DIGIT) === 0) return -1;
      j += 3;
    } else if ((classOf(c) & allowed) !== 0) {
      j++;
    } else {
      break;
    }
  }
  return j;
}

/** True when the whole of s[i, end) is made of allowed characters and valid escapes. */
function isRun(s: string, i: number, end: number, allowed: number): boolean {
  return scanRun(s, i, end, allowed) === end;
}

function isDecOctet(part: string): boolean {
  return /^(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])$/.test(part);
}

function isIPv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every(isDecOctet);
}

/** RFC 3986 IPv6address (no zone identifier), including the embedded-IPv4 forms. */
export function isIPv6(text: string): boolean {
  let groups = 8;
  let body = text;
  const lastColon = body.lastIndexOf(':');
  if (lastColon >= 0 && body.slice(lastColon + 1).includes('.')) {
    if (!isIPv4(body.slice(lastColon + 1))) return false;
    body = body.slice(0, lastColon + 1) + '0';
    groups = 7;
  }
  const halves = body.split('::');
  if (halves.length > 2) return false;
  const hex = /^[0-9A-Fa-f]{1,4}$/;
  const parse = (half: string): string[] | null => {
    if (half === '') return [];
    const parts = half.split(':');
    return parts.every((p) => hex.test(p)) ? parts : null;
  };
  const head = parse(halves[0] as string);
  if (head === null) return false;
  if (halves.length === 1) return head.length === groups;
  const tail = parse(halves[1] as string);
  if (tail === null) return false;
  return head.length + tail.length < groups;
}

function isIPLiteral(inner: string): boolean {
  if (/^[vV]/.test(inner)) {
    const dot = inner.indexOf('.');
    if (dot < 2 || !/^[vV][0-9A-Fa-f]+$/.test(inner.slice(0, dot))) return false;
    const rest = inner.slice(dot + 1);
    return rest.length > 0 && /^[A-Za-z0-9\-._~!$&'()*+,;=:]+$/.test(rest);
  }
  return isIPv6(inner);
}

function isAuthority(s: string, i: number, end: number): boolean {
  let hostStart = i;
  const at = s.lastIndexOf('@', end - 1);
  if (at >= i) {
    if (!isRun(s, i, at, USERINFO_RUN)) return false;
    hostStart = at + 1;
  }
  let hostEnd = end;
  if (s[hostStart] === '[') {
    const close = s.indexOf(']', hostStart);
    if (close < 0 || close >= end) return false;
    if (!isIPLiteral(s.slice(hostStart + 1, close))) return false;
    hostEnd = close + 1;
  } else {
    hostEnd = scanRun(s, hostStart, end, HOST_RUN);
    if (hostEnd < 0) return false;
  }
  if (hostEnd === end) return true;
  return s[hostEnd] === ':' && /^[0-9]*$/.test(s.slice(hostEnd + 1, end));
}

/** True when `text` is an RFC 3986 URI (an absolute reference, optional fragment). */
export function isUri(text: string): boolean {
  const colon = text.indexOf(':');
  if (colon < 1 || !ALPHA.test(text[0] as string) || !SCHEME.test(text.slice(0, colon))) {
    return false;
  }
  const hash = text.indexOf('#', colon);
  const end = hash < 0 ? text.length : hash;
  if (hash >= 0 && !isRun(text, hash + 1, text.length, QUERY_RUN)) return false;
  const question = text.indexOf('?', colon);
  const hierEnd = question >= 0 && question < end ? question : end;
  if (hierEnd < end && !isRun(text, hierEnd + 1, end, QUERY_RUN)) return false;
  let pathStart = colon + 1;
  if (text.startsWith('//', pathStart)) {
    const slash = text.indexOf('/', pathStart + 2);
    const authorityEnd = slash >= 0 && slash < hierEnd ? slash : hierEnd;
    if (!isAuthority(text, pathStart + 2, authorityEnd)) return false;
    pathStart = authorityEnd;
  }
  return isRun(text, pathStart, hierEnd, PATH_RUN);
}

/** A protocol identifier: an RFC 3986 URI no longer than the schemas' 512 characters. */
export function isProtocolIdentifier(text: string): boolean {
  return text.length <= MAX_IDENTIFIER_LENGTH && isUri(text);
}
