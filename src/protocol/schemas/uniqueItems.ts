/**
 * `uniqueItems` in linear time (§21 schemas, §17.3 bounded cost of hostile input).
 *
 * Ajv's own `uniqueItems` hashes items only when the item schema names a scalar `type` beside
 * it; for items given by `$ref` (identifiers, kinds, hashes) or objects (Principals) it compares
 * every pair. One SUBSCRIBE with 28,000 distinct `attention.eventKinds` held the main thread for
 * 3.3 s that way. This replacement gives every item a canonical text — equal JSON values, and
 * only those, get the same text, as JSON Schema's instance equality requires (member order does
 * not matter, 1 and 1.0 and -0 and 0 are equal) — and finds a repeat with one Set, whatever the
 * item schema is. The length bounds (`maxItems`) in the schemas keep the work small as well.
 */

import type { FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';

/**
 * The canonical text of a JSON value. Strings are quoted, so no string shares its text with a
 * number, literal or container; member names are sorted. It never throws: a non-finite number
 * (left for the stage-5 JCS check, §6.4) prints as `Infinity`, a lone surrogate as its escape.
 */
export function canonicalText(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record).sort().map((name) => `${JSON.stringify(name)}:${canonicalText(record[name])}`);
  return `{${members.join(',')}}`;
}

/** The index of the first item that repeats an earlier one, or -1; one pass, one Set. */
export function firstRepeat(items: readonly unknown[]): number {
  // Scalars keep their own identity in the Set (SameValueZero: -0 equals 0, as JSON wants);
  // containers go in by their canonical text, into a second Set, so that the string '{}' and an
  // empty object never meet.
  const scalars = new Set<unknown>();
  const containers = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item !== null && typeof item === 'object') {
      const text = canonicalText(item);
      if (containers.has(text)) return i;
      containers.add(text);
    } else {
      if (scalars.has(item)) return i;
      scalars.add(item);
    }
  }
  return -1;
}

const validateUnique: SchemaValidateFunction = (schema: unknown, data: unknown): boolean => {
  if (schema !== true || !Array.isArray(data)) return true;
  const repeat = firstRepeat(data);
  if (repeat < 0) return true;
  validateUnique.errors = [{ keyword: 'uniqueItems', message: `must NOT have duplicate items (item ${repeat} repeats an earlier one)`, params: { i: repeat } }];
  return false;
};

/** Ajv keyword definition that replaces the built-in `uniqueItems` (see `SchemaRegistry`). */
export const linearUniqueItems: FuncKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  errors: true,
  validate: validateUnique,
};
