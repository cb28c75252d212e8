/**
 * The schema registry holds every schema and compiles each on its first use (registry.ts): these
 * tests compile them all, so a schema that is invalid under strict mode, or a reference that
 * dangles, still fails here rather than at a node's first Command of that kind.
 */

import { describe, expect, it } from 'vitest';
import { NODE_CODE_PROFILES } from '../src/app/nodeProfiles.js';
import { profileSchemaDocuments, schemaRegistryWith } from '../src/app/profiles.js';
import { readSchemaDocuments, schemaRegistry } from '../src/protocol/schemas/files.js';
import { SchemaRegistry, type SchemaDocument } from '../src/protocol/schemas/registry.js';

const BASE = 'https://missionweave.dev/schemas/0.1/';
const common = readSchemaDocuments().filter((document) => document.name === 'common');
const object = (name: string, schema: Record<string, unknown>): SchemaDocument => ({ role: 'object', name, schema: { $id: `${BASE}${name}.schema.json`, ...schema } });

describe('the schema registry', () => {
  // One registry over the core's documents and the profiles': every one of them compiles.
  it('compiles every core schema and every payload schema of the node\'s profiles', () => {
    const core = readSchemaDocuments();
    const profiles = profileSchemaDocuments(NODE_CODE_PROFILES);
    expect(profiles.length).toBeGreaterThan(0);
    const registry = schemaRegistryWith(profiles).compileAll();
    expect(registry.payloadKinds).toEqual([...core, ...profiles].filter((d) => d.role === 'payload').map((d) => d.name).sort());
    expect(registry.objectNames).toEqual(core.filter((d) => d.role === 'object').map((d) => d.name).sort());
  });

  it('refuses a document the meta-schema refuses', () => {
    const broken = SchemaRegistry.compile([object('broken', { type: 'string', minLength: 'two' })]);
    expect(() => broken.compileAll()).toThrow(/broken\.schema\.json is invalid: .*minLength must be integer/);
  });

  it('refuses a dangling reference and a keyword strict mode does not know when the schema compiles', () => {
    const dangling = SchemaRegistry.compile([...common, object('dangling', { $ref: 'common.schema.json#/$defs/nothingHere' })]);
    expect(() => dangling.validateObject('dangling', 'x')).toThrow(/can't resolve reference/);
    expect(() => dangling.compileAll()).toThrow(/can't resolve reference/);
    const unknown = SchemaRegistry.compile([object('unknown', { type: 'string', colour: 'blue' })]);
    expect(() => unknown.compileAll()).toThrow(/unknown keyword/);
  });

  it('keeps one registry per set of profile documents in a process', () => {
    const profiles = profileSchemaDocuments(NODE_CODE_PROFILES);
    expect(schemaRegistryWith(profiles)).toBe(schemaRegistryWith(profileSchemaDocuments(NODE_CODE_PROFILES)));
    expect(schemaRegistryWith(profiles.slice(1))).not.toBe(schemaRegistryWith(profiles));
    expect(schemaRegistryWith([])).toBe(schemaRegistry());
  });
});
