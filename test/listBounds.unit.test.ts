/**
 * Lists that arrive from outside (issue 10, item 3): every array of our schemas has a length
 * bound, uniqueness is checked in linear time whatever the item schema, and repeats are still
 * refused. Growth is asserted as a ratio (4× the items must cost well under the quadratic 16×),
 * measured on the validator itself, fastest of several interleaved rounds, so that a busy machine
 * does not decide the verdict.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSchemaDirectory, readSchemaDocuments, schemaRegistry } from '../src/protocol/schemas/files.js';
import { SchemaRegistry } from '../src/protocol/schemas/registry.js';
import { canonicalText, firstRepeat } from '../src/protocol/schemas/uniqueItems.js';

/** Milliseconds per call: calls repeated until 10 ms have passed. */
function costOf(run: () => void): number {
  const start = performance.now();
  let calls = 0;
  let elapsed = 0;
  do {
    run();
    calls++;
    elapsed = performance.now() - start;
  } while (elapsed < 10);
  return elapsed / calls;
}

/**
 * How much dearer four times the items are: linear is about 4, quadratic about 16. Small and
 * large inputs are timed in turn, and each keeps its fastest round, so a burst of load from
 * elsewhere on the machine inflates neither side.
 */
function growth<T>(make: (n: number) => T, check: (input: T) => unknown, n = 1_000): number {
  const small = make(n);
  const large = make(4 * n);
  check(small); // compile and warm up
  check(large);
  let fastestSmall = Number.POSITIVE_INFINITY;
  let fastestLarge = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 12; round++) {
    fastestSmall = Math.min(fastestSmall, costOf(() => check(small)));
    fastestLarge = Math.min(fastestLarge, costOf(() => check(large)));
  }
  return fastestLarge / fastestSmall;
}

/**
 * The verdict on a growth ratio: linear is about 4 (up to 6.8 measured with the machine's two
 * cores under load), quadratic 16; Ajv's own pairwise check measured 15 to 33 here.
 */
const LINEAR = 8;

const kinds = (n: number): string[] => Array.from({ length: n }, (_, i) => `kind${i}.observed`);
const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `urn:missionweave:object:${i}`);
const principals = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'agent', id: `urn:missionweave:agent:${i}` }));

function subscribe(attention: Record<string, unknown>) {
  return {
    protocolVersion: '0.1', frameId: 'urn:f:1', frameType: 'SUBSCRIBE', subscriptionId: 'urn:s:1',
    groups: [{ groupId: 'urn:g:1', afterSequence: 0, attention }],
  };
}
const subscribeCheck = (attention: Record<string, unknown>) => schemaRegistry().validateDefinition('websocket-frame', 'subscribeFrame', subscribe(attention));

const post = (members: Record<string, unknown>) => ({ messageId: 'urn:m:1', conversationId: 'urn:c:1', content: 'hello', ...members });
const postCheck = (members: Record<string, unknown>) => schemaRegistry().validatePayload('message.post', post(members));

/** The one list left open: a snapshot's Event IDs grow with the Group's history (its description says why). */
const UNBOUNDED = ['group-snapshot.schema.json/properties/eventIds'];

describe('every array of our schemas', () => {
  it('has a maxItems bound, but for the history a snapshot lists', () => {
    const unbounded: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${where}/${i}`));
      else if (node !== null && typeof node === 'object') {
        const schema = node as Record<string, unknown>;
        if (schema['type'] === 'array' && 'items' in schema && typeof schema['maxItems'] !== 'number') unbounded.push(where);
        for (const [key, value] of Object.entries(schema)) walk(value, `${where}/${key}`);
      }
    };
    const root = defaultSchemaDirectory();
    for (const directory of [root, join(root, 'payloads')]) {
      for (const file of readdirSync(directory).filter((name) => name.endsWith('.schema.json'))) {
        walk(JSON.parse(readFileSync(join(directory, file), 'utf8')), file);
      }
    }
    expect(unbounded).toEqual(UNBOUNDED);
  });
});

describe('a SUBSCRIBE frame', () => {
  it('with thousands of distinct attention items is refused, at a cost that does not grow with the square', () => {
    for (const list of ['eventKinds', 'conversationIds', 'workItemIds'] as const) {
      const items = list === 'eventKinds' ? kinds : ids;
      expect(subscribeCheck({ [list]: items(4_000) })).toMatchObject({ ok: false });
      expect(growth((n) => ({ [list]: items(n) }), subscribeCheck)).toBeLessThan(LINEAR);
    }
  });

  it('takes attention lists up to their bounds and refuses one item more', () => {
    expect(subscribeCheck({ eventKinds: kinds(256), conversationIds: ids(1_000), workItemIds: ids(1_000) })).toEqual({ ok: true });
    expect(subscribeCheck({ eventKinds: kinds(257) })).toEqual({ ok: false, error: expect.stringContaining('must NOT have more than 256 items') });
    expect(subscribeCheck({ workItemIds: ids(1_001) })).toEqual({ ok: false, error: expect.stringContaining('must NOT have more than 1000 items') });
  });

  it('still refuses a repeated item, however far apart', () => {
    const list = kinds(256);
    list[255] = list[0] as string;
    expect(subscribeCheck({ eventKinds: list })).toEqual({ ok: false, error: expect.stringContaining('duplicate items') });
    expect(subscribeCheck({ conversationIds: ['urn:c:1', 'urn:c:2', 'urn:c:1'] })).toMatchObject({ ok: false });
  });
});

describe('a message.post payload', () => {
  it('with thousands of distinct mentions or references is refused, at a cost that does not grow with the square', () => {
    expect(postCheck({ mentions: principals(4_000) })).toMatchObject({ ok: false });
    expect(postCheck({ references: ids(4_000) })).toMatchObject({ ok: false });
    expect(growth((n) => ({ mentions: principals(n) }), postCheck)).toBeLessThan(LINEAR);
    expect(growth((n) => ({ references: ids(n) }), postCheck)).toBeLessThan(LINEAR);
  });

  it('takes 256 mentions and 1,000 references, refuses one more of either, and refuses repeats', () => {
    expect(postCheck({ mentions: principals(256), references: ids(1_000) })).toEqual({ ok: true });
    expect(postCheck({ mentions: principals(257) })).toMatchObject({ ok: false });
    expect(postCheck({ references: ids(1_001) })).toMatchObject({ ok: false });
    const reordered = { id: 'urn:missionweave:agent:0', type: 'agent' };
    expect(postCheck({ mentions: [...principals(3), reordered] })).toEqual({ ok: false, error: expect.stringContaining('duplicate items') });
    expect(postCheck({ references: ['urn:r:1', 'urn:r:1'] })).toMatchObject({ ok: false });
  });
});

describe('uniqueItems without a length bound', () => {
  // A schema of our registry with no maxItems: only the uniqueness check is measured.
  const BASE = 'https://missionweave.dev/schemas/0.1/';
  const registry = SchemaRegistry.compile([
    ...readSchemaDocuments().filter((document) => document.name === 'common'),
    { role: 'object', name: 'identifiers', schema: { $id: `${BASE}identifiers.schema.json`, type: 'array', uniqueItems: true, items: { $ref: 'common.schema.json#/$defs/identifier' } } },
    { role: 'object', name: 'principals', schema: { $id: `${BASE}principals.schema.json`, type: 'array', uniqueItems: true, items: { $ref: 'common.schema.json#/$defs/principal' } } },
  ]);

  it('is linear for items given by $ref, strings and objects alike', () => {
    expect(registry.validateObject('identifiers', ids(4_000))).toEqual({ ok: true });
    expect(registry.validateObject('principals', principals(4_000))).toEqual({ ok: true });
    expect(growth(ids, (list) => registry.validateObject('identifiers', list))).toBeLessThan(LINEAR);
    expect(growth(principals, (list) => registry.validateObject('principals', list))).toBeLessThan(LINEAR);
  });

  it('refuses a repeat at any distance, by JSON equality', () => {
    const list = ids(4_000);
    list.push(list[17] as string);
    expect(registry.validateObject('identifiers', list)).toMatchObject({ ok: false });
    const people = principals(4_000);
    people.push({ id: 'urn:missionweave:agent:3999', type: 'agent' });
    expect(registry.validateObject('principals', people)).toMatchObject({ ok: false });
  });
});

describe('canonicalText and firstRepeat', () => {
  it('give equal JSON values, and only those, the same text', () => {
    expect(canonicalText({ b: [1, { d: null, c: true }], a: 'x' })).toBe(canonicalText({ a: 'x', b: [1, { c: true, d: null }] }));
    expect(canonicalText(['1'])).not.toBe(canonicalText([1]));
    expect(canonicalText({ a: '1,"b":2' })).not.toBe(canonicalText({ a: 1, b: 2 }));
    expect(canonicalText([-0])).toBe(canonicalText([0]));
  });

  it('finds the first repeat, keeping strings apart from containers and types apart', () => {
    expect(firstRepeat(['a', 'b', 'a'])).toBe(2);
    expect(firstRepeat(['{}', {}, '[]', []])).toBe(-1);
    expect(firstRepeat([1, '1', true, 'true', null, 'null'])).toBe(-1);
    expect(firstRepeat(['__proto__', 'constructor', '__proto__'])).toBe(2);
    expect(firstRepeat([{ a: [1, 2] }, { a: [2, 1] }, { a: [1, 2] }])).toBe(2);
  });
});
