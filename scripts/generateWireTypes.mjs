#!/usr/bin/env node
/**
 * Generates `src/protocol/schemas/wireTypes.ts` from the protocol object schemas at the top of
 * `schemas/` (the Command envelope, the Event, the error object, the WebSocket frames and every
 * normative object): server and SDK import these types instead of restating the wire shapes.
 * `--check` exits 1 when the committed file differs (the unit test `wireTypes.unit.test.ts` runs
 * the same comparison). The Command payloads have their own generator, generatePayloadTypes.mjs.
 *
 * Two choices make the types usable as JSON: a member that is any JSON object (`"type":
 * "object"` with no members named) is a `JsonObject` and a member that admits anything (`true`)
 * a `JsonValue`; and every object type is a type alias, not an interface, so that a document
 * type is assignable to `JsonObject` without a cast.
 */

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';
import { interfacesAsTypes, withoutDescriptions } from './generatePayloadTypes.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const schemas = join(root, 'schemas');
const target = join(root, 'src', 'protocol', 'schemas', 'wireTypes.ts');
const SUFFIX = '.schema.json';
/** Building blocks only: its definitions appear where an object uses them. */
const NOT_AN_OBJECT = new Set(['common']);

const BANNER = `/**
 * Wire types of the protocol objects (Command, Event, error, WebSocket frames and the normative
 * objects), generated from schemas/*.schema.json by scripts/generateWireTypes.mjs.
 * Do not edit: change the schema and run \`npm run generate:types\`.
 */

import type { JsonObject, JsonValue } from '../jsonValue.js';`;

/** Keywords whose value maps member names to subschemas. */
const MEMBER_MAPS = new Set(['properties', 'patternProperties']);
/** Keywords that name an object's members: an object schema without any is any JSON object. */
const MEMBER_KEYWORDS = ['properties', 'patternProperties', 'additionalProperties', 'propertyNames', '$ref', 'anyOf', 'oneOf', 'allOf', 'if'];

/**
 * `{"type":"object"}` alone becomes `JsonObject`; a member `true` becomes `JsonValue` (where it
 * only restates a member typed beside it, for Ajv's strict mode, the intersection keeps that type).
 */
function asJson(schema) {
  if (Array.isArray(schema)) return schema.map(asJson);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (MEMBER_MAPS.has(keyword)) out[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, sub === true ? { tsType: 'JsonValue' } : asJson(sub)]));
    else out[keyword] = typeof value === 'object' && value !== null && keyword !== 'enum' && keyword !== 'const' && keyword !== 'required' ? (Array.isArray(value) ? value.map(asJson) : asJson(value)) : value;
  }
  // A `$ref` beside other keywords (2020-12 applies both) is their intersection; the generator
  // would otherwise keep only one side.
  if ('$ref' in out && Object.keys(out).length > 1) {
    const { $ref, ...rest } = out;
    return { allOf: [{ $ref }, rest] };
  }
  if (out.type === 'object' && MEMBER_KEYWORDS.every((keyword) => !(keyword in out))) out.tsType = 'JsonObject';
  return out;
}

const schemaFiles = {
  order: 1,
  canRead: /\.schema\.json$/,
  read: (file) => JSON.stringify(asJson(withoutDescriptions(JSON.parse(readFileSync(file.url.startsWith('file:') ? fileURLToPath(file.url) : file.url, 'utf8'))))),
};

export async function generate() {
  const objects = readdirSync(schemas).filter((f) => f.endsWith(SUFFIX)).map((f) => f.slice(0, -SUFFIX.length)).filter((name) => !NOT_AN_OBJECT.has(name)).sort();
  const frames = Object.keys(JSON.parse(readFileSync(join(schemas, `websocket-frame${SUFFIX}`), 'utf8')).$defs).filter((name) => name.endsWith('Frame') || name.startsWith('hello'));
  const schema = {
    title: 'Protocol objects',
    description: 'Each protocol object of schemas/ by its schema name (the names SchemaRegistry.validateObject takes).',
    type: 'object',
    additionalProperties: false,
    required: objects,
    properties: Object.fromEntries(objects.map((name) => [name, { $ref: `./${name}${SUFFIX}` }])),
    $defs: {
      frames: {
        title: 'Frames',
        description: 'Each frame of websocket-frame.schema.json by its definition (the names SchemaRegistry.validateDefinition takes).',
        type: 'object',
        additionalProperties: false,
        required: frames,
        properties: Object.fromEntries(frames.map((name) => [name, { $ref: `./websocket-frame${SUFFIX}#/$defs/${name}` }])),
      },
    },
  };
  const text = await compile(schema, 'ProtocolObjects', {
    cwd: schemas,
    bannerComment: BANNER,
    additionalProperties: false,
    strictIndexSignatures: false,
    unreachableDefinitions: true,
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
