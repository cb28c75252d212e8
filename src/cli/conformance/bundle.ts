/**
 * Reading an official MissionWeave 0.1 bundle at run time: files, strict JSON, the manifest
 * `artifactDigest` (JCS of the manifest without that member, §22) and every declared artifact's
 * byte length and SHA-256, and the bundle's own fixture schemas, compiled as published.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { sha256ContentHash } from '../../protocol/contentHash.js';
import { isUri } from '../../protocol/identifier.js';
import { canonicalBytesWithout } from '../../protocol/jcs.js';
import { parseStrictJson, type JsonObject, type JsonValue } from '../../protocol/strictJson.js';
import { isProtocolTimestamp } from '../../protocol/timestamp.js';

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;

/** One suite's outcome. */
export interface SuiteReport {
  passed: number;
  failed: number;
  total: number;
  /** One line per mismatch or bundle-integrity problem. */
  failures: string[];
}

export function emptyReport(): SuiteReport {
  return { passed: 0, failed: 0, total: 0, failures: [] };
}

export function record(report: SuiteReport, id: string, problem: string | null): void {
  report.total++;
  if (problem === null) report.passed++;
  else {
    report.failed++;
    report.failures.push(`${id}: ${problem}`);
  }
}

export class Bundle {
  private readonly ajv = new Ajv2020({ strict: false, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly root: string) {
    this.ajv.addFormat('uri', { type: 'string', validate: isUri });
    this.ajv.addFormat('date-time', { type: 'string', validate: isProtocolTimestamp });
  }

  bytes(relative: string): Buffer {
    return readFileSync(join(this.root, relative));
  }

  json(relative: string): JsonValue {
    return parseStrictJson(this.bytes(relative), { maxBytes: 16 * 1024 * 1024, maxDepth: 128 });
  }

  /** Validates a value against a schema file shipped inside the bundle. */
  conforms(schemaPath: string, value: unknown): boolean {
    let validate = this.compiled.get(schemaPath);
    if (validate === undefined) {
      validate = this.ajv.compile(this.json(schemaPath) as object);
      this.compiled.set(schemaPath, validate);
    }
    return validate(value) === true;
  }

  /** Problems with a manifest's `artifactDigest` and declared artifacts (none when intact). */
  integrity(manifest: JsonObject): string[] {
    const problems: string[] = [];
    const digest = sha256ContentHash(canonicalBytesWithout(manifest, 'artifactDigest'));
    if (digest !== manifest['artifactDigest']) {
      problems.push(`artifactDigest is ${String(manifest['artifactDigest'])}, computed ${digest}`);
    }
    for (const artifact of (manifest['artifacts'] ?? []) as JsonObject[]) {
      const path = String(artifact['path']);
      let bytes: Buffer;
      try {
        bytes = this.bytes(path);
      } catch {
        problems.push(`${path}: missing`);
        continue;
      }
      if (bytes.length !== artifact['byteLength']) problems.push(`${path}: byte length differs`);
      if (sha256ContentHash(bytes) !== artifact['sha256']) problems.push(`${path}: sha256 differs`);
    }
    return problems;
  }
}
