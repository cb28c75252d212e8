/**
 * The official MissionWeave 0.1 JSON Schemas, read at test time from the spec bundle (never
 * copied into the project) and compiled in their own Ajv 2020 instance with our two formats,
 * as a differential oracle for our own schemas. Also the raw material for mutating instances:
 * what the official schemas mention (member names, enum and const values, length bounds) and a
 * fixed set of edge-case strings, numbers and values of every JSON type.
 */

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { isUri } from '../../src/protocol/identifier.js';
import { isProtocolTimestamp } from '../../src/protocol/timestamp.js';
import { SPEC_DIR, specJson } from './spec.js';

// ajv ships CommonJS; under NodeNext its default export arrives wrapped.
const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;

const SUFFIX = '.schema.json';

const TIMESTAMPS = [
  '2026-02-30T00:00:00Z', '2026-01-01T00:00:60Z', '0000-01-01T00:00:00Z', '2026-01-01T00:00:00-00:00',
  '2026-01-01T00:00:00+00:00', '2026-01-01t00:00:00z', '2024-02-29T23:59:59.123456789Z', '2023-02-29T00:00:00Z',
  '2026-01-01T24:00:00Z', '2026-01-01T00:00:00+24:00', '2026-01-01T00:00:00+23:59', '2026-01-01 00:00:00Z',
  '2026-01-01T00:00:00', '9999-12-31T23:59:59Z', '2026-1-01T00:00:00Z', '2026-01-01T00:00:00.Z', '2026-01-01T00:00:00Z\n',
];
const URIS = [
  'urn:x:y', 'urn:', 'a:', '1a:b', 'relative/path', '//host/path', '#frag', '/abs', 'urn:ex:ä', 'https://exämple.org/',
  'https://example.org/a b', 'urn:x:y\n', 'urn:x:%zz', 'urn:x:%41', 'http://[::1]/x', 'http://[::g]/', 'wss://agent.example/mw',
  'ws://agent.example/mw', 'mailto:someone@example.org', 'https://user@host:8080/p?q=1#f', 'urn:x:{y}', 'urn:x:y^z',
];
const OTHER_STRINGS = [
  '', ' ', 'a', 'with space', '  ', 'ünïcödé', '\t', 'A', 'x'.repeat(20), `sha256:${'a'.repeat(64)}`,
  `sha256:${'A'.repeat(64)}`, `sha256:${'a'.repeat(63)}`, 'c2ln', 'c', 'c2ln=', 'c2+l', 'P1D', 'PT', 'P', 'PT1.5S',
  'P1Y', 'PT1H2M3S', 'P1DT', '1.2.3', '01.2.3', '1.2.3-rc.1+b.2', '1.2', 'ext.acme.p.x', 'ext.acme.p', 'ext.Acme.p.x',
  'mission.create', 'A.b', 'a.b', 'a', 'USD', 'usd', 'acme.cap', 'acme', 'RETRY_ME', 'R', 'text/plain', 'text', '0.1', '0.2',
  '\ud800', 'urn:x:\u0000', ' urn:x:y', '\n',
];
/** Numbers at and around the integer, sign and safe-integer bounds. */
export const EDGE_NUMBERS: readonly number[] = [0, -1, 1, 1.5, 0.5, -0.5, 1e-7, 2 ** 53, 2 ** 53 - 1, -0, 1e300, 100001, 4];
/** One value of each JSON type. */
export const TYPE_SWAPS: readonly unknown[] = [null, true, false, 0, 'x', [], {}, [1], { a: 1 }];
/** Edge-case strings: bad and good timestamps, URIs, IRIs and relative references, hashes, base64url, durations, versions, kinds. */
export const EDGE_STRINGS: readonly string[] = [...TIMESTAMPS, ...URIS, ...OTHER_STRINGS];

export interface OfficialSchemas {
  /** Base name (`command`, `agent-card`, …) to the compiled official validator. */
  readonly validators: ReadonlyMap<string, ValidateFunction>;
  /** Every member name declared under some `properties`. */
  readonly memberNames: readonly string[];
  /** For each member name, the `enum`/`const` values some official schema declares for it. */
  readonly literalsByMember: ReadonlyMap<string, readonly unknown[]>;
  /** The member names a schema can meet: its own, and those of the schemas it references. */
  readonly memberNamesOf: ReadonlyMap<string, readonly string[]>;
  /** Every distinct `enum` member and `const` value. */
  readonly literals: readonly unknown[];
  /** The distinct `enum` and `const` values a schema can meet, as for member names. */
  readonly literalsOf: ReadonlyMap<string, readonly unknown[]>;
  /** Every `minLength`/`maxLength`/`minItems`/`maxItems` bound. */
  readonly lengths: readonly number[];
}

interface Harvest {
  readonly names: Set<string>;
  readonly literals: unknown[];
  readonly lengths: Set<number>;
  /** Base names of the other schema files referenced. */
  readonly refs: Set<string>;
  readonly byMember: Map<string, unknown[]>;
}

function literalsIn(schema: unknown): unknown[] {
  if (schema === null || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s['enum'])) return s['enum'] as unknown[];
  return 'const' in s ? [s['const']] : [];
}

function harvest(node: unknown, found: Harvest): void {
  const { names, literals, lengths, refs, byMember } = found;
  if (Array.isArray(node)) {
    for (const item of node) harvest(item, found);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  const ref = schema['$ref'];
  if (typeof ref === 'string' && ref.includes(SUFFIX)) refs.add(ref.slice(0, ref.indexOf(SUFFIX)));
  const properties = schema['properties'];
  if (properties !== null && typeof properties === 'object') {
    for (const [name, member] of Object.entries(properties)) {
      names.add(name);
      byMember.set(name, [...(byMember.get(name) ?? []), ...literalsIn(member)]);
    }
  }
  if (Array.isArray(schema['enum'])) literals.push(...(schema['enum'] as unknown[]));
  if ('const' in schema) literals.push(schema['const']);
  for (const bound of ['minLength', 'maxLength', 'minItems', 'maxItems']) {
    const value = schema[bound];
    if (typeof value === 'number') lengths.add(value);
  }
  for (const [key, value] of Object.entries(schema)) if (key !== 'enum' && key !== 'const') harvest(value, found);
}

/** Compiles every official schema; throws when one does not compile. */
export function loadOfficialSchemas(): OfficialSchemas {
  const ajv = new Ajv2020({ strict: false, strictNumbers: false, allErrors: false, validateFormats: true });
  ajv.addFormat('uri', { type: 'string', validate: isUri });
  ajv.addFormat('date-time', { type: 'string', validate: isProtocolTimestamp });
  const files = readdirSync(join(SPEC_DIR, 'schemas')).filter((file) => file.endsWith(SUFFIX)).sort();
  const documents = files.map((file) => [file.slice(0, -SUFFIX.length), specJson<Record<string, unknown>>(`schemas/${file}`)] as const);
  for (const [, schema] of documents) ajv.addSchema(schema);
  const validators = new Map<string, ValidateFunction>();
  const lengths = new Set<number>();
  const perFile = new Map<string, Harvest>();
  const byMember = new Map<string, unknown[]>();
  for (const [name, schema] of documents) {
    const validate = ajv.getSchema(schema['$id'] as string);
    if (validate === undefined) throw new Error(`official schema ${name} did not compile`);
    validators.set(name, validate);
    const found: Harvest = { names: new Set(), literals: [], lengths, refs: new Set(), byMember };
    harvest(schema, found);
    perFile.set(name, found);
  }
  const reachable = (name: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(name)) return seen;
    seen.add(name);
    for (const ref of perFile.get(name)?.refs ?? []) reachable(ref, seen);
    return seen;
  };
  const distinct = (values: unknown[]): unknown[] => [...new Map(values.map((v) => [JSON.stringify(v), v])).values()];
  const memberNamesOf = new Map<string, readonly string[]>();
  const literalsOf = new Map<string, readonly unknown[]>();
  for (const name of perFile.keys()) {
    const files = [...reachable(name)].map((file) => perFile.get(file) as Harvest);
    memberNamesOf.set(name, [...new Set(files.flatMap((found) => [...found.names]))].sort());
    literalsOf.set(name, distinct(files.flatMap((found) => found.literals)));
  }
  const all = [...perFile.values()];
  return {
    validators,
    memberNames: [...new Set(all.flatMap((found) => [...found.names]))].sort(),
    memberNamesOf,
    literals: distinct(all.flatMap((found) => found.literals)),
    literalsOf,
    literalsByMember: new Map([...byMember].map(([name, values]) => [name, distinct(values)])),
    lengths: [...lengths].sort((a, b) => a - b),
  };
}
