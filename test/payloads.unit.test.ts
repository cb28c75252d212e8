/**
 * Command payload schemas (schemas/payloads/<kind>.schema.json): member names and required
 * members follow the Python reference runtime's payload models, shapes follow the normative
 * spec where the two disagree (docs/reference-differences.md).
 */

import { describe, expect, it } from 'vitest';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { BAD_TIMESTAMPS, PROVISIONAL } from '../src/domain/kinds/exampleVariants.js';
import { EXAMPLE_IDS, KIND_EXAMPLES, PAYLOAD_EXAMPLES, type PayloadExample } from './support/payloadExamples.js';
import { coreRegistry } from './support/coreDecider.js';
import { describeWithSpec, specJson } from './support/spec.js';

type Payload = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests poke at arbitrary nested members
type Mutation = (payload: Payload) => void;

/**
 * Every kind with the members the reference model declares without a default (plus spec-required
 * ones), and the optional members only valid together: each kind declares them beside its example
 * (`KindExamples` in its module's `*Examples.ts`).
 */
const REQUIRED: Record<string, readonly string[]> = Object.fromEntries(Object.entries(KIND_EXAMPLES).map(([kind, e]) => [kind, e.required]));
const COUPLED: Record<string, readonly string[]> = Object.fromEntries(
  Object.entries(KIND_EXAMPLES).flatMap(([kind, e]) => (e.coupled === undefined ? [] : [[kind, e.coupled]])),
);

const KINDS = Object.keys(REQUIRED).sort();

/** Kind-specific variants that must be refused / accepted, declared beside each kind's example. */
const INVALID: ReadonlyArray<readonly [string, string, Mutation]> = Object.entries(KIND_EXAMPLES).flatMap(([kind, e]) =>
  (e.invalid ?? []).map(([label, mutate]) => [kind, label, mutate] as const),
);
const VALID: ReadonlyArray<readonly [string, string, Mutation]> = Object.entries(KIND_EXAMPLES).flatMap(([kind, e]) =>
  (e.valid ?? []).map(([label, mutate]) => [kind, label, mutate] as const),
);

function example(kind: string): Payload {
  const value = PAYLOAD_EXAMPLES[kind];
  if (value === undefined) throw new Error(`no example payload for ${kind}`);
  return structuredClone(value) as Payload;
}

function check(kind: string, payload: unknown) {
  const result = schemaRegistry().validatePayload(kind, payload);
  if (result === null) throw new Error(`no payload schema for ${kind}`);
  return result;
}

function expectValid(kind: string, payload: unknown): void {
  expect(check(kind, payload)).toEqual({ ok: true });
}

function expectInvalid(kind: string, payload: unknown): void {
  const result = check(kind, payload);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.error.length).toBeGreaterThan(0);
}

function changed(kind: string, mutate: Mutation): Payload {
  const payload = example(kind);
  mutate(payload);
  return payload;
}

describe('payload schema registry', () => {
  it('has exactly one payload schema per core and reference Command kind', () => {
    expect(schemaRegistry().payloadKinds).toEqual(KINDS);
    // The kinds the core modules register, counted nowhere by hand: a new kind is its module's entry.
    expect(KINDS).toEqual(coreRegistry().kindNames);
  });

  it('has one example per kind', () => {
    expect(Object.keys(PAYLOAD_EXAMPLES).sort()).toEqual(KINDS);
  });

  it('returns null for a kind without a payload schema', () => {
    expect(schemaRegistry().validatePayload('mission.pause', {})).toBeNull();
    expect(schemaRegistry().validatePayload('ext.acme.billing.invoice_send', {})).toBeNull();
  });
});

describeWithSpec('payload schemas and the spec', () => {
  it('cover every core Command kind of the official Command schema (§15.1)', () => {
    const official = specJson<{ $defs: { coreCommandKind: { enum: string[] } } }>('schemas/command.schema.json');
    expect(official.$defs.coreCommandKind.enum.length).toBeGreaterThan(0);
    expect(KINDS).toEqual(expect.arrayContaining(official.$defs.coreCommandKind.enum));
  });
});

describe.each(KINDS)('%s payload', (kind) => {
  const required = REQUIRED[kind] ?? [];
  const members = Object.keys(PAYLOAD_EXAMPLES[kind] as PayloadExample);
  const optional = members.filter((member) => !required.includes(member));

  it('accepts the example payload', () => {
    expectValid(kind, example(kind));
  });

  it('the example carries every required member', () => {
    expect(members).toEqual(expect.arrayContaining([...required]));
  });

  it.each(required.map((member) => [member]))('rejects a payload without %s', (member) => {
    expectInvalid(kind, changed(kind, (p) => delete p[member]));
  });

  it('accepts the payload without its optional members', () => {
    expectValid(kind, changed(kind, (p) => optional.forEach((member) => delete p[member])));
  });

  it.each(optional.map((member) => [member]))('treats %s as optional', (member) => {
    const together = COUPLED[kind]?.includes(member) === true ? (COUPLED[kind] ?? []) : [member];
    expectValid(kind, changed(kind, (p) => together.forEach((m) => delete p[m])));
  });

  it.each(members.map((member) => [member]))('rejects null for %s', (member) => {
    expectInvalid(kind, changed(kind, (p) => (p[member] = null)));
  });

  it('rejects an unknown member', () => {
    expectInvalid(kind, changed(kind, (p) => (p['note'] = 'not in the schema')));
  });

  it('rejects a snake_case spelling of a member', () => {
    const member = members.find((m) => /[A-Z]/.test(m));
    if (member === undefined) return;
    const snake = member.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    expectInvalid(
      kind,
      changed(kind, (p) => {
        p[snake] = p[member];
        delete p[member];
      }),
    );
  });

  it.each([['an array', []], ['a string', 'payload'], ['null', null], ['a number', 1]])('rejects %s', (_, value) => {
    expectInvalid(kind, value);
  });
});

/** Kind-specific violations: each must be rejected. */
describe('kind-specific rules', () => {
  it.each(INVALID.map(([kind, label, mutate]) => [kind, label, mutate] as const))('%s rejects %s', (kind, _, mutate) => {
    expectInvalid(kind, changed(kind, mutate));
  });

  it.each(VALID.map(([kind, label, mutate]) => [kind, label, mutate] as const))('%s accepts %s', (kind, _, mutate) => {
    expectValid(kind, changed(kind, mutate));
  });

  it('covers every kind with several kind-specific violations', () => {
    for (const kind of KINDS) {
      expect(INVALID.filter(([k]) => k === kind).length, kind).toBeGreaterThanOrEqual(2);
    }
  });
});

describe('shared shapes', () => {
  it('mission.create_follow_up is mission.create plus a required followUpOfMissionId', () => {
    const create = example('mission.create');
    expectInvalid('mission.create_follow_up', create);
    expectValid('mission.create_follow_up', { ...create, followUpOfMissionId: EXAMPLE_IDS.mission });
  });

  it.each([
    ['mission.submit_for_approval', 'artifactHashes'],
    ['mission.approve', 'artifactHashes'],
    ['work.submit', 'artifactHashes'],
  ])('%s rejects reference free-text hashes in %s', (kind, member) => {
    expectInvalid(kind, changed(kind, (p) => (p[member] = ['artifact-1'])));
  });

  it.each(BAD_TIMESTAMPS.map(([label, value]) => [label, value]))('every timestamp member rejects %s', (_, value) => {
    const cases: ReadonlyArray<readonly [string, Mutation]> = [
      ['mission.create_child', (p) => (p.deadline = value)],
      ['membership.grant_delegation', (p) => (p.expiresAt = value)],
      ['work.checkpoint', (p) => (p.checkpoint.createdAt = value)],
      ['work.offer', (p) => (p.selectionBasis.availabilityEstimate = value)],
      ['policy.grant_cooperation_override', (p) => (p.expiresAt = value)],
      ['membership.change', (p) => Object.assign(p, { ...PROVISIONAL, provisionalExpiresAt: value })],
    ];
    for (const [kind, mutate] of cases) expectInvalid(kind, changed(kind, mutate));
  });

  it.each(['agent', 'human', 'service'])('Principals accept type %s', (type) => {
    expectValid('membership.end', { principal: { type, id: 'urn:missionweave:principal:any' } });
  });
});
