/**
 * Protocol identifiers (§2): absolute RFC 3986 URIs consumed completely, ASCII only, at most
 * 512 characters. The JSON-Schema-Test-Suite cases, hand cases, and a differential property
 * against a regular expression transcribed from the RFC 3986 ABNF.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIPv6, isProtocolIdentifier, isUri, MAX_IDENTIFIER_LENGTH } from '../src/protocol/identifier.js';
import { expectSame } from './support/cheapExpect.js';
import { describeWithTestdata, testdataJson } from './support/spec.js';

interface SuiteGroup {
  tests: { description: string; data: unknown; valid: boolean }[];
}

// RFC 3986 Appendix A, transcribed independently of the implementation.
const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCT = '%[0-9A-Fa-f]{2}';
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const H16 = '[0-9A-Fa-f]{1,4}';
const DEC_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])';
const IPV4 = `${DEC_OCTET}(?:\\.${DEC_OCTET}){3}`;
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].map((alternative) => `(?:${alternative})`).join('|');
const IPV_FUTURE = `[vV][0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+`;
const HOST = `(?:\\[(?:${IPV6}|${IPV_FUTURE})\\]|(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*)`;
const AUTHORITY = `(?:(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*@)?${HOST}(?::[0-9]*)?`;
const HIER_PART =
  `(?://${AUTHORITY}(?:/${PCHAR}*)*` + // "//" authority path-abempty
  `|/(?:${PCHAR}+(?:/${PCHAR}*)*)?` + // path-absolute
  `|${PCHAR}+(?:/${PCHAR}*)*` + // path-rootless
  '|)'; // path-empty
const QUERY = `(?:${PCHAR}|[/?])*`;
const URI_ABNF = new RegExp(`^[A-Za-z][A-Za-z0-9+.-]*:${HIER_PART}(?:\\?${QUERY})?(?:#${QUERY})?$`);
const IPV6_ABNF = new RegExp(`^(?:${IPV6})$`);

describeWithTestdata('identifier: JSON-Schema-Test-Suite draft2020-12 format uri', () => {
  const suite = testdataJson<SuiteGroup[]>('json-schema-test-suite/draft2020-12-optional-format-uri.json');
  const cases = suite.flatMap((g) => g.tests);
  // Non-string data only says `format` ignores non-strings; a string checker cannot judge it.
  const strings = cases.filter((t) => typeof t.data === 'string');

  it('holds the 40 string cases of the snapshot', () => {
    expect(strings).toHaveLength(40);
  });

  // Every verdict of the suite is matched; none of them looked wrong to us.
  it.each(strings.map((t) => [t.description, t.data as string, t.valid] as const))('%s: %j', (_d, data, valid) => {
    expect(isUri(data)).toBe(valid);
    expect(URI_ABNF.test(data)).toBe(valid);
  });
});

describe('identifier: isUri hand cases', () => {
  it.each([
    'example:',
    'a:',
    'urn:uuid:0b6e8c5e-6f0a-4d1f-9a43-6f8f5b1c2d3e',
    'urn:x:',
    'http://example.com',
    'http://',
    'file:///etc/hosts',
    'http://example.com:/',
    'http://example.com:8080/a//b/../c?x=1&y=%20#frag/?:@',
    'http://user:pa%3Ass@host:1/',
    'http://@host',
    'http://[::1]',
    'http://[::1]:443/',
    'http://[2001:db8::7]/c=GB?objectClass?one',
    'http://[::ffff:192.0.2.1]/',
    'http://[1:2:3:4:5:6:7:8]/',
    'http://[1:2:3:4:5:6:7::]/',
    'http://[v1.x]/',
    'http://[vF.a:b!$]/',
    'mailto:a@b',
    'tag:example.com,2024:x',
    'a+b.c-d:rest',
    'x:%41%2f',
    'x:?#',
    'x:/a:b@c',
    's:' + 'a'.repeat(1000),
  ])('accepts %j', (text) => {
    expect(isUri(text)).toBe(true);
    expect(URI_ABNF.test(text)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['no scheme', 'example'],
    ['empty scheme', ':x'],
    ['relative path', 'a/b:c'],
    ['relative ref', '/abs/path'],
    ['network-path ref', '//host/path'],
    ['fragment-only ref', '#frag'],
    ['scheme with digit first', '1a:b'],
    ['scheme with underscore', 'a_b:c'],
    ['non-ASCII (IRI only)', 'http://example.com/caf\u00e9'],
    ['non-ASCII host', 'http://\u00e9xample.com/'],
    ['non-ASCII in scheme', 'h\u00e9:x'],
    ['trailing line feed', 'urn:x:y\n'],
    ['trailing CR LF', 'urn:x:y\r\n'],
    ['leading space', ' urn:x:y'],
    ['inner space', 'urn:x: y'],
    ['tab', 'urn:x:\ty'],
    ['NUL', 'urn:x:\u0000'],
    ['DEL', 'urn:x:\u007f'],
    ['bad escape %zz', 'urn:x:%zz'],
    ['truncated escape %4', 'urn:x:%4'],
    ['truncated escape in query', 'urn:x?%4'],
    ['bad escape in fragment', 'urn:x#%g0'],
    ['bad escape in host', 'http://ex%2.com/'],
    ['second #', 'urn:x#a#b'],
    ['[ in path', 'urn:x:[1]'],
    ['] in query', 'urn:x?]'],
    ['non-numeric port', 'http://h:8a/'],
    ['two ports', 'http://h:1:2/'],
    ['IPv6 without brackets', 'http://::1/'],
    ['unclosed IP literal', 'http://[::1/'],
    ['junk after IP literal', 'http://[::1]x/'],
    ['IPv6 with zone id', 'http://[fe80::1%25eth0]/'],
    ['IPv6 too many groups', 'http://[1:2:3:4:5:6:7:8:9]/'],
    ['IPv6 two ::', 'http://[1::2::3]/'],
    ['IPv6 five hex digits', 'http://[12345::]/'],
    ['IPv4 with leading zero in IPv6', 'http://[::1.02.3.4]/'],
    ['empty IP literal', 'http://[]/'],
    ['IPvFuture without payload', 'http://[v1.]/'],
    ['IPvFuture without version', 'http://[v.x]/'],
    ['IPvFuture with escape', 'http://[v1.%41]/'],
    ['@ in userinfo', 'http://a@b@c/'],
    ['backslash', 'http://h\\p'],
    ['brace', 'urn:{x}'],
  ])('refuses %s: %j', (_name, text) => {
    expect(isUri(text)).toBe(false);
    expect(URI_ABNF.test(text)).toBe(false);
  });
});

describe('identifier: isIPv6', () => {
  it.each([
    ['::', true], ['::1', true], ['1::', true], ['1:2:3:4:5:6:7:8', true], ['::1:2:3:4:5:6:7', true],
    ['1:2:3:4:5:6:1.2.3.4', true], ['::1.2.3.4', true], ['::ffff:255.255.255.255', true],
    ['1:2:3:4:5::1.2.3.4', true], ['ABCD:ef01::', true],
    ['', false], [':', false], [':::', false], ['1:::2', false], ['1:2:3:4:5:6:7', false],
    ['1:2:3:4:5:6:7:8:9', false], ['1:2:3:4::5:6:7:8', false], [':1:2:3:4:5:6:7:8', false],
    ['1:2:3:4:5:6:7:8:', false], ['1:2:3:4:5:6:7:1.2.3.4', false], ['::256.1.1.1', false],
    ['::1.2.3', false], ['::1.2.3.4:5', false], ['1.2.3.4', false], ['g::', false], ['::01.2.3.4', false],
  ] as const)('%j -> %s', (text, valid) => {
    expect(isIPv6(text)).toBe(valid);
    expect(IPV6_ABNF.test(text)).toBe(valid);
  });

  it('matches the RFC 3986 grammar on generated addresses', () => {
    const group = fc.constantFrom('0', '1', 'ff', 'ffff', 'ABCD', '12345', '1.2.3.4', '255.0.0.1', '01.2.3.4', '1.2.3', '');
    fc.assert(
      fc.property(fc.array(group, { maxLength: 10 }), fc.nat(11), (groups, split) => {
        const plain = groups.join(':');
        const compressed = `${groups.slice(0, split).join(':')}::${groups.slice(split).join(':')}`;
        for (const text of [plain, compressed]) expectSame(isIPv6(text), IPV6_ABNF.test(text), text);
      }),
      { numRuns: 20000 },
    );
  });
});

describe('identifier: isUri matches the RFC 3986 grammar (differential)', () => {
  const unit = fc.constantFrom(...'aZ9:/?#[]@!$&()+,;=%0fFv.~- \n\u00e9'.split(''), '::', '[::1]', '%41', '//');
  const tail = fc.string({ unit, maxLength: 24 });

  it.each(['s:', 's://', 'http://u@', 'x:/', ''])('on generated strings after %j', (prefix) => {
    fc.assert(
      fc.property(tail, (rest) => {
        const text = prefix + rest;
        expectSame(isUri(text), URI_ABNF.test(text), text);
      }),
      { numRuns: 20000 },
    );
  });
});

describe('identifier: isProtocolIdentifier', () => {
  it('bounds the length to 512 characters', () => {
    expect(MAX_IDENTIFIER_LENGTH).toBe(512);
    const at = (n: number): string => `urn:x:${'a'.repeat(n - 6)}`;
    expect(at(512)).toHaveLength(512);
    expect(isProtocolIdentifier(at(512))).toBe(true);
    expect(isProtocolIdentifier(at(513))).toBe(false);
    expect(isUri(at(513))).toBe(true);
    expect(isProtocolIdentifier(`https://example.com/${'%41'.repeat(164)}`)).toBe(true);
    expect(isProtocolIdentifier(`https://example.com/${'%41'.repeat(165)}`)).toBe(false);
  });

  it('still requires a URI', () => {
    expect(isProtocolIdentifier('urn:uuid:0b6e8c5e-6f0a-4d1f-9a43-6f8f5b1c2d3e')).toBe(true);
    expect(isProtocolIdentifier('0b6e8c5e-6f0a-4d1f-9a43-6f8f5b1c2d3e')).toBe(false);
    expect(isProtocolIdentifier('urn:x:\u00e9')).toBe(false);
    expect(isProtocolIdentifier('')).toBe(false);
  });
});
