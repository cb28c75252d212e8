/**
 * Fuzz targets: the strict parser, JCS, the WebSocket frame decoder and the stateless Command
 * pipeline, each driven by fast-check with random bytes, mutated valid inputs, and huge or
 * deeply nested documents. The property is always the same: no crash, and every input is either
 * accepted or answered with a code of the §19 catalogue.
 */

import fc from 'fast-check';
import { verifyCommandBytes, type RegistryAtRevision } from '#src/app/verifyCommand.js';
import type { KindRegistry } from '#src/domain/kinds/kindRegistry.js';
import { isErrorCode, isProtocolError } from '#src/protocol/errorCodes.js';
import { parseJsonExplicit } from '#src/protocol/explainJson.js';
import { canonicalize } from '#src/protocol/jcs.js';
import type { SchemaRegistry } from '#src/protocol/schemas/registry.js';
import { parseStrictJson, parseStrictJsonText } from '#src/protocol/strictJson.js';
import { readFrame } from '#src/transport/frameIntake.js';

export interface FuzzContext {
  readonly schemas: SchemaRegistry;
  readonly registry: RegistryAtRevision;
  /** The kinds a Command is verified against, built by the fuzz run. */
  readonly kinds: KindRegistry;
  /** Valid signed Commands (as JSON text) to mutate. */
  readonly seeds: readonly string[];
}

function fail(target: string, detail: string): never {
  throw new Error(`${target}: ${detail}`);
}

/** Mutations of a valid JSON text: the shapes attackers and bugs produce. */
export function mutatedText(seeds: readonly string[]): fc.Arbitrary<string> {
  const seed = fc.constantFrom(...seeds);
  return fc.oneof(
    fc.tuple(seed, fc.nat(), fc.string({ maxLength: 8 })).map(([s, at, junk]) => s.slice(0, at % (s.length + 1)) + junk + s.slice(at % (s.length + 1))),
    fc.tuple(seed, fc.nat(), fc.nat()).map(([s, from, length]) => s.slice(0, from % (s.length + 1)) + s.slice((from % (s.length + 1)) + (length % 40))),
    fc.tuple(seed, fc.nat()).map(([s, at]) => s.replace(/"([a-zA-Z]+)":/, (m) => (at % 2 === 0 ? `${m}1,${m}` : m))),
    fc.tuple(seed, fc.integer({ min: 1, max: 5000 })).map(([s, depth]) => `${'['.repeat(depth)}${s}${']'.repeat(depth)}`),
    fc.tuple(seed, fc.constantFrom('\ufeff', ' ', '\n', '0', '}', '"\\ud800"', '1e400')).map(([s, extra]) => extra + s),
    fc.tuple(seed, fc.constantFrom('1e400', '-0', '"\\udc00"', 'null', '[]', '{}', '"x"', '1.5', '9007199254740993')).map(([s, value]) => s.replace(/:(\d+|"[^"]*")/, `:${value}`)),
    fc.tuple(seed, fc.integer({ min: 1, max: 300_000 })).map(([s, size]) => s.replace('"content":"', `"content":"${'y'.repeat(size)}`)),
  );
}

const anyBytes = fc.uint8Array({ maxLength: 4096 });

function expectAnsweredWithCode(target: string, run: () => void): void {
  try {
    run();
  } catch (error) {
    if (!isProtocolError(error)) fail(target, `escaped error ${String(error)}`);
  }
}

export function strictJsonProperty(context: FuzzContext): fc.IPropertyWithHooks<[Uint8Array | string]> {
  return fc.property(fc.oneof(anyBytes, mutatedText(context.seeds), fc.json()), (input) => {
    const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
    expectAnsweredWithCode('strict-json', () => void parseStrictJson(bytes));
    if (typeof input === 'string' && input.length < 100_000) {
      let fast: unknown = 'refused';
      try {
        fast = parseStrictJsonText(input);
      } catch {
        fast = 'refused';
      }
      const explicit = parseJsonExplicit(input, 64);
      const slow = explicit.ok ? explicit.value : 'refused';
      if (JSON.stringify(fast) !== JSON.stringify(slow)) fail('strict-json', `fast and explicit parsers disagree on ${JSON.stringify(input).slice(0, 200)}`);
    }
  });
}

export function jcsProperty(): fc.IPropertyWithHooks<[unknown]> {
  const values = fc.oneof(fc.jsonValue(), fc.double(), fc.string({ unit: 'binary' }), fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue()));
  return fc.property(values, (value) => {
    let text: string;
    try {
      text = canonicalize(value);
    } catch (error) {
      if (!isProtocolError(error) || error.code !== 'PROTOCOL_VIOLATION') fail('jcs', `unexpected ${String(error)}`);
      return;
    }
    const again = canonicalize(JSON.parse(text) as unknown);
    if (again !== text) fail('jcs', `not idempotent: ${text.slice(0, 200)}`);
  });
}

export function frameProperty(context: FuzzContext): fc.IPropertyWithHooks<[string | Uint8Array]> {
  const frames = context.seeds.map((command) => `{"protocolVersion":"0.1","frameId":"urn:uuid:00000000-0000-4000-8000-000000000000","frameType":"COMMAND","command":${command}}`);
  return fc.property(fc.oneof(mutatedText(frames), anyBytes), (input) => {
    const intake = readFrame(typeof input === 'string' ? input : Buffer.from(input), typeof input !== 'string', 256 * 1024);
    if (!intake.ok) {
      if (!isErrorCode(intake.error.code)) fail('frame', `unknown code ${intake.error.code}`);
      return;
    }
    const type = String(intake.frame['frameType']);
    const definition = { COMMAND: 'commandFrame', SUBSCRIBE: 'subscribeFrame', ACK: 'ackFrame', PING: 'pingFrame' }[type];
    if (definition !== undefined) context.schemas.validateDefinition('websocket-frame', definition, intake.frame);
  });
}

export function pipelineProperty(context: FuzzContext): fc.IPropertyWithHooks<[string]> {
  return fc.property(mutatedText(context.seeds), (text) => {
    const result = verifyCommandBytes(Buffer.from(text, 'utf8'), context.registry, context.schemas, context.kinds);
    if (!result.ok && !isErrorCode(result.error.code)) fail('pipeline', `unknown code ${result.error.code}`);
  });
}
