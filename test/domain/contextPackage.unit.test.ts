/**
 * The Context Package builder (§13.3, §8, §7.2; src/domain/context/): what each recipient's
 * package holds, limited to what its Membership may read, and how versions chain.
 */

import { describe, expect, it } from 'vitest';
import { buildContextPackage, CONTEXT_PROVENANCE_EXTENSION, type PackageRequest } from '../../src/domain/context/buildContextPackage.js';
import { sourceEventOf, type SourceEvent } from '../../src/domain/context/contextFacts.js';
import { MAX_DECISIONS } from '../../src/domain/context/contextLimits.js';
import { contextViewOf } from '../../src/domain/context/contextScope.js';
import type { PublishedArtifact } from '../../src/domain/artifact/artifactDocuments.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import { principalKey } from '../../src/protocol/principal.js';
import { schemaRegistry } from '../../src/protocol/schemas/files.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import { AUTHORITY, COORD, HASH_A, HASH_B, MISSION, OWNER, REVIEWER, WORK, WORKER, WORKER2, at, command, history, stateOf, steps, T0 } from './fixtures.js';

const W2 = 'urn:missionweave:work-item:w2';
const PACKAGE_ID = 'urn:missionweave:context-package:p1';
/** The Organization's context generator Agent: the schema admits only an Agent as `generatedBy`. */
const GENERATOR = { type: 'agent', id: 'urn:missionweave:agent:organization:context-generator' } as const;

/** w1 and w2 authorized, then worker-8 joins late, then w2 is offered to worker-7 and reviewer-3 is granted provisionally. */
const events: RecordedEvent[] = history([
  steps.create,
  steps.addMember(WORKER),
  steps.authorize(WORK),
  steps.authorize(W2),
  steps.addMember(WORKER2),
  steps.offer([WORKER], W2),
  (s) =>
    command(s!, OWNER, 'membership.change', {
      principal: REVIEWER,
      roles: ['worker'],
      provisional: true,
      contextPackageId: 'urn:missionweave:context-package:named',
      provisionalExpiresAt: at(3600),
    }),
  steps.post(WORKER, 'urn:missionweave:message:m-1', 'starting on w1'),
]);

function artifact(contentHash: string, workItemId: string, publishedAt: string): PublishedArtifact {
  return { contentHash, workItemId, manifest: {} as PublishedArtifact['manifest'], ownershipEpoch: 1, executionLeaseId: 'urn:x:lease', publishedAt, eventId: `urn:x:event:${contentHash}`, revision: 1 };
}

const base = stateOf(events);
const state: GroupState = {
  ...base,
  artifacts: new Map([
    [HASH_A, artifact(HASH_A, WORK, at(1))],
    [HASH_B, artifact(HASH_B, W2, at(2))],
  ]),
};
const sources: SourceEvent[] = events.map((e) => sourceEventOf(e.sequence!, e.eventId, e.kind, { payload: e.payload }));

function membershipOf(principal: { type: string; id: string }) {
  const membership = state.memberships.get(principalKey(principal as never));
  if (membership === undefined) throw new Error('no Membership');
  return membership;
}

function build(recipient: { type: string; id: string }, extra: Partial<PackageRequest> = {}): JsonObject {
  const membership = membershipOf(recipient);
  const view = contextViewOf(membership);
  if (view === undefined) throw new Error('no view');
  const result = buildContextPackage({
    state,
    events: sources,
    view,
    scope: { missionId: MISSION },
    contextPackageId: PACKAGE_ID,
    generatedBy: GENERATOR,
    generatedAt: T0,
    ...extra,
  });
  if (!result.ok) throw new Error(result.message);
  // Every package built here is a valid Context Package under the schema (§22).
  expectSchemaValid(result.unsigned);
  return result.unsigned;
}

function eventIds(pkg: JsonObject): string[] {
  return (pkg['sourceEventRange'] as { eventIds: string[] }).eventIds;
}

function signedForm(pkg: JsonObject): JsonObject {
  return { ...pkg, signature: { algorithm: 'Ed25519', keyId: 'urn:x:key', createdAt: T0, value: 'A'.repeat(86) } };
}

function expectSchemaValid(pkg: JsonObject): void {
  expect(schemaRegistry().validateObject('context-package', signedForm(pkg))).toMatchObject({ ok: true });
}

describe('a Coordinator (full visibility, the Mission)', () => {
  const pkg = build(COORD);

  it('summarises the whole history through the head, every WorkItem and Artifact', () => {
    expect(pkg['sourceEventRange']).toMatchObject({ fromSequence: 1, toSequence: state.lastSequence });
    expect(eventIds(pkg)).toEqual(events.map((e) => e.eventId));
    expect(pkg['artifactHashes']).toEqual([HASH_A, HASH_B]);
    expect(pkg).toMatchObject({ version: 1, missionId: MISSION, groupId: state.groupId, generatedBy: GENERATOR, generatedAt: T0 });
    expect(pkg['workItemId']).toBeUndefined();
    expectSchemaValid(pkg);
  });

  it('lists accepted transitions as decisions citing their Events, but no Message', () => {
    const decisions = pkg['decisions'] as { description: string; sourceEventIds: string[] }[];
    expect(decisions.map((d) => d.description.split(/[ ;]/)[0])).toEqual(events.filter((e) => !e.kind.startsWith('message.')).map((e) => e.kind));
    expect(decisions.find((d) => d.description.startsWith('work.offer'))?.description).toContain(`WorkItem ${W2}`);
  });

  it('states the Mission’s budget, deadline and approval policy, and each open contract', () => {
    const constraints = pkg['constraints'] as string[];
    expect(constraints[0]).toBe(`Mission deadline: ${state.mission.deadline}`);
    expect(constraints.some((c) => c.startsWith('Mission budget: financial ≤'))).toBe(true);
    expect(constraints.some((c) => c.startsWith('Approval policy: final human approval required'))).toBe(true);
    expect(constraints.filter((c) => c.startsWith('WorkItem '))).toHaveLength(2);
    expect(pkg['unresolvedQuestions']).toEqual([`WorkItem ${W2} is offered and awaits a candidate's acceptance`]);
  });
});

describe('a late joiner (active, visibility from its grant)', () => {
  const pkg = build(WORKER2);
  const start = membershipOf(WORKER2).visibilityStartSequence;

  it('omits every Event before its visibility start, in the range and in decisions', () => {
    expect(start).toBeGreaterThan(1);
    expect(pkg['sourceEventRange']).toMatchObject({ fromSequence: start, toSequence: state.lastSequence });
    const hidden = events.filter((e) => e.sequence! < start).map((e) => e.eventId);
    const cited = [...eventIds(pkg), ...(pkg['decisions'] as { sourceEventIds: string[] }[]).flatMap((d) => d.sourceEventIds)];
    expect(cited.filter((id) => hidden.includes(id))).toEqual([]);
    expect((pkg['decisions'] as { description: string }[]).some((d) => d.description.startsWith('work.authorized'))).toBe(false);
  });

  it('still gets what is now: open questions and the Artifact references of the Mission', () => {
    expect(pkg['artifactHashes']).toEqual([HASH_A, HASH_B]);
    expect(pkg['unresolvedQuestions']).toHaveLength(1);
    expectSchemaValid(pkg);
  });
});

describe('a provisional member', () => {
  const membership = membershipOf(REVIEWER);
  const pkg = build(REVIEWER);

  it('gets no open questions and no Artifact references, only its terms and what it may read', () => {
    expect(membership.state).toBe('provisional');
    expect(pkg['artifactHashes']).toEqual([]);
    expect(pkg['unresolvedQuestions']).toEqual([]);
    expect((pkg['constraints'] as string[]).length).toBeGreaterThan(0);
    expect((pkg['sourceEventRange'] as { fromSequence: number }).fromSequence).toBe(membership.visibilityStartSequence);
    expect(pkg['summary']).toContain('Provisional Membership');
    expectSchemaValid(pkg);
  });

  it('ended, receives nothing', () => {
    expect(contextViewOf({ ...membership, state: 'ended' })).toBeUndefined();
  });
});

describe('a WorkItem-scoped package', () => {
  const pkg = build(COORD, { scope: { missionId: MISSION, workItemId: W2 } });

  it('omits other WorkItems: their Events, contracts, questions and Artifacts', () => {
    expect(pkg['workItemId']).toBe(W2);
    const w2Events = events.filter((e) => (e.payload['workItemId'] ?? (e.payload['workItem'] as JsonObject | undefined)?.['workItemId']) === W2);
    expect(eventIds(pkg)).toEqual(w2Events.map((e) => e.eventId));
    expect(JSON.stringify(pkg)).not.toContain(WORK);
    expect(pkg['artifactHashes']).toEqual([HASH_B]);
    expect((pkg['constraints'] as string[]).every((c) => c.startsWith(`WorkItem ${W2}`))).toBe(true);
    expectSchemaValid(pkg);
  });

  it('refuses a WorkItem the Group does not have', () => {
    const membership = membershipOf(COORD);
    const result = buildContextPackage({ state, events: sources, view: contextViewOf(membership)!, scope: { missionId: MISSION, workItemId: 'urn:x:none' }, contextPackageId: PACKAGE_ID, generatedBy: GENERATOR, generatedAt: T0 });
    expect(result).toMatchObject({ ok: false, reason: 'unknown-work-item' });
  });

  it('refuses when nothing in scope is readable', () => {
    const result = buildContextPackage({ state, events: sources, view: { firstSequence: state.lastSequence + 1, currentContent: true }, scope: { missionId: MISSION }, contextPackageId: PACKAGE_ID, generatedBy: GENERATOR, generatedAt: T0 });
    expect(result).toMatchObject({ ok: false, reason: 'nothing-readable' });
  });
});

describe('versions', () => {
  it('an update is version n + 1 naming the previous package and carrying its hash', () => {
    const previous = { contextPackageId: 'urn:missionweave:context-package:p0', version: 3, packageHash: `sha256:${'c'.repeat(64)}` };
    const pkg = build(COORD, { previous });
    expect(pkg).toMatchObject({ version: 4, previousContextPackageId: previous.contextPackageId });
    expect(pkg['extensions']).toEqual({ [CONTEXT_PROVENANCE_EXTENSION]: { version: '1.0.0', critical: false, data: { previousPackageHash: previous.packageHash } } });
    expectSchemaValid(pkg);
  });

  it('names the context generator Agent as generatedBy; the schema refuses a service there', () => {
    const pkg = build(COORD);
    expect(pkg['generatedBy']).toEqual(GENERATOR);
    expect(schemaRegistry().validateObject('context-package', signedForm({ ...pkg, generatedBy: { ...AUTHORITY } }))).toMatchObject({ ok: false });
  });

  it('a first package names no previous one', () => {
    const pkg = build(COORD);
    expect(pkg['previousContextPackageId']).toBeUndefined();
    expect(pkg['extensions']).toBeUndefined();
  });
});

describe('bounds', () => {
  it('keeps the newest decisions and says how many were left out', () => {
    const many: SourceEvent[] = Array.from({ length: MAX_DECISIONS + 50 }, (_, i) => ({ sequence: i + 1, eventId: `urn:x:e${i + 1}`, kind: 'work.authorized', workItemId: WORK }));
    const big: GroupState = { ...state, lastSequence: many.length };
    const result = buildContextPackage({ state: big, events: many, view: { firstSequence: 1, currentContent: true }, scope: { missionId: MISSION }, contextPackageId: PACKAGE_ID, generatedBy: GENERATOR, generatedAt: T0 });
    if (!result.ok) throw new Error(result.message);
    const decisions = result.unsigned['decisions'] as { sourceEventIds: string[] }[];
    expect(decisions).toHaveLength(MAX_DECISIONS);
    expect(decisions[0]!.sourceEventIds).toEqual(['urn:x:e51']);
    expect(result.unsigned['summary']).toContain('50 older decisions left out');
    expectSchemaValid(result.unsigned);
  });

  it('cuts a long quoted text', () => {
    const long: GroupState = { ...state, mission: { ...state.mission, objective: 'x'.repeat(5_000) } };
    const result = buildContextPackage({ state: long, events: sources, view: { firstSequence: 1, currentContent: true }, scope: { missionId: MISSION }, contextPackageId: PACKAGE_ID, generatedBy: GENERATOR, generatedAt: T0 });
    if (!result.ok) throw new Error(result.message);
    expect((result.unsigned['summary'] as string).length).toBeLessThan(2_000);
    expect(result.unsigned['summary']).toContain('(cut)');
  });
});
