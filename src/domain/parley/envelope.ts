/**
 * The Parley envelope (seed « L'enveloppe »): what a client may send, read strictly. A body of at
 * most 500 characters and one of the nine kinds are required; the members the server sets (`id`,
 * `from.identity`, `author_kind`, `created_at`) are ignored when a client sends them; any other
 * unknown member, a missing kind or an empty body is `invalid_body`.
 */

import type { Refusal } from '../model.js';
import { parleyRefusal } from './parleyRefusals.js';
import { isSpeechAct, type SpeechAct } from './speechActs.js';
import { parleyLimits } from './parleyLimits.js';
import type { ThreadState } from './parleyTypes.js';

export interface Envelope {
  readonly kind: SpeechAct;
  readonly thread?: number;
  readonly parent?: number;
  readonly extension: string;
  readonly body: string;
  readonly provenance?: Readonly<Record<string, string>>;
  /** `ask` and `reopen`: who must answer; anyone when absent. */
  readonly to?: { readonly identity: string; readonly extension?: string };
  /** `shelve`: which side end. */
  readonly end?: ThreadState;
}

/** Set by the server: a client's values are dropped, never trusted nor refused (seed). */
const SERVER_SET = new Set(['id', 'author_kind', 'created_at']);
const CLIENT_MEMBERS = new Set(['parley', 'kind', 'thread', 'parent', 'from', 'body', 'provenance', 'to', 'end']);
const SIDE_ENDS = new Set(['deferred', 'obsolete', 'rejected']);

/** A malformed envelope: the seed's `400 invalid_body`. */
export function invalidBody(message: string): Refusal {
  return parleyRefusal('invalid_body', message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A thread or message reference: the opaque key (`th_12`, `msg_88`) or the plain number. */
export function referenceNumber(value: unknown, prefix: 'th_' | 'msg_'): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
  if (typeof value !== 'string' || !value.startsWith(prefix)) return undefined;
  const digits = value.slice(prefix.length);
  if (!/^[1-9][0-9]{0,14}$/.test(digits)) return undefined;
  return Number(digits);
}

function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length <= max ? value : undefined;
}

function provenanceOf(value: unknown): Readonly<Record<string, string>> | Refusal | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) return invalidBody('provenance must be an object');
  const entries = Object.entries(value);
  if (entries.length > parleyLimits.provenanceMaxMembers) return invalidBody('provenance has too many members');
  for (const [, v] of entries) {
    if (text(v, parleyLimits.provenanceValueMaxChars) === undefined) return invalidBody('provenance values are short strings');
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

function toOf(value: unknown): Envelope['to'] | Refusal | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value) || typeof value.identity !== 'string' || value.identity.length === 0) return invalidBody('to names an identity');
  if (Object.keys(value).some((k) => k !== 'identity' && k !== 'extension')) return invalidBody('to has an unknown member');
  if (value.extension === undefined) return { identity: value.identity };
  const extension = text(value.extension, parleyLimits.extensionMaxChars);
  if (extension === undefined || extension.length === 0) return invalidBody('to.extension is a short label');
  return { identity: value.identity, extension };
}

function isRefusal(value: unknown): value is Refusal {
  return isObject(value) && value.ok === false;
}

/** Reads `payload` as an envelope, or says why it is `invalid_body`. */
export function parseEnvelope(payload: unknown): Envelope | Refusal {
  if (!isObject(payload)) return invalidBody('the envelope is an object');
  for (const key of Object.keys(payload)) {
    if (!CLIENT_MEMBERS.has(key) && !SERVER_SET.has(key)) return invalidBody(`unknown member ${key}`);
  }
  if (payload.parley !== undefined && payload.parley !== '1') return invalidBody('parley is "1"');
  if (payload.kind === undefined) return invalidBody('kind is missing');
  if (!isSpeechAct(payload.kind)) return invalidBody('kind is not one of the nine speech acts');
  const body = payload.body;
  if (typeof body !== 'string' || body.trim().length === 0) return invalidBody('body is empty');
  // Characters as a reader counts them (code points), not UTF-16 units.
  if ([...body].length > parleyLimits.bodyMaxChars) return invalidBody(`body exceeds ${parleyLimits.bodyMaxChars} characters`);
  const from = payload.from;
  if (!isObject(from)) return invalidBody('from.extension is required');
  for (const key of Object.keys(from)) if (key !== 'extension' && key !== 'identity') return invalidBody(`unknown member from.${key}`);
  const extension = text(from.extension, parleyLimits.extensionMaxChars);
  if (extension === undefined || extension.length === 0) return invalidBody('from.extension is a short label');
  const thread = payload.thread === undefined ? undefined : referenceNumber(payload.thread, 'th_');
  if (payload.thread !== undefined && thread === undefined) return invalidBody('thread is th_<n> or a number');
  const parent = payload.parent === undefined ? undefined : referenceNumber(payload.parent, 'msg_');
  if (payload.parent !== undefined && parent === undefined) return invalidBody('parent is msg_<n> or a number');
  const provenance = provenanceOf(payload.provenance);
  if (isRefusal(provenance)) return provenance;
  const to = toOf(payload.to);
  if (isRefusal(to)) return to;
  if (payload.end !== undefined && (typeof payload.end !== 'string' || !SIDE_ENDS.has(payload.end))) {
    return invalidBody('end is deferred, obsolete or rejected');
  }
  // A member another act would read is unknown to this one: silently dropping it would hide a mistake.
  if (to !== undefined && payload.kind !== 'ask' && payload.kind !== 'reopen') return invalidBody(`${payload.kind} has no member to`);
  if (payload.end !== undefined && payload.kind !== 'shelve') return invalidBody(`${payload.kind} has no member end`);
  return {
    kind: payload.kind,
    extension,
    body,
    ...(thread === undefined ? {} : { thread }),
    ...(parent === undefined ? {} : { parent }),
    ...(provenance === undefined ? {} : { provenance }),
    ...(to === undefined ? {} : { to }),
    ...(payload.end === undefined ? {} : { end: payload.end as ThreadState }),
  };
}
