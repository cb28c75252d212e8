#!/usr/bin/env node
/**
 * Generates `src/protocol/schemas/payloadTypes.ts` from `schemas/payloads/*.schema.json`: the
 * schemas are the one source of each Command payload's shape, and the TypeScript types are
 * derived from them, never written by hand. `--check` exits 1 when the committed file differs
 * (the unit test `payloadTypes.unit.test.ts` runs the same comparison).
 */

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const payloads = join(root, 'schemas', 'payloads');
const target = join(root, 'src', 'protocol', 'schemas', 'payloadTypes.ts');
const SUFFIX = '.schema.json';

const BANNER = `/**
 * Command payload types, generated from schemas/payloads/ by scripts/generatePayloadTypes.mjs.
 * Do not edit: change the schema and run \`npm run generate:types\`.
 */
/* eslint-disable */`;

/** Keywords whose value is a map of names to subschemas: the names are data, not keywords. */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'patternProperties', 'dependentSchemas']);
/** Keywords whose value is a subschema or a list of subschemas. */
const SUBSCHEMAS = new Set(['items', 'prefixItems', 'not', 'if', 'then', 'else', 'additionalProperties', 'contains', 'anyOf', 'oneOf', 'allOf']);

/**
 * A schema without `description` and `default` annotations: the schemas keep them, the types stay
 * short, and members that differ only in their prose become one type.
 */
export function withoutDescriptions(schema) {
  if (Array.isArray(schema)) return schema.map(withoutDescriptions);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'description' || keyword === 'default') continue;
    if (SCHEMA_MAPS.has(keyword)) out[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutDescriptions(sub)]));
    else if (SUBSCHEMAS.has(keyword)) out[keyword] = withoutDescriptions(value);
    else out[keyword] = value;
  }
  return out;
}

const schemaFiles = {
  order: 1,
  canRead: /\.schema\.json$/,
  read: (file) => JSON.stringify(withoutDescriptions(JSON.parse(readFileSync(file.url.startsWith('file:') ? fileURLToPath(file.url) : file.url, 'utf8')))),
};

/**
 * Every `export interface X {…}` as `export type X = {…};`: an interface has no implicit index
 * signature, so a payload typed by one would not pass as a JSON object without a cast.
 */
export function interfacesAsTypes(text) {
  return text.replace(/^export interface (\w+) \{\n([\s\S]*?)^\}$/gm, 'export type $1 = {\n$2};');
}

export async function generate() {
  const kinds = readdirSync(payloads).filter((f) => f.endsWith(SUFFIX)).map((f) => f.slice(0, -SUFFIX.length)).sort();
  const schema = {
    title: 'Command payloads',
    description: 'Each Command kind of schemas/payloads/ and its payload type.',
    type: 'object',
    additionalProperties: false,
    required: kinds,
    properties: Object.fromEntries(kinds.map((kind) => [kind, { $ref: `./${kind}${SUFFIX}` }])),
  };
  const text = await compile(schema, 'CommandPayloads', {
    cwd: payloads,
    bannerComment: BANNER,
    additionalProperties: false,
    strictIndexSignatures: true,
    unreachableDefinitions: false,
    format: true,
    ignoreMinAndMaxItems: true,
    $refOptions: { resolve: { file: schemaFiles } },
  });
  return interfacesAsTypes(text);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await generate();
  if (process.argv.includes('--check')) {
    if (readFileSync(target, 'utf8') !== text) {
      console.error(`${target} is out of date: run npm run generate:types`);
      process.exit(1);
    }
  } else writeFileSync(target, text);
}
