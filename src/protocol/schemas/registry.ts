/**
 * The one JSON Schema 2020-12 validator of the service (§2, §21).
 *
 * One Ajv instance holds every schema and compiles each on its first use: a process compiles the
 * few it validates with instead of every one at start (a CLI command or a node's start spent more
 * than half its CPU compiling schemas it never used, and the 2020-12 meta-schema to check them).
 * `compileAll` checks every schema against the meta-schema and compiles it, for the tests that
 * prove the package's schemas and the profiles' are sound.
 * `format` is an assertion and the two
 * formats the schemas use are ours: ajv-formats accepts year 0000, `-00:00`, leap seconds and
 * `+0100`, which the protocol's timestamp profile forbids. `uniqueItems` is ours too: Ajv's
 * compares every pair of items unless the item schema names a scalar type (see uniqueItems.ts).
 */

import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { isUri } from '../identifier.js';
import { isProtocolTimestamp } from '../timestamp.js';
import { linearUniqueItems } from './uniqueItems.js';

// ajv ships CommonJS; under NodeNext its default export arrives wrapped.
const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;

/** One schema document and where it came from. */
export interface SchemaDocument {
  /** `object` for a protocol object, `payload` for a Command payload. */
  readonly role: 'object' | 'payload';
  /** The protocol object name (`command`, `agent-card`, …) or the Command kind. */
  readonly name: string;
  readonly schema: Record<string, unknown> & { $id: string };
}

/** Where our own schemas live (`$id` prefix). */
const BASE = 'https://missionweave.dev/schemas/0.1/';

/**
 * A failed check says, beside its text, when the failure is a required member missing from a
 * payload's Work Contract: §19 gives that its own code, `WORK_CONTRACT_INCOMPLETE`.
 */
export type SchemaCheck = { readonly ok: true } | { readonly ok: false; readonly error: string; readonly contractIncomplete?: true };

const OK: SchemaCheck = { ok: true };

function describe(errors: readonly ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (first === undefined) return 'does not conform to its schema';
  const where = first.instancePath === '' ? '(root)' : first.instancePath;
  return `${where} ${first.message ?? 'is invalid'}`;
}

function check(validate: ValidateFunction, value: unknown): SchemaCheck {
  return validate(value) ? OK : { ok: false, error: describe(validate.errors) };
}

/** The payload member that holds a Work Contract (`work.propose`, `work.authorize`). */
const CONTRACT_MEMBER = 'contract';
const CONTRACT_SCHEMA = 'work-contract.schema.json';

/** Payload schemas whose `contract` member is a Work Contract (§10.1). */
function holdsContract(schema: Record<string, unknown>): boolean {
  const properties = schema['properties'] as Record<string, { $ref?: unknown }> | undefined;
  const ref = properties?.[CONTRACT_MEMBER]?.$ref;
  return typeof ref === 'string' && ref.endsWith(CONTRACT_SCHEMA);
}

/**
 * Whether the first failure (Ajv stops at it; `required` runs before `properties`) is required
 * Work Contract information missing: the contract itself, or a required member at any depth in it.
 */
function missesContractMember(errors: readonly ErrorObject[] | null | undefined): boolean {
  const first = errors?.[0];
  if (first?.keyword !== 'required') return false;
  const path = `/${CONTRACT_MEMBER}`;
  if (first.instancePath === path || first.instancePath.startsWith(`${path}/`)) return true;
  return first.instancePath === '' && (first.params as { missingProperty?: unknown }).missingProperty === CONTRACT_MEMBER;
}

export class SchemaRegistry {
  /** Each object's and payload's schema `$id`, compiled on first use into `compiled`. */
  private readonly objects = new Map<string, string>();
  private readonly payloads = new Map<string, string>();
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly definitions = new Map<string, ValidateFunction>();
  private readonly contractKinds = new Set<string>();
  private readonly documents: readonly SchemaDocument[];
  private readonly ajv: InstanceType<typeof Ajv2020>;

  private constructor(documents: readonly SchemaDocument[]) {
    const ajv = new Ajv2020({
      strict: true,
      // A JSON number outside binary64 is a stage-5 (JCS) failure, not a schema failure (§6.4).
      strictNumbers: false,
      allErrors: false,
      validateFormats: true,
      // Checked by `compileAll` (the tests); a schema the meta-schema refuses rarely compiles anyway.
      validateSchema: false,
    });
    ajv.addFormat('uri', { type: 'string', validate: isUri });
    ajv.addFormat('date-time', { type: 'string', validate: isProtocolTimestamp });
    // Replaced before any schema compiles; it joins the end of the array rules, after `items`.
    ajv.removeKeyword('uniqueItems');
    ajv.addKeyword(linearUniqueItems);
    this.ajv = ajv;
    this.documents = documents;
    for (const document of documents) ajv.addSchema(document.schema);
    for (const document of documents) {
      (document.role === 'object' ? this.objects : this.payloads).set(document.name, document.schema.$id);
      if (document.role === 'payload' && holdsContract(document.schema)) this.contractKinds.add(document.name);
    }
  }

  /**
   * Holds every document; a schema is compiled on its first use, which throws when it is invalid
   * under strict mode or a reference dangles (`compileAll` finds those at once).
   */
  static compile(documents: readonly SchemaDocument[]): SchemaRegistry {
    return new SchemaRegistry(documents);
  }

  /** Checks every schema against the meta-schema and compiles it now; throws when any is invalid or a reference dangles. */
  compileAll(): this {
    for (const { schema } of this.documents) {
      if (this.ajv.validateSchema(schema) !== true) throw new Error(`schema ${schema.$id} is invalid: ${this.ajv.errorsText(this.ajv.errors)}`);
    }
    for (const id of [...this.objects.values(), ...this.payloads.values()]) this.validator(id);
    return this;
  }

  private validator(id: string): ValidateFunction {
    let validate = this.compiled.get(id);
    if (validate === undefined) {
      validate = this.ajv.getSchema(id);
      if (validate === undefined) throw new Error(`schema ${id} did not compile`);
      this.compiled.set(id, validate);
    }
    return validate;
  }

  get objectNames(): string[] {
    return [...this.objects.keys()].sort();
  }

  get payloadKinds(): string[] {
    return [...this.payloads.keys()].sort();
  }

  hasObject(name: string): boolean {
    return this.objects.has(name);
  }

  /** Validates a protocol object (`command`, `event`, `websocket-frame`, …). */
  validateObject(name: string, value: unknown): SchemaCheck {
    const id = this.objects.get(name);
    if (id === undefined) throw new Error(`no schema for protocol object ${name}`);
    return check(this.validator(id), value);
  }

  /**
   * Validates against a definition inside a protocol object's schema, e.g. one frame type of
   * `websocket-frame` (`#/$defs/commandFrame`): cheaper than trying every branch of a oneOf.
   */
  validateDefinition(name: string, definition: string, value: unknown): SchemaCheck {
    const key = `${name}#${definition}`;
    let validate = this.definitions.get(key);
    if (validate === undefined) {
      validate = this.ajv.getSchema(`${BASE}${name}.schema.json#/$defs/${definition}`);
      if (validate === undefined) throw new Error(`no definition ${definition} in ${name}`);
      this.definitions.set(key, validate);
    }
    return check(validate, value);
  }

  /**
   * Validates a Command payload; `null` when no payload schema exists for the kind. A kind whose
   * payload carries a Work Contract marks a missing required contract member (§10.1, §19).
   */
  validatePayload(kind: string, payload: unknown): SchemaCheck | null {
    const id = this.payloads.get(kind);
    if (id === undefined) return null;
    const validate = this.validator(id);
    const result = check(validate, payload);
    if (result.ok || !this.contractKinds.has(kind) || !missesContractMember(validate.errors)) return result;
    return { ...result, contractIncomplete: true };
  }
}
