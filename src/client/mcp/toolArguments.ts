/**
 * A tool's arguments, read by this server rather than by the MCP SDK (issue 29): the tool's zod
 * shape as a strict object, so an unknown member is refused, never dropped — as the node refuses
 * one in a Parley envelope over HTTPS — and a malformed call gets a refusal with a stable reason
 * (`toolResults.ts`), not the SDK's text. The published JSON Schema is compiled from the same
 * shape, once, and kept lean: a model's context pays for every byte of `tools/list`.
 */

import { z, type ZodRawShape } from 'zod';
import type { JsonObject } from '../documents.js';

export type ArgumentsRead = { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly message: string };

export interface ToolInput {
  /** The JSON Schema `tools/list` publishes: `additionalProperties: false` on every object. */
  readonly jsonSchema: JsonObject;
  read(args: unknown): ArgumentsRead;
}

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** A branch of `anyOf` that holds one type and only keywords that apply to that type alone. */
const TYPE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  string: ['pattern', 'minLength', 'maxLength', 'format'],
  integer: ['minimum', 'maximum'],
  number: ['minimum', 'maximum'],
};

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `anyOf: [{type: string, pattern}, {type: integer, minimum}]` says the same as
 * `{type: [string, integer], pattern, minimum}`: each keyword applies to its own type only.
 */
function mergedTypes(branches: readonly unknown[]): JsonObject | undefined {
  const merged: JsonObject = {};
  const types: string[] = [];
  for (const branch of branches) {
    if (!isJsonObject(branch) || typeof branch['type'] !== 'string') return undefined;
    const allowed = TYPE_KEYWORDS[branch['type']];
    if (allowed === undefined || types.includes(branch['type'])) return undefined;
    for (const [key, value] of Object.entries(branch)) {
      if (key === 'type') continue;
      if (!allowed.includes(key) || key in merged) return undefined;
      merged[key] = value;
    }
    types.push(branch['type']);
  }
  return { type: types, ...merged };
}

/** Drops what says nothing to a reader: `$schema`, a JSON number's own bounds, string-named keys. */
function lean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lean);
  if (!isJsonObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if ((key === 'maximum' || key === 'minimum') && typeof value === 'number' && SAFE_INTEGER_BOUNDS.has(value)) continue;
    if (key === 'propertyNames' && isJsonObject(value) && value['type'] === 'string' && Object.keys(value).length === 1) continue;
    if (key === 'exclusiveMinimum' && value === 0 && node['type'] === 'integer') {
      out['minimum'] = 1;
      continue;
    }
    out[key] = lean(value) as JsonObject[string];
  }
  const anyOf = out['anyOf'];
  if (Array.isArray(anyOf)) {
    const merged = mergedTypes(anyOf);
    if (merged !== undefined) {
      const { anyOf: _replaced, ...rest } = out;
      return { ...merged, ...rest };
    }
  }
  return out;
}

function where(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** One line a model can act on: unknown members first (as the node names them), then the rest. */
function explain(issues: readonly z.core.$ZodIssue[]): string {
  const unknown = issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys.map((key) => `unknown member ${where([...issue.path, key])}`) : []));
  const other = issues.filter((issue) => issue.code !== 'unrecognized_keys').map((issue) => `${where(issue.path) || 'arguments'}: ${issue.message}`);
  return [...unknown, ...other].join('; ');
}

export function toolInput(shape: ZodRawShape): ToolInput {
  const schema = z.strictObject(shape);
  return {
    jsonSchema: lean(z.toJSONSchema(schema, { io: 'input', target: 'draft-07' })) as JsonObject,
    read(args) {
      const parsed = schema.safeParse(args);
      return parsed.success ? { ok: true, value: parsed.data } : { ok: false, message: explain(parsed.error.issues) };
    },
  };
}
