/**
 * The structural conformance vectors (§22: 58 cases): each instance, strictly parsed and kept
 * inside the JCS data model, must be valid against our schema exactly when the manifest says so.
 */

import { basename } from 'node:path';
import { canonicalize } from '../../protocol/jcs.js';
import type { SchemaRegistry } from '../../protocol/schemas/registry.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { Bundle, emptyReport, record, type SuiteReport } from './bundle.js';

/** Our verdict on one document against one of our object schemas. */
export function structurallyValid(bundle: Bundle, schemas: SchemaRegistry, name: string, path: string): boolean {
  try {
    const value = bundle.json(path);
    canonicalize(value);
    return schemas.validateObject(name, value).ok;
  } catch {
    return false;
  }
}

export function runStructural(bundle: Bundle, schemas: SchemaRegistry): SuiteReport {
  const report = emptyReport();
  const manifest = bundle.json('conformance/manifest.json') as unknown as JsonObject[];
  for (const entry of manifest) {
    const name = basename(String(entry['schema']), '.schema.json');
    const expected = entry['valid'] === true;
    const actual = structurallyValid(bundle, schemas, name, String(entry['instance']));
    record(report, String(entry['name']), actual === expected ? null : `expected valid=${expected}, got ${actual}`);
  }
  return report;
}
