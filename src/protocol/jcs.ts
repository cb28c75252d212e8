/**
 * RFC 8785 JSON Canonicalization Scheme, restricted to the I-JSON data model (§2, §17.4).
 *
 * Members are sorted by UTF-16 code units, strings use the ECMAScript JSON escaping RFC 8785
 * adopts, numbers use the ECMAScript shortest round-trip form. Unlike `JSON.stringify` (and the
 * `canonicalize` package built on it), values outside the data model are refused instead of
 * rewritten: a non-finite number would otherwise become `null` and an unpaired surrogate an
 * escape sequence, so two different inputs could share signing bytes.
 */

import { ProtocolError } from './errorCodes.js';

function refuse(reason: string, message: string): never {
  throw new ProtocolError('PROTOCOL_VIOLATION', reason, message);
}

function serializeString(value: string): string {
  if (!value.isWellFormed()) {
    refuse('jcs-unpaired-surrogate', 'a string contains an unpaired UTF-16 surrogate');
  }
  // For well-formed strings ECMAScript JSON.stringify emits exactly the RFC 8785 §3.2.2.2 form.
  return JSON.stringify(value);
}

function serializeNumber(value: number): string {
  if (!Number.isFinite(value)) {
    refuse('jcs-non-finite-number', 'a number lies outside the finite binary64 domain');
  }
  // Number#toString is the RFC 8785 §3.2.2.3 algorithm; it already prints -0 as "0".
  return String(value);
}

function serialize(value: unknown, skipTopLevel: string | undefined): string {
  switch (typeof value) {
    case 'string':
      return serializeString(value);
    case 'number':
      return serializeNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          out += serialize(value[i], undefined);
        }
        return out + ']';
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) {
        return refuse('jcs-unsupported-value', 'only plain JSON objects can be canonicalized');
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      let out = '{';
      let first = true;
      for (const key of keys) {
        if (key === skipTopLevel) continue;
        if (!first) out += ',';
        first = false;
        out += serializeString(key) + ':' + serialize(record[key], undefined);
      }
      return out + '}';
    }
    default:
      return refuse('jcs-unsupported-value', `a ${typeof value} is not a JSON value`);
  }
}

/** The RFC 8785 canonical text of a JSON value. Throws `PROTOCOL_VIOLATION` (stage 5). */
export function canonicalize(value: unknown): string {
  return serialize(value, undefined);
}

/** The canonical UTF-8 bytes of a JSON value. */
export function canonicalBytes(value: unknown): Buffer {
  return Buffer.from(serialize(value, undefined), 'utf8');
}

/**
 * The canonical UTF-8 bytes of an object without one top-level member: the v0.1 signing input
 * omits exactly the top-level `signature`; nested members of that name stay protected (§6.4).
 */
export function canonicalBytesWithout(value: Record<string, unknown>, member: string): Buffer {
  return Buffer.from(serialize(value, member), 'utf8');
}

/** One top-level member of a canonical object: its name and its `"name":value` text. */
export interface CanonicalMember {
  readonly name: string;
  readonly text: string;
}

/**
 * The top-level members of a plain object in canonical order, each serialized once — so a
 * document's signing bytes (without `signature`) and its whole canonical text can both be
 * assembled without canonicalizing it twice.
 */
export function canonicalMembers(value: Record<string, unknown>): CanonicalMember[] {
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    return refuse('jcs-unsupported-value', 'only plain JSON objects can be canonicalized');
  }
  return Object.keys(value)
    .sort()
    .map((name) => ({ name, text: `${serializeString(name)}:${serialize(value[name], undefined)}` }));
}

/** The canonical object text of `members`, leaving out the member named `without`. */
export function joinCanonicalMembers(members: readonly CanonicalMember[], without?: string): string {
  let out = '{';
  for (const member of members) {
    if (member.name === without) continue;
    out += out.length === 1 ? member.text : `,${member.text}`;
  }
  return `${out}}`;
}

/** `members` with `name` set to `value`, still in canonical order. */
export function withCanonicalMember(members: readonly CanonicalMember[], name: string, value: unknown): CanonicalMember[] {
  const member = { name, text: `${serializeString(name)}:${serialize(value, undefined)}` };
  const rest = members.filter((m) => m.name !== name);
  const at = rest.findIndex((m) => m.name > name);
  return at < 0 ? [...rest, member] : [...rest.slice(0, at), member, ...rest.slice(at)];
}
