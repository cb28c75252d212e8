/**
 * Defensive reads of the `/v1/groups/{g}/view` document (docs/human-api.md, "View shape").
 *
 * The view is JSON from the network and a limited Membership gets a partial one, so a
 * Panel never trusts a member to be there or to have its documented type: every read here
 * answers `undefined` (or an empty list) for a missing or mistyped member, and `dash` turns that
 * into the "—" the human sees. A Panel that throws on an odd view shows nothing at all, which is
 * worse than showing a gap.
 */
import type { Json, JsonObject } from '../panel.js';

/** What a missing value renders as. */
export const DASH = '—';

export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function obj(value: Json | undefined, key: string): JsonObject | undefined {
  if (!isObject(value)) return undefined;
  const member = value[key];
  return isObject(member) ? member : undefined;
}

export function str(value: Json | undefined, key: string): string | undefined {
  if (!isObject(value)) return undefined;
  const member = value[key];
  return typeof member === 'string' ? member : undefined;
}

export function num(value: Json | undefined, key: string): number | undefined {
  if (!isObject(value)) return undefined;
  const member = value[key];
  return typeof member === 'number' && Number.isFinite(member) ? member : undefined;
}

export function bool(value: Json | undefined, key: string): boolean | undefined {
  if (!isObject(value)) return undefined;
  const member = value[key];
  return typeof member === 'boolean' ? member : undefined;
}

/** The objects of an array member; anything else in it is skipped. */
export function list(value: Json | undefined, key: string): JsonObject[] {
  if (!isObject(value)) return [];
  const member = value[key];
  return Array.isArray(member) ? member.filter(isObject) : [];
}

export function dash(value: string | number | undefined): string {
  return value === undefined || value === '' ? DASH : String(value);
}

/**
 * A protocol timestamp as the human reads it: the local date and time, to the minute. An
 * unparsable string is shown as sent rather than hidden.
 */
export function when(timestamp: string | undefined): string {
  if (timestamp === undefined) return DASH;
  const parsed = Date.parse(timestamp);
  if (Number.isNaN(parsed)) return timestamp;
  return new Date(parsed).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The principal of a view document as a Command payload takes it, or undefined if malformed. */
export function principalOf(principal: JsonObject | undefined): { type: string; id: string } | undefined {
  const type = str(principal, 'type');
  const id = str(principal, 'id');
  return type === undefined || id === undefined ? undefined : { type, id };
}

/**
 * A Group ID as one URL path segment. Identifiers are URIs (`urn:uuid:…`) and may hold `/`, `?`
 * or `#`, so they are percent-encoded; `:` and `@` are legal in a path segment (RFC 3986 pchar)
 * and stay as they are, so the common `urn:uuid:` form reaches the server byte for byte.
 */
export function pathSegment(identifier: string): string {
  return encodeURIComponent(identifier).replace(/%3A/gi, ':').replace(/%40/g, '@');
}
