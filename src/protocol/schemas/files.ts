/**
 * Reads the package's own `schemas/` directory: protocol objects at its top level, one Command
 * payload schema per kind under `payloads/`. This start-up read of our own assets is the only
 * file access in the protocol layer.
 */

import { readdirSync, readFileSync } from 'node:fs'; // eslint-disable-line no-restricted-imports
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchemaRegistry, type SchemaDocument } from './registry.js';

const SUFFIX = '.schema.json';

/** The `schemas/` directory shipped with the package (two levels above src|dist/protocol). */
export function defaultSchemaDirectory(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'schemas');
}

function readDirectory(directory: string, role: SchemaDocument['role']): SchemaDocument[] {
  return readdirSync(directory)
    .filter((file) => file.endsWith(SUFFIX))
    .sort()
    .map((file) => ({
      role,
      name: file.slice(0, -SUFFIX.length),
      schema: JSON.parse(readFileSync(join(directory, file), 'utf8')) as SchemaDocument['schema'],
    }));
}

/** Reads every schema document of a schema directory. */
export function readSchemaDocuments(directory = defaultSchemaDirectory()): SchemaDocument[] {
  return [...readDirectory(directory, 'object'), ...readDirectory(join(directory, 'payloads'), 'payload')];
}

let shared: SchemaRegistry | undefined;

/** The process-wide registry over the package's schemas, compiled on first use. */
export function schemaRegistry(): SchemaRegistry {
  shared ??= SchemaRegistry.compile(readSchemaDocuments());
  return shared;
}
