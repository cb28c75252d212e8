/**
 * Differential test: our schemas (schemas/*.schema.json, compiled by the project registry)
 * against the official MissionWeave 0.1 schemas (read from the spec bundle at run time and
 * compiled separately with the same formats). Variants of the 27 valid conformance vectors —
 * deleted members, unknown or borrowed members, other JSON types, edge-case strings, numbers,
 * timestamps, URIs and every enum/const value of the official schemas, at any depth — must get
 * the same verdict from both. A deterministic sweep covers every single-point change; fast-check
 * adds random multi-point changes.
 */

import { basename } from 'node:path';
import fc from 'fast-check';
import { beforeEach, expect, it } from 'vitest';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { parseStrictJson } from '../src/protocol/strictJson.js';
import { EDGE_NUMBERS, EDGE_STRINGS, loadOfficialSchemas, TYPE_SWAPS } from './support/officialSchemas.js';
import { describeWithSpec, specBytes, specJson } from './support/spec.js';

type Key = string | number;
type Path = readonly Key[];
type Container = Record<Key, unknown>;

interface ManifestEntry {
  readonly name: string;
  readonly schema: string;
  readonly instance: string;
  readonly valid: boolean;
}

interface Seed {
  readonly name: string;
  readonly schema: string;
  readonly value: unknown;
  /** For a neighbour of a vector: the root members it changed; the sweep goes deep only there. */
  readonly focus?: ReadonlySet<string>;
}

const UNKNOWN_MEMBER = 'zzUnknownMember';

// Valid neighbours of the vectors, reaching conditional branches the vectors leave untouched.
// A patch replaces root members; `null` removes one.
const T = '2026-07-15T00:00:00Z';
const HASH = `sha256:${'b'.repeat(64)}`;
const AGENT = { type: 'agent', id: 'urn:a:1' };
const HUMAN = { type: 'human', id: 'urn:h:1' };
const SERVICE = { type: 'service', id: 'urn:s:1' };
const EXTENSIONS = { 'urn:ext:acme': { version: '1.0.0', critical: false, data: { any: [1] } } };
const LIMITS = { currency: 'USD', financialLimit: 1.5, modelTokenLimit: 1, toolCallLimit: 1, computeSecondsLimit: 1, wallClockSecondsLimit: 1, externalSideEffectLimit: 0 };
const GRANT = {
  grantId: 'urn:g:1', granteeAgentId: 'urn:a:1', missionId: 'urn:m:1', groupId: 'urn:g:2', targetWorkItemId: 'urn:w:1',
  allowedCapabilities: [{ id: 'acme.cap', version: '1.0.0' }], budget: LIMITS, maxDescendantDepth: 0,
  granteeMembershipEpoch: 1, coordinatorEpoch: 1, grantedBy: AGENT, grantedAt: T, expiresAt: T,
};
const NO_EPOCHS = { sessionEpoch: null, membershipEpoch: null, coordinatorEpoch: null };
const NEIGHBOURS: readonly [from: string, schema: string, patch: Record<string, unknown>][] = [
  ['service-session-open-command', 'command', { kind: 'ext.acme.registry.sync', extensions: EXTENSIONS }],
  ['command', 'command', { kind: 'mission.terminate', actor: SERVICE, ...NO_EPOCHS }],
  ['command', 'command', { kind: 'mission.terminate', cooperationOverrideGrantId: 'urn:o:1', causedByEventId: 'urn:e:1' }],
  ['command', 'command', { kind: 'message.post', actor: HUMAN, sessionEpoch: null, conversationId: 'urn:c:1', workItemId: 'urn:w:1' }],
  ['human-mission-create-command', 'command', { kind: 'mission.create_follow_up' }],
  ['event', 'event', { kind: 'ext.acme.registry.synced', extensions: EXTENSIONS, workItemId: 'urn:w:1' }],
  ['group', 'group', { state: 'archived', archivedAt: T, archiveSnapshotId: 'urn:s:1', extensions: EXTENSIONS }],
  ['membership', 'membership', { state: 'active', activatedAt: T, member: HUMAN }],
  ['membership', 'membership', { state: 'ended', endedAt: T, delegationGrants: [GRANT] }],
  ['conversation', 'conversation', { type: 'restricted', access: { mode: 'restricted', members: [HUMAN, AGENT] } }],
  ['message', 'message', { kind: 'correction', targetMessageId: 'urn:m:0', reason: 'typo', references: ['urn:r:1'] }],
  ['message', 'message', { content: [{ type: 'data_ref', schema: 'urn:schema:x', data: null }] }],
  ['approval', 'approval', { kind: 'work_execution', decision: 'revoked', workItemId: 'urn:w:1', revokesApprovalId: 'urn:a:0', artifactHashes: [], approver: SERVICE }],
  ['lease', 'lease', { leaseType: 'coordinator', coordinatorEpoch: 1, workItemId: null, ownershipEpoch: null, state: 'active', closedAt: null, closureReason: null, renewalCount: 0, lastRenewedAt: null }],
  ['lease', 'lease', { leaseType: 'ownership', startBy: T, graceExpiresAt: T, coordinatorEpoch: 1, state: 'revoked' }],
  ['work-item', 'work-item', {
    state: 'verified', submission: { artifactHashes: [HASH], evidenceIds: ['urn:e:1'], submittedAt: T },
    progress: { currentPhase: 'p', completedMilestones: ['m'], nextCheckpoint: 'c', blockers: [], updatedCompletionEstimate: T, evidenceIds: ['urn:e:1'] },
  }],
  ['work-item', 'work-item', { state: 'open', owner: null, selectionBasis: null, scheduleEstimate: null, offers: [{ offerId: 'urn:o:1', agentId: 'urn:a:1', agentCardVersion: 1, expiresAt: T, status: 'declined', declineReason: 'other' }] }],
  ['mission', 'mission', { followUpToMissionId: 'urn:m:0', pinnedProfiles: [{ profileUri: 'urn:p:1', majorVersion: 0 }], budget: LIMITS, extensions: EXTENSIONS }],
];

function paths(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((item, i) => paths(item, [...path, i], out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) paths(item, [...path, key], out);
  }
  return out;
}

function at(root: unknown, path: Path): unknown {
  let node = root;
  for (const key of path) node = (node as Container)[key];
  return node;
}

const isObject = (v: unknown): v is Container => v !== null && typeof v === 'object' && !Array.isArray(v);
const show = (path: Path): string => `/${path.join('/')}`;
const copy = <T>(value: T): T => (value !== null && typeof value === 'object' ? structuredClone(value) : value);

/** Applies one change in place and returns the undo. `undefined` deletes the member or item. */
function change(root: unknown, path: Path, next: unknown): () => void {
  const parent = at(root, path.slice(0, -1)) as Container;
  const key = path[path.length - 1] as Key;
  const had = Object.hasOwn(parent, key);
  const old = parent[key];
  if (Array.isArray(parent) && next === undefined) {
    parent.splice(key as number, 1);
    return () => parent.splice(key as number, 0, old);
  }
  if (next === undefined) delete parent[key];
  else parent[key] = next;
  return () => {
    if (had) parent[key] = old;
    else if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  };
}

describeWithSpec('our schemas agree with the official schemas', () => {
  const official = loadOfficialSchemas();
  const manifest = specJson<ManifestEntry[]>('conformance/manifest.json');
  const named = (entry: ManifestEntry): Seed => ({
    name: entry.name,
    schema: basename(entry.schema, '.schema.json'),
    value: parseStrictJson(specBytes(entry.instance)),
  });
  const vector = (file: string): unknown => parseStrictJson(specBytes(`conformance/vectors/valid/${file}.json`));
  const frame = (frameType: string, members: Record<string, unknown>): Record<string, unknown> => ({ protocolVersion: '0.1', frameId: 'urn:f:1', frameType, ...members });
  const hello = { frameType: 'HELLO', agentId: 'urn:a:1', keyId: 'urn:k:1', clientNonce: 'bm9uY2U', serverNonce: 'c2VydmVy' };
  const frames = [
    frame('COMMAND', { command: vector('command') }),
    frame('EVENT', { event: vector('organization-session-opened-event') }),
    frame('ERROR', { error: vector('error') }),
    frame('PING', { nonce: 'bm9uY2U', replyToNonce: 'b2xk', sentAt: T, presence: vector('presence-record') }),
    frame('ACK', { acknowledgements: [{ groupId: 'urn:g:1', sequence: 0 }], sentAt: T }),
    frame('HELLO', { ...hello, phase: 'client_init', serverNonce: undefined, supportedVersions: ['0.1'] }),
    frame('HELLO', { ...hello, phase: 'server_challenge', agentId: undefined, keyId: undefined, selectedVersion: '0.1', challenge: 'Y2hhbGxlbmdl' }),
    frame('HELLO', { ...hello, phase: 'client_response', challengeSignature: 'c2ln' }),
    frame('HELLO', { phase: 'server_accept', selectedVersion: '0.1', sessionToken: 'x'.repeat(16), sessionEpoch: 1, expiresAt: T }),
  ].map((value) => ({ name: `${value['frameType']} ${value['phase'] ?? ''} frame`, schema: 'websocket-frame', value: JSON.parse(JSON.stringify(value)) as unknown }));
  const neighbours = NEIGHBOURS.map(([from, schema, patch]) => {
    const value = vector(from) as Container;
    for (const [key, next] of Object.entries(patch)) {
      if (next === null) delete value[key];
      else value[key] = structuredClone(next);
    }
    return { name: `${from} with ${Object.keys(patch).join(', ')}`, schema, value, focus: new Set(Object.keys(patch)) };
  });
  const extras: Seed[] = [...neighbours, ...frames];
  const seeds = [...manifest.filter((entry) => entry.valid).map(named), ...extras];

  // Strings at and just past every length bound (both sides of the small, minimum-like ones),
  // and URIs at and past the 512-character identifier bound.
  const lengthStrings = [
    ...official.lengths.flatMap((n) => (n <= 16 ? [n - 1, n, n + 1] : [n, n + 1]).map((m) => 'a'.repeat(Math.max(m, 0)))),
    ...[511, 512, 513].map((n) => `urn:${'a'.repeat(n - 4)}`),
  ];
  const strings = [...new Set([...EDGE_STRINGS, ...lengthStrings])];
  const uriLeafStrings = strings.filter((text) => text.length <= 600 || text.includes(':'));
  const literals = official.literals;
  const subtrees = seeds.flatMap((seed) => paths(seed.value).slice(1).map((p) => at(seed.value, p)));
  /** A plausible value for each member name, borrowed from the vectors. */
  const sample = new Map<string, unknown>();
  for (const seed of seeds) {
    for (const p of paths(seed.value)) {
      const key = p[p.length - 1];
      if (typeof key === 'string' && !sample.has(key)) sample.set(key, at(seed.value, p));
    }
  }

  const verdicts = { valid: 0, total: 0 };
  const disagreements: string[] = [];
  beforeEach(() => {
    disagreements.length = 0;
  });

  /** Compares both verdicts; `what` describes the variant, computed only for a disagreement. */
  function compare(seed: Seed, value: unknown, what: () => string): boolean {
    const ours = schemaRegistry().validateObject(seed.schema, value).ok;
    const theirs = official.validators.get(seed.schema)?.(value) === true;
    verdicts.total++;
    if (theirs) verdicts.valid++;
    if (ours !== theirs) {
      disagreements.push(`${seed.schema} (${seed.name}) ${what()}: ours=${ours} official=${theirs} ${JSON.stringify(value).slice(0, 600)}`);
    }
    return ours === theirs;
  }

  /** Compares the variant with `next` at `path` (the whole value when the path is empty). */
  const tryChange = (seed: Seed, root: unknown, path: Path, next: unknown, what: () => string): void => {
    if (path.length === 0) {
      compare(seed, next, what);
      return;
    }
    const undo = change(root, path, copy(next));
    compare(seed, root, what);
    undo();
  };

  it('maps every official schema to one of ours and agrees on all 58 manifest vectors', () => {
    expect(official.validators.size).toBe(22);
    expect(schemaRegistry().objectNames).toEqual(expect.arrayContaining([...official.validators.keys()]));
    for (const entry of manifest) {
      const seed = named(entry);
      expect(official.validators.get(seed.schema)?.(seed.value)).toBe(entry.valid);
      compare(seed, seed.value, () => 'unchanged');
    }
    expect(disagreements).toEqual([]);
  });

  it.each(extras.map((seed) => [seed.name, seed] as const))('accepts the hand-made seed %s under both schemas', (_name, seed) => {
    expect(official.validators.get(seed.schema)?.(seed.value)).toBe(true);
    expect(schemaRegistry().validateObject(seed.schema, seed.value)).toEqual({ ok: true });
  });

  it.each(seeds.map((seed) => [seed.name, seed] as const))('agrees on every single-point change of the %s vector', (_name, seed) => {
    const root = structuredClone(seed.value);
    const ownLiterals = official.literalsOf.get(seed.schema) ?? [];
    for (const path of paths(root)) {
      if (seed.focus !== undefined && path.length > 1 && !seed.focus.has(String(path[0]))) continue;
      const node = at(root, path);
      if (path.length > 0) {
        tryChange(seed, root, path, undefined, () => `delete ${show(path)}`);
        // A leaf holding a colon (in these vectors: a URI, hash, timestamp or operation name of
        // at most 128 characters) skips the enum and const values (none has a colon) and the long
        // colon-free strings: neither can be valid there under either schema.
        const pool = typeof node === 'string' ? (node.includes(':') ? uriLeafStrings : [...strings, ...ownLiterals]) : typeof node === 'number' ? EDGE_NUMBERS : ownLiterals;
        for (const next of [...TYPE_SWAPS, ...pool]) tryChange(seed, root, path, next, () => `${show(path)} := ${JSON.stringify(next)}`);
      }
      if (isObject(node)) {
        tryChange(seed, root, [...path, UNKNOWN_MEMBER], 'x', () => `add ${show(path)}/${UNKNOWN_MEMBER}`);
        for (const name of official.memberNamesOf.get(seed.schema) ?? []) {
          if (Object.hasOwn(node, name)) continue;
          for (const next of [sample.get(name) ?? 'urn:x:y', 1, ...(official.literalsByMember.get(name) ?? [])]) {
            tryChange(seed, root, [...path, name], next, () => `add ${show(path)}/${name}`);
          }
        }
      }
      const entries = isObject(node) ? Object.entries(node) : [];
      for (const [keep, value] of entries.length > 1 ? entries : []) {
        tryChange(seed, root, path, { [keep]: value }, () => `keep only ${show(path)}/${keep}`);
      }
      for (const [key] of entries) {
        const renamed = Object.fromEntries(entries.map(([k, v]) => [k === key ? 'not a URI' : k, v]));
        tryChange(seed, root, path, renamed, () => `rename ${show(path)}/${key}`);
      }
      if (Array.isArray(node) && node.length > 0) {
        tryChange(seed, root, [...path, node.length], node[0], () => `duplicate first item of ${show(path)}`);
      }
    }
    expect(root).toEqual(seed.value);
    expect(disagreements).toEqual([]);
  });

  // A random multi-point mutation: which operation, where, and which value or member name.
  const mutation = fc.record({
    op: fc.constantFrom('delete', 'add', 'replace', 'append', 'rename'),
    where: fc.nat(),
    pool: fc.constantFrom('swap', 'string', 'number', 'literal', 'subtree'),
    pick: fc.nat(),
    name: fc.nat(),
  });
  type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

  function pickValue(m: Mutation): unknown {
    const pools: Record<Mutation['pool'], readonly unknown[]> = {
      swap: TYPE_SWAPS, string: strings, number: EDGE_NUMBERS, literal: literals, subtree: subtrees,
    };
    const pool = pools[m.pool];
    return copy(pool[m.pick % pool.length]);
  }

  function apply(root: { value: unknown }, m: Mutation): string {
    const all = paths(root.value);
    if (m.op === 'add') {
      const objects = all.filter((p) => isObject(at(root.value, p)));
      if (objects.length === 0) return 'no object';
      const path = objects[m.where % objects.length] as Path;
      const names = [...official.memberNames, UNKNOWN_MEMBER];
      const name = names[m.name % names.length] as string;
      const next = m.pool === 'subtree' && sample.has(name) ? copy(sample.get(name)) : pickValue(m);
      change(root.value, [...path, name], next);
      return `add ${show(path)}/${name}`;
    }
    if (m.op === 'rename') {
      const members = all.filter((p) => p.length > 0 && typeof p[p.length - 1] === 'string');
      if (members.length === 0) return 'no member';
      const path = members[m.where % members.length] as Path;
      const parent = at(root.value, path.slice(0, -1)) as Container;
      const value = parent[path[path.length - 1] as string];
      change(root.value, path, undefined);
      parent[strings[m.name % strings.length] as string] = value;
      return `rename ${show(path)}`;
    }
    if (m.op === 'append') {
      const arrays = all.filter((p) => Array.isArray(at(root.value, p)));
      if (arrays.length === 0) return 'no array';
      const path = arrays[m.where % arrays.length] as Path;
      const array = at(root.value, path) as unknown[];
      array.push(m.pool === 'subtree' && array.length > 0 ? copy(array[0]) : pickValue(m));
      return `append to ${show(path)}`;
    }
    const inner = all.slice(1); // every vector is a non-empty object
    const path = inner[m.where % inner.length] as Path;
    change(root.value, path, m.op === 'delete' ? undefined : pickValue(m));
    return `${m.op} ${show(path)}`;
  }

  it.each(seeds.map((seed) => [seed.name, seed] as const))('agrees on random multi-point changes of the %s vector', (_name, seed) => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (mutations) => {
        const root = { value: structuredClone(seed.value) };
        const steps = mutations.map((m) => apply(root, m));
        return compare(seed, root.value, () => steps.join('; '));
      }),
      { numRuns: 300 },
    );
    expect(disagreements).toEqual([]);
  });

  it('ran thousands of variants with both verdicts well represented', () => {
    expect(official.literals.filter((literal) => typeof literal === 'string' && literal.includes(':'))).toEqual([]);
    expect(verdicts.total).toBeGreaterThan(20_000);
    expect(verdicts.valid).toBeGreaterThan(1_000);
    expect(verdicts.total - verdicts.valid).toBeGreaterThan(1_000);
  });
});
