/**
 * Our JSON Schemas (schemas/*.schema.json) against the official MissionWeave 0.1 conformance
 * manifest, plus hand-written cases for rules that the 58 official vectors do not exercise.
 */

import { basename } from 'node:path';
import { expect, it } from 'vitest';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { parseStrictJson } from '../src/protocol/strictJson.js';
import { describeWithSpec, specBytes, specJson } from './support/spec.js';

const OBJECT_NAMES = [
  'agent-card', 'approval', 'artifact', 'command', 'common', 'context-package', 'conversation', 'error', 'event',
  'evidence', 'extension-profile', 'first-admission-record', 'group', 'group-snapshot', 'lease', 'membership',
  'message', 'mission', 'presence-record', 'websocket-frame', 'work-contract', 'work-item',
];

interface ManifestEntry {
  readonly name: string;
  readonly schema: string;
  readonly instance: string;
  readonly valid: boolean;
}

type Json = Record<string, unknown>;

const schemaName = (schemaPath: string): string => basename(schemaPath, '.schema.json');

/** A valid official vector, parsed strictly, as a fresh mutable copy. */
function validVector(file: string): Json {
  return parseStrictJson(specBytes(`conformance/vectors/valid/${file}.json`)) as Json;
}

/** Walks a dotted path ("a.b.0.c") down to the parent of its last segment. */
function parentOf(root: Json, path: string): [Json, string] {
  const keys = path.split('.');
  const last = keys.pop() as string;
  let node: unknown = root;
  for (const key of keys) node = (node as Json)[key];
  return [node as Json, last];
}

const set = (path: string, value: unknown) => (v: Json) => {
  const [parent, key] = parentOf(v, path);
  parent[key] = value;
};
const drop = (path: string) => (v: Json) => {
  const [parent, key] = parentOf(v, path);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
};
const all = (...changes: ((v: Json) => void)[]) => (v: Json) => changes.forEach((change) => change(v));

interface HandCase {
  readonly object: string;
  readonly from: string;
  readonly why: string;
  readonly change: (v: Json) => void;
  readonly valid: boolean;
}

const SIG = { algorithm: 'Ed25519', keyId: 'urn:k:1', createdAt: '2026-07-15T00:00:00Z', value: 'c2ln' };
const PING = { protocolVersion: '0.1', frameId: 'urn:f:1', frameType: 'PING', nonce: 'bm9uY2U', sentAt: '2026-07-15T00:00:00Z' };
const ERROR = { code: 'BACKPRESSURE', message: 'slow down', retryable: true, occurredAt: '2026-07-15T00:00:00Z' };
const HELLO = {
  protocolVersion: '0.1', frameId: 'urn:f:2', frameType: 'HELLO', phase: 'client_init',
  agentId: 'urn:a:1', keyId: 'urn:k:1', clientNonce: 'bm9uY2U', supportedVersions: ['0.1'],
};

const HAND_CASES: HandCase[] = [
  // Command (§15.1)
  { object: 'command', from: 'command', why: 'Group Command without groupId', change: drop('groupId'), valid: false },
  { object: 'command', from: 'command', why: 'unknown core kind', change: set('kind', 'mission.pause'), valid: false },
  { object: 'command', from: 'command', why: 'extension kind with two segments', change: set('kind', 'ext.acme.thing'), valid: false },
  { object: 'command', from: 'service-session-open-command', why: 'Organization bootstrap Command naming a Group', change: set('groupId', 'urn:g:1'), valid: false },
  { object: 'command', from: 'service-session-open-command', why: 'Organization bootstrap Command from an Agent', change: set('actor.type', 'agent'), valid: false },
  { object: 'command', from: 'service-session-open-command', why: 'service Command of another extension kind', change: set('kind', 'ext.acme.registry.sync'), valid: true },
  { object: 'command', from: 'service-session-open-command', why: 'service Command with a Membership Epoch', change: all(set('kind', 'ext.acme.registry.sync'), set('membershipEpoch', 1)), valid: false },
  { object: 'command', from: 'human-mission-create-command', why: 'mission.create by an Agent', change: set('actor.type', 'agent'), valid: false },
  { object: 'command', from: 'human-mission-create-command', why: 'mission.create with a Membership Epoch', change: set('membershipEpoch', 1), valid: false },
  { object: 'command', from: 'human-mission-create-command', why: 'human follow-up Mission creation', change: set('kind', 'mission.create_follow_up'), valid: true },
  { object: 'command', from: 'human-mission-create-command', why: 'human Group Command without Membership Epoch', change: set('kind', 'message.post'), valid: false },
  { object: 'command', from: 'command', why: 'mission.terminate by a human', change: all(set('kind', 'mission.terminate'), set('actor.type', 'human'), drop('sessionEpoch')), valid: false },
  { object: 'command', from: 'command', why: 'Agent mission.terminate without Coordinator Epoch', change: all(set('kind', 'mission.terminate'), drop('coordinatorEpoch')), valid: false },
  { object: 'command', from: 'command', why: 'service mission.terminate without epochs', change: all(set('kind', 'mission.terminate'), set('actor.type', 'service'), drop('sessionEpoch'), drop('membershipEpoch'), drop('coordinatorEpoch')), valid: true },
  { object: 'command', from: 'command', why: 'signature with another algorithm', change: set('signature.algorithm', 'ES256'), valid: false },
  { object: 'command', from: 'command', why: 'issuedAt with a leap second', change: set('issuedAt', '2026-06-30T23:59:60Z'), valid: false },
  { object: 'command', from: 'command', why: 'Session Epoch zero', change: set('sessionEpoch', 0), valid: false },
  // Event (§15.2)
  { object: 'event', from: 'event', why: 'Group Event missing sequence', change: drop('sequence'), valid: false },
  { object: 'event', from: 'event', why: 'Group Event missing aggregate revision', change: drop('aggregateRevision'), valid: false },
  { object: 'event', from: 'event', why: 'unknown cause type', change: set('cause.type', 'rumour'), valid: false },
  { object: 'event', from: 'event', why: 'sequence beyond the safe integers', change: set('sequence', 2 ** 53), valid: false },
  { object: 'event', from: 'organization-session-opened-event', why: 'Organization Event with a sequence', change: set('sequence', 1), valid: false },
  { object: 'event', from: 'organization-session-opened-event', why: 'Organization Event from a human', change: set('actor.type', 'human'), valid: false },
  // WebSocket frames (§17)
  { object: 'websocket-frame', from: 'websocket-frame', why: 'binary frame type', change: set('frameType', 'BINARY'), valid: false },
  { object: 'websocket-frame', from: 'websocket-frame', why: 'lower-case frame type', change: set('frameType', 'subscribe'), valid: false },
  { object: 'websocket-frame', from: 'websocket-frame', why: 'subscription without Groups', change: set('groups', []), valid: false },
  { object: 'websocket-frame', from: 'websocket-frame', why: 'unknown attention filter', change: set('groups.0.attention.priority', 'high'), valid: false },
  { object: 'websocket-frame', from: 'websocket-frame', why: 'a PING frame', change: (v) => replace(v, PING), valid: true },
  { object: 'websocket-frame', from: 'websocket-frame', why: 'a PING with a one-character nonce', change: (v) => replace(v, { ...PING, nonce: 'b' }), valid: false },
  { object: 'websocket-frame', from: 'websocket-frame', why: 'an ERROR frame', change: (v) => replace(v, { ...PING, frameType: 'ERROR', nonce: undefined, sentAt: undefined, error: ERROR }), valid: true },
  { object: 'websocket-frame', from: 'websocket-frame', why: 'an ERROR frame with an unknown code', change: (v) => replace(v, { ...PING, frameType: 'ERROR', nonce: undefined, sentAt: undefined, error: { ...ERROR, code: 'TEAPOT' } }), valid: false },
  { object: 'websocket-frame', from: 'websocket-frame', why: 'a HELLO client_init', change: (v) => replace(v, HELLO), valid: true },
  { object: 'websocket-frame', from: 'websocket-frame', why: 'a HELLO with an unknown phase', change: (v) => replace(v, { ...HELLO, phase: 'client_retry' }), valid: false },
  { object: 'websocket-frame', from: 'websocket-frame', why: 'a HELLO offering version 0.2', change: (v) => replace(v, { ...HELLO, supportedVersions: ['0.2'] }), valid: false },
  // Error (§19)
  { object: 'error', from: 'error', why: 'unknown code', change: set('code', 'NOT_FOUND'), valid: false },
  { object: 'error', from: 'error', why: 'missing retryable', change: drop('retryable'), valid: false },
  { object: 'error', from: 'error', why: 'empty message', change: set('message', ''), valid: false },
  { object: 'error', from: 'error', why: 'occurredAt with -00:00', change: set('occurredAt', '2026-07-15T00:00:02-00:00'), valid: false },
  // Durable objects
  { object: 'agent-card', from: 'agent-card', why: 'ws:// endpoint', change: set('endpoints.0.uri', 'ws://agent.example/mw'), valid: false },
  { object: 'agent-card', from: 'agent-card', why: 'protocol version 0.2', change: set('protocolVersions', ['0.2']), valid: false },
  { object: 'presence-record', from: 'presence-record', why: 'unknown status', change: set('status', 'sleeping'), valid: false },
  { object: 'presence-record', from: 'presence-record', why: 'zero maxSlots', change: set('capacity.maxSlots', 0), valid: false },
  { object: 'mission', from: 'mission', why: 'root Mission owned by an Agent', change: set('missionOwner.type', 'agent'), valid: false },
  { object: 'mission', from: 'child-mission', why: 'child Mission owned by a human', change: set('missionOwner.type', 'human'), valid: false },
  { object: 'mission', from: 'mission', why: 'budget with a currency but no limit', change: set('budget', { currency: 'USD' }), valid: false },
  { object: 'mission', from: 'mission', why: 'empty budget', change: set('budget', {}), valid: false },
  { object: 'group', from: 'group', why: 'active Group with an archive time', change: set('archivedAt', '2026-07-16T00:00:00Z'), valid: false },
  { object: 'group', from: 'group', why: 'archived Group with snapshot', change: all(set('state', 'archived'), set('archivedAt', '2026-07-16T00:00:00Z'), set('archiveSnapshotId', 'urn:s:1')), valid: true },
  { object: 'membership', from: 'membership', why: 'ended Membership without endedAt', change: set('state', 'ended'), valid: false },
  { object: 'membership', from: 'membership', why: 'active Membership without activatedAt', change: set('state', 'active'), valid: false },
  { object: 'conversation', from: 'conversation', why: 'restricted Conversation open to the Group', change: set('type', 'restricted'), valid: false },
  { object: 'conversation', from: 'conversation', why: 'restricted access without members', change: set('access.mode', 'restricted'), valid: false },
  { object: 'message', from: 'message', why: 'correction without target', change: all(set('kind', 'correction'), set('reason', 'typo')), valid: false },
  { object: 'message', from: 'message', why: 'unknown content part', change: set('content.0.type', 'stream_chunk'), valid: false },
  { object: 'work-contract', from: 'work-contract', why: 'duration with years', change: set('retryPolicy.maxDelay', 'P1Y'), valid: false },
  { object: 'work-contract', from: 'work-contract', why: 'bare duration P', change: set('retryPolicy.maxDelay', 'P'), valid: false },
  { object: 'work-item', from: 'work-item', why: 'submitted WorkItem without submission', change: set('state', 'submitted'), valid: false },
  { object: 'work-item', from: 'work-item', why: 'confidence above 1', change: set('scheduleEstimate.confidence', 1.5), valid: false },
  { object: 'artifact', from: 'artifact', why: 'unknown classification', change: set('classification', 'secret'), valid: false },
  { object: 'artifact', from: 'artifact', why: 'upper-case content hash', change: set('contentHash', `sha256:${'A'.repeat(64)}`), valid: false },
  { object: 'evidence', from: 'evidence', why: 'unknown result', change: set('result', 'maybe'), valid: false },
  { object: 'lease', from: 'lease', why: 'released Lease without closure reason', change: drop('closureReason'), valid: false },
  { object: 'lease', from: 'lease', why: 'Execution Lease with a Coordinator Epoch', change: set('coordinatorEpoch', 1), valid: false },
  { object: 'lease', from: 'lease', why: 'never-renewed Lease with a renewal time', change: set('renewalCount', 0), valid: false },
  { object: 'lease', from: 'lease', why: 'blank closure reason', change: set('closureReason', '   '), valid: false },
  { object: 'approval', from: 'approval', why: 'final approval without Artifacts', change: set('artifactHashes', []), valid: false },
  { object: 'approval', from: 'approval', why: 'revocation without the revoked Approval', change: set('decision', 'revoked'), valid: false },
  { object: 'approval', from: 'approval', why: 'work_execution Approval without WorkItem', change: set('kind', 'work_execution'), valid: false },
  { object: 'context-package', from: 'context-package', why: 'generated by a human', change: set('generatedBy.type', 'human'), valid: false },
  { object: 'group-snapshot', from: 'group-snapshot', why: 'created by an Agent', change: set('createdBy.type', 'agent'), valid: false },
  { object: 'extension-profile', from: 'extension-profile', why: 'core Command kind', change: set('commandKinds', ['work.start']), valid: false },
  { object: 'first-admission-record', from: 'first-admission-record', why: 'accepted by an Agent', change: set('acceptedBy.type', 'agent'), valid: false },
  { object: 'first-admission-record', from: 'first-admission-record', why: 'unknown document kind', change: set('documentKind', 'message'), valid: false },
];

/** Replaces a whole vector by another object (undefined members are left out). */
function replace(v: Json, next: Json): void {
  for (const key of Object.keys(v)) delete v[key];
  for (const [key, value] of Object.entries(next)) if (value !== undefined) v[key] = value;
}

describeWithSpec('our schemas against the official conformance manifest', () => {
  const manifest = specJson<ManifestEntry[]>('conformance/manifest.json');

  it('has 58 structural vectors, 27 valid and 31 invalid', () => {
    expect(manifest).toHaveLength(58);
    expect(manifest.filter((entry) => entry.valid)).toHaveLength(27);
    expect(manifest.filter((entry) => !entry.valid)).toHaveLength(31);
  });

  it('compiles all 22 normative objects in strict mode', () => {
    expect(OBJECT_NAMES).toHaveLength(22);
    expect(schemaRegistry().objectNames).toEqual(expect.arrayContaining(OBJECT_NAMES));
  });

  it.each(manifest.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    const value = parseStrictJson(specBytes(entry.instance));
    expect(schemaRegistry().validateObject(schemaName(entry.schema), value).ok).toBe(entry.valid);
  });
});

describeWithSpec('our schemas on hand-written cases', () => {
  it('signs its own fixtures with a well-formed signature', () => {
    const command = validVector('command');
    command['signature'] = SIG;
    expect(schemaRegistry().validateObject('command', command).ok).toBe(true);
  });

  it.each(HAND_CASES.map((c) => [c.object, c.valid ? 'accepts' : 'rejects', c.why, c] as const))(
    '%s %s: %s',
    (object, _verdict, _why, c) => {
      const value = validVector(c.from);
      expect(schemaRegistry().validateObject(object, value).ok).toBe(true);
      c.change(value);
      expect(schemaRegistry().validateObject(object, value).ok).toBe(c.valid);
    },
  );
});
