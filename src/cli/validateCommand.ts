/**
 * `missionweave validate <object> <file|->`: strictly parses one document and validates it
 * against our schema for that protocol object. Exit 0 valid; 1 invalid, with the §19 code and a
 * reason on stderr; 2 for usage errors. Anything outside the I-JSON/JCS data model is invalid.
 */

import { readFileSync } from 'node:fs';
import { isProtocolError } from '../protocol/errorCodes.js';
import { canonicalize } from '../protocol/jcs.js';
import { schemaRegistry } from '../protocol/schemas/files.js';
import type { SchemaCheck, SchemaRegistry } from '../protocol/schemas/registry.js';
import { parseStrictJson, type JsonObject, type JsonValue } from '../protocol/strictJson.js';
import { parseArgs, UsageError } from './args.js';

/** A Command's payload must also match the payload schema of its kind, when we have one. */
function commandPayloadCheck(schemas: SchemaRegistry, object: string, value: JsonValue): SchemaCheck {
  const frame = value as JsonObject;
  const command = object === 'command' ? frame : object === 'websocket-frame' && frame['frameType'] === 'COMMAND' ? (frame['command'] as JsonObject) : null;
  if (command === null) return { ok: true };
  const check = schemas.validatePayload(String(command['kind']), command['payload']);
  return check === null || check.ok ? { ok: true } : { ...check, error: `payload ${check.error}` };
}

function readInput(source: string): Buffer {
  return source === '-' ? readFileSync(0) : readFileSync(source);
}

export function validateCommand(argv: readonly string[]): number {
  const args = parseArgs(argv, {});
  const [object, source] = args.positionals;
  if (object === undefined || source === undefined || args.positionals.length !== 2) {
    throw new UsageError('usage: missionweave validate <object> <file|->');
  }
  const schemas = schemaRegistry();
  if (!schemas.hasObject(object) || object === 'common') {
    throw new UsageError(`unknown object ${object}; one of: ${schemas.objectNames.filter((n) => n !== 'common').join(', ')}`);
  }
  let bytes: Buffer;
  try {
    bytes = readInput(source);
  } catch (error) {
    throw new UsageError(`cannot read ${source}: ${(error as Error).message}`);
  }
  try {
    const value = parseStrictJson(bytes);
    const check = schemas.validateObject(object, value);
    const payload = check.ok ? commandPayloadCheck(schemas, object, value) : check;
    if (!payload.ok) {
      // The same code the Group Authority answers (§19): missing Work Contract information is its own.
      const code = 'contractIncomplete' in payload ? 'WORK_CONTRACT_INCOMPLETE' : 'SCHEMA_VALIDATION_FAILED';
      process.stderr.write(`${code}: ${payload.error}\n`);
      return 1;
    }
    canonicalize(value);
  } catch (error) {
    if (!isProtocolError(error)) throw error;
    process.stderr.write(`${error.code}: ${error.reason}: ${error.message}\n`);
    return 1;
  }
  process.stdout.write(`valid ${object}\n`);
  return 0;
}
