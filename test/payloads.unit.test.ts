/**
 * Command payload schemas (schemas/payloads/<kind>.schema.json): member names and required
 * members follow the Python reference runtime's payload models, shapes follow the normative
 * spec where the two disagree (docs/reference-differences.md).
 */

import { describe, expect, it } from 'vitest';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import {
  EXAMPLE_EVIDENCE,
  EXAMPLE_HASHES,
  EXAMPLE_IDS,
  KIND_EXAMPLES,
  PAYLOAD_EXAMPLES,
  type PayloadExample,
} from './support/payloadExamples.js';

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

const RELATIVE_ID = 'work-items/schema-port';
const LONG = (n: number): string => 'x'.repeat(n);
const HASH = EXAMPLE_HASHES.migration;
/** Shapes the reference runtime sends where the spec defines its own (docs/reference-differences.md). */
const REFERENCE_BUDGET = { financialMicrounits: 5000000, modelTokens: 100000 };
const REFERENCE_EVIDENCE = { kind: 'deterministic-tests', description: 'pytest passed', success: true };
const REFERENCE_CONTRACT = {
  goal: 'Port the billing schema',
  deliverables: ['migration script'],
  acceptanceCriteria: ['migration tests pass'],
  deadline: '2026-09-20T17:00:00Z',
};
const REFERENCE_SELECTION_BASIS = {
  requiredCapabilities: [{ id: 'acme.sql-migration', minimumVersion: 1 }],
  verifiedCapabilityMatches: ['acme.sql-migration'],
  authorizationEligible: true,
  expectedCostMicrounits: 42500000,
};
const REFERENCE_ARTIFACT = {
  id: EXAMPLE_IDS.artifact,
  contentHash: HASH,
  mediaType: 'application/sql',
  producingAgentId: EXAMPLE_IDS.worker,
  agentCardVersion: 4,
  missionId: EXAMPLE_IDS.mission,
  groupId: EXAMPLE_IDS.group,
  workItemId: EXAMPLE_IDS.workItem,
  createdAt: '2026-09-01T12:00:00Z',
  dataClassification: 'internal',
  signature: 'c2ln',
};
const REFERENCE_AGENT_CARD = {
  agentId: EXAMPLE_IDS.worker,
  version: 4,
  displayName: 'SQL Migration Worker 7',
  owner: 'human:platform-lead',
  publicKey: 'A'.repeat(43),
  capabilities: [{ id: 'acme.sql-migration', version: 1 }],
  issuedAt: '2026-08-01T00:00:00Z',
  signature: 'c2ln',
};
const PROVISIONAL = {
  provisional: true,
  contextPackageId: EXAMPLE_IDS.contextPackage,
  provisionalExpiresAt: '2026-09-01T13:00:00Z',
};
const CONTENT_PARTS = [
  { type: 'text', text: 'Schema diff attached.' },
  { type: 'artifact_ref', artifactHash: HASH },
  { type: 'data_ref', schema: 'https://schemas.acme.example/row-counts.json', data: { invoices: 182344 } },
];
const BAD_TIMESTAMPS = [
  ['date only', '2026-09-01'],
  ['no offset', '2026-09-01T12:00:00'],
  ['leap second', '2026-06-30T23:59:60Z'],
  ['unknown local offset', '2026-09-01T12:00:00-00:00'],
  ['space separator', '2026-09-01 12:00:00Z'],
  ['epoch seconds', 1788264000],
] as const;

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
    expect(KINDS).toHaveLength(43);
    expect(KINDS.filter((kind) => !kind.startsWith('ext.'))).toHaveLength(32);
  });

  it('has one example per kind', () => {
    expect(Object.keys(PAYLOAD_EXAMPLES).sort()).toEqual(KINDS);
  });

  it('returns null for a kind without a payload schema', () => {
    expect(schemaRegistry().validatePayload('mission.pause', {})).toBeNull();
    expect(schemaRegistry().validatePayload('ext.acme.billing.invoice_send', {})).toBeNull();
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
const INVALID: ReadonlyArray<readonly [string, string, Mutation]> = [
  // mission.create
  ['mission.create', 'relative missionId', (p) => (p.missionId = 'ledger-migration')],
  ['mission.create', 'groupId with a trailing line feed', (p) => (p.groupId = `${EXAMPLE_IDS.group}\n`)],
  ['mission.create', 'coordinatorId with a space', (p) => (p.coordinatorId = 'urn:missionweave:agent:coordinator 1')],
  ['mission.create', 'empty title', (p) => (p.title = '')],
  ['mission.create', 'title over 500 characters', (p) => (p.title = LONG(501))],
  ['mission.create', 'objective over 10000 characters', (p) => (p.objective = LONG(10001))],
  ['mission.create', 'empty definitionOfDone', (p) => (p.definitionOfDone = [])],
  ['mission.create', 'definitionOfDone of plain strings (reference shape)', (p) => (p.definitionOfDone = ['Balances match'])],
  ['mission.create', 'criterion without evidenceRequired', (p) => delete p.definitionOfDone[0].evidenceRequired],
  ['mission.create', 'budget without any limit', (p) => (p.budget = {})],
  ['mission.create', 'budget in reference microunits', (p) => (p.budget = REFERENCE_BUDGET)],
  ['mission.create', 'financialLimit without currency', (p) => (p.budget = { financialLimit: 10 })],
  ['mission.create', 'coordinatorLeaseSeconds of 0', (p) => (p.coordinatorLeaseSeconds = 0)],
  ['mission.create', 'coordinatorLeaseSeconds over a year', (p) => (p.coordinatorLeaseSeconds = 31536001)],
  ['mission.create', 'fractional coordinatorLeaseSeconds', (p) => (p.coordinatorLeaseSeconds = 1.5)],
  ['mission.create', 'coordinatorLeaseSeconds as a string', (p) => (p.coordinatorLeaseSeconds = '300')],
  ['mission.create', 'a followUpOfMissionId', (p) => (p.followUpOfMissionId = EXAMPLE_IDS.mission)],
  ['mission.create', 'finalHumanApproval false', (p) => (p.approvalPolicy.finalHumanApproval = false)],
  ['mission.create', 'approvalPolicy without highRiskExecutionApproval', (p) => delete p.approvalPolicy.highRiskExecutionApproval],
  ['mission.create', 'approvalPolicy with a non-semver policyVersion', (p) => (p.approvalPolicy.policyVersion = '2.0')],
  ['mission.create', 'approvalPolicy with an unknown member', (p) => (p.approvalPolicy.autoApprove = true)],
  ['mission.create', 'permission with upper case and spaces', (p) => (p.permissions = ['Repo Read'])],
  ['mission.create', 'relative mainConversationId', (p) => (p.mainConversationId = 'planning')],
  ...BAD_TIMESTAMPS.map(([label, value]) => ['mission.create', `deadline: ${label}`, (p: Payload) => (p.deadline = value)] as const),
  // mission.create_follow_up
  ['mission.create_follow_up', 'relative followUpOfMissionId', (p) => (p.followUpOfMissionId = 'ledger-migration')],
  ['mission.create_follow_up', 'finalHumanApproval false', (p) => (p.approvalPolicy.finalHumanApproval = false)],
  ['mission.create_follow_up', 'empty definitionOfDone', (p) => (p.definitionOfDone = [])],
  ['mission.create_follow_up', 'bad deadline', (p) => (p.deadline = '2026-09-30T25:00:00Z')],
  // mission.create_child
  ['mission.create_child', 'unknown failurePolicy', (p) => (p.failurePolicy = 'ignore')],
  ['mission.create_child', 'relative parentWorkItemId', (p) => (p.parentWorkItemId = RELATIVE_ID)],
  ['mission.create_child', 'an approvalPolicy', (p) => (p.approvalPolicy = { finalHumanApproval: true, highRiskExecutionApproval: true })],
  ['mission.create_child', 'a followUpOfMissionId', (p) => (p.followUpOfMissionId = EXAMPLE_IDS.mission)],
  ['mission.create_child', 'budget without any limit', (p) => (p.budget = {})],
  ['mission.create_child', 'empty definitionOfDone', (p) => (p.definitionOfDone = [])],
  ['mission.create_child', 'coordinatorLeaseSeconds of 0', (p) => (p.coordinatorLeaseSeconds = 0)],
  ['mission.create_child', 'bad deadline', (p) => (p.deadline = '2026-02-30T00:00:00Z')],
  // mission.assign_coordinator / renew_coordinator
  ['mission.assign_coordinator', 'relative coordinatorId', (p) => (p.coordinatorId = 'coordinator-2')],
  ['mission.assign_coordinator', 'coordinatorId as a Principal', (p) => (p.coordinatorId = { type: 'agent', id: EXAMPLE_IDS.coordinator })],
  ['mission.assign_coordinator', 'negative leaseSeconds', (p) => (p.leaseSeconds = -1)],
  ['mission.assign_coordinator', 'leaseSeconds over a year', (p) => (p.leaseSeconds = 31536001)],
  ['mission.renew_coordinator', 'leaseSeconds of 0', (p) => (p.leaseSeconds = 0)],
  ['mission.renew_coordinator', 'leaseSeconds as a string', (p) => (p.leaseSeconds = '300')],
  ['mission.renew_coordinator', 'a coordinatorId', (p) => (p.coordinatorId = EXAMPLE_IDS.coordinator)],
  // mission.submit_for_approval
  ['mission.submit_for_approval', 'no Artifact hashes', (p) => (p.artifactHashes = [])],
  ['mission.submit_for_approval', 'a repeated hash', (p) => (p.artifactHashes = [HASH, HASH])],
  ['mission.submit_for_approval', 'an upper-case hash', (p) => (p.artifactHashes = [HASH.toUpperCase().replace('SHA256', 'sha256')])],
  ['mission.submit_for_approval', 'a non-sha256 hash', (p) => (p.artifactHashes = ['md5:0123456789abcdef0123456789abcdef'])],
  ['mission.submit_for_approval', 'Artifact ids instead of hashes', (p) => (p.artifactHashes = [EXAMPLE_IDS.artifact])],
  ['mission.submit_for_approval', 'a single hash string', (p) => (p.artifactHashes = HASH)],
  // mission.approve
  ['mission.approve', 'relative approvalId', (p) => (p.approvalId = 'approval-3')],
  ['mission.approve', 'missionRevision of 0', (p) => (p.missionRevision = 0)],
  ['mission.approve', 'no Artifact hashes', (p) => (p.artifactHashes = [])],
  ['mission.approve', 'a repeated hash', (p) => (p.artifactHashes = [HASH, HASH])],
  ['mission.approve', 'a non-semver acceptancePolicyVersion', (p) => (p.acceptancePolicyVersion = 'v2')],
  ['mission.approve', 'comments over 4000 characters', (p) => (p.comments = LONG(4001))],
  ['mission.approve', 'an execution Approval document', (p) => Object.assign(p.approval, { kind: 'work_execution', workItemId: EXAMPLE_IDS.workItem })],
  ['mission.approve', 'a changes_requested Approval document', (p) => (p.approval.decision = 'changes_requested')],
  ['mission.approve', 'an unsigned Approval document', (p) => delete p.approval.signature],
  ['mission.approve', 'a final Approval by an Agent', (p) => (p.approval.approver = { type: 'agent', id: EXAMPLE_IDS.coordinator })],
  ['mission.approve', 'an Approval with a padded signature', (p) => (p.approval.signature.value = 'c2lnbmF0dXJl==')],
  // mission.request_changes / cancel / terminate
  ['mission.request_changes', 'missionRevision of 0', (p) => (p.missionRevision = 0)],
  ['mission.request_changes', 'fractional missionRevision', (p) => (p.missionRevision = 1.5)],
  ['mission.request_changes', 'missionRevision beyond the safe integers', (p) => (p.missionRevision = 2 ** 53)],
  ['mission.request_changes', 'empty feedback', (p) => (p.feedback = '')],
  ['mission.request_changes', 'feedback over 4000 characters', (p) => (p.feedback = LONG(4001))],
  ['mission.cancel', 'empty reason', (p) => (p.reason = '')],
  ['mission.cancel', 'reason over 4000 characters', (p) => (p.reason = LONG(4001))],
  ['mission.cancel', 'numeric reason', (p) => (p.reason = 42)],
  ['mission.terminate', 'empty reason', (p) => (p.reason = '')],
  ['mission.terminate', 'reason over 4000 characters', (p) => (p.reason = LONG(4001))],
  ['mission.terminate', 'reason as an array', (p) => (p.reason = ['archive unreadable'])],
  // membership.change / end
  ['membership.change', 'no roles', (p) => (p.roles = [])],
  ['membership.change', 'a repeated role', (p) => (p.roles = ['worker', 'worker'])],
  ['membership.change', 'an unknown role', (p) => (p.roles = ['admin'])],
  ['membership.change', 'a "system" Principal (reference spelling)', (p) => (p.principal = { type: 'system', id: EXAMPLE_IDS.registry })],
  ['membership.change', 'a relative Principal id', (p) => (p.principal.id = 'sql-worker-7')],
  ['membership.change', 'a Principal with an extra member', (p) => (p.principal.displayName = 'Worker 7')],
  ['membership.change', 'provisional without contextPackageId', (p) => { Object.assign(p, PROVISIONAL); delete p.contextPackageId; }],
  ['membership.change', 'provisional without provisionalExpiresAt', (p) => { Object.assign(p, PROVISIONAL); delete p.provisionalExpiresAt; }],
  ['membership.change', 'provisional as a string', (p) => (p.provisional = 'yes')],
  ['membership.change', 'bad provisionalExpiresAt', (p) => (p.provisionalExpiresAt = '2026-09-01T13:00:00')],
  ['membership.change', 'relative contextPackageId', (p) => (p.contextPackageId = 'context-v1')],
  ['membership.change', 'no scopes', (p) => (p.scopes = [])],
  ['membership.change', 'an upper-case scope', (p) => (p.scopes = ['Work.Offer'])],
  ['membership.change', 'a repeated scope', (p) => (p.scopes = ['message.post', 'message.post'])],
  ['membership.change', 'negative visibilityAfterSequence', (p) => (p.visibilityAfterSequence = -1)],
  ['membership.end', 'a "system" Principal', (p) => (p.principal.type = 'system')],
  ['membership.end', 'a Principal as a bare id', (p) => (p.principal = EXAMPLE_IDS.reviewer)],
  ['membership.end', 'a relative Principal id', (p) => (p.principal.id = 'reviewer-3')],
  // membership.grant_delegation
  ['membership.grant_delegation', 'relative granteeAgentId', (p) => (p.granteeAgentId = 'sql-worker-7')],
  ['membership.grant_delegation', 'no allowed capabilities', (p) => (p.allowedCapabilities = [])],
  ['membership.grant_delegation', 'a repeated capability', (p) => (p.allowedCapabilities = [p.allowedCapabilities[0], p.allowedCapabilities[0]])],
  ['membership.grant_delegation', 'a reference capability requirement', (p) => (p.allowedCapabilities = [{ id: 'acme.sql-migration', minimumVersion: 2 }])],
  ['membership.grant_delegation', 'a non-semver capability version', (p) => (p.allowedCapabilities[0].version = '2')],
  ['membership.grant_delegation', 'a budget without toolCallLimit', (p) => delete p.budget.toolCallLimit],
  ['membership.grant_delegation', 'a budget without currency', (p) => delete p.budget.currency],
  ['membership.grant_delegation', 'a budget without externalSideEffectLimit', (p) => delete p.budget.externalSideEffectLimit],
  ['membership.grant_delegation', 'a budget in reference microunits', (p) => (p.budget = { ...REFERENCE_BUDGET, currency: 'EUR' })],
  ['membership.grant_delegation', 'negative maxDescendantDepth', (p) => (p.maxDescendantDepth = -1)],
  ['membership.grant_delegation', 'bad expiresAt', (p) => (p.expiresAt = 'tomorrow')],
  // message.post / correct / retract / redact
  ['message.post', 'empty content', (p) => (p.content = '')],
  ['message.post', 'content over 100000 characters', (p) => (p.content = LONG(100001))],
  ['message.post', 'no content parts', (p) => (p.content = [])],
  ['message.post', 'an unknown content part type', (p) => (p.content = [{ type: 'image', data: 'AAAA' }])],
  ['message.post', 'an empty text part', (p) => (p.content = [{ type: 'text', text: '' }])],
  ['message.post', 'an artifact_ref with a bad hash', (p) => (p.content = [{ type: 'artifact_ref', artifactHash: 'sha256:xyz' }])],
  ['message.post', 'a data_ref without schema', (p) => (p.content = [{ type: 'data_ref', data: { rows: 1 } }])],
  ['message.post', 'a data_ref with a relative schema', (p) => (p.content = [{ type: 'data_ref', schema: 'rows.json', data: {} }])],
  ['message.post', 'content as an object', (p) => (p.content = { type: 'text', text: 'hi' })],
  ['message.post', 'a repeated mention', (p) => (p.mentions = [p.mentions[0], p.mentions[0]])],
  ['message.post', 'a "system" mention', (p) => (p.mentions = [{ type: 'system', id: EXAMPLE_IDS.registry }])],
  ['message.post', 'a relative reference', (p) => (p.references = ['work-item-1'])],
  ['message.post', 'a repeated reference', (p) => (p.references = [EXAMPLE_IDS.workItem, EXAMPLE_IDS.workItem])],
  ['message.post', 'relative conversationId', (p) => (p.conversationId = 'schema-port')],
  ['message.post', 'an authority member', (p) => (p.authority = false)],
  ['message.correct', 'empty replacementContent', (p) => (p.replacementContent = '')],
  ['message.correct', 'no replacement parts', (p) => (p.replacementContent = [])],
  ['message.correct', 'empty reason', (p) => (p.reason = '')],
  ['message.correct', 'relative messageId', (p) => (p.messageId = 'message-1')],
  ['message.retract', 'empty reason', (p) => (p.reason = '')],
  ['message.retract', 'relative amendmentId', (p) => (p.amendmentId = 'retraction-1')],
  ['message.retract', 'replacementContent', (p) => (p.replacementContent = 'new text')],
  ['message.redact', 'empty reason', (p) => (p.reason = '')],
  ['message.redact', 'reason over 4000 characters', (p) => (p.reason = LONG(4001))],
  ['message.redact', 'relative messageId', (p) => (p.messageId = 'message-1')],
  // work.propose / authorize
  ['work.propose', 'a reference Work Contract', (p) => (p.contract = REFERENCE_CONTRACT)],
  ['work.propose', 'a contract without acceptanceCriteria', (p) => delete p.contract.acceptanceCriteria],
  ['work.propose', 'a contract with no acceptance criteria', (p) => (p.contract.acceptanceCriteria = [])],
  ['work.propose', 'a contract with no required capabilities', (p) => (p.contract.requiredCapabilities = [])],
  ['work.propose', 'a repeated dependency', (p) => (p.dependencyIds = [EXAMPLE_IDS.dependencyWorkItem, EXAMPLE_IDS.dependencyWorkItem])],
  ['work.propose', 'a relative dependency', (p) => (p.dependencyIds = ['ledger-spec'])],
  ['work.propose', 'relative parentWorkItemId', (p) => (p.parentWorkItemId = 'ledger-backfill')],
  ['work.authorize', 'exclusive as a string', (p) => (p.exclusive = 'true')],
  ['work.authorize', 'relative conversationId', (p) => (p.conversationId = 'schema-port')],
  ['work.authorize', 'relative delegationGrantId', (p) => (p.delegationGrantId = 'grant-1')],
  ['work.authorize', 'relative proposalId', (p) => (p.proposalId = 'proposal-1')],
  ['work.authorize', 'exclusive inside the contract (reference shape)', (p) => (p.contract.exclusive = true)],
  ['work.authorize', 'a contract with a reference budget', (p) => (p.contract.budget = REFERENCE_BUDGET)],
  ['work.authorize', 'a repeated dependency', (p) => (p.dependencyIds = [EXAMPLE_IDS.dependencyWorkItem, EXAMPLE_IDS.dependencyWorkItem])],
  // work.offer
  ['work.offer', 'no candidates', (p) => (p.candidateAgentIds = [])],
  ['work.offer', 'a repeated candidate', (p) => (p.candidateAgentIds = [EXAMPLE_IDS.worker, EXAMPLE_IDS.worker])],
  ['work.offer', 'a relative candidate', (p) => (p.candidateAgentIds = ['sql-worker-7'])],
  ['work.offer', 'a reference selection basis', (p) => (p.selectionBasis = REFERENCE_SELECTION_BASIS)],
  ['work.offer', 'a selection basis without policyRulesApplied', (p) => delete p.selectionBasis.policyRulesApplied],
  ['work.offer', 'a selection basis with no verified matches', (p) => (p.selectionBasis.verifiedMatches = [])],
  ['work.offer', 'a negative expectedCost', (p) => (p.selectionBasis.expectedCost = -1)],
  ['work.offer', 'a bad availabilityEstimate', (p) => (p.selectionBasis.availabilityEstimate = 'soon')],
  ['work.offer', 'a relative reliability Evidence id', (p) => (p.selectionBasis.reliabilityEvidence = ['evidence-1'])],
  ['work.offer', 'offerExpiresInSeconds of 0', (p) => (p.offerExpiresInSeconds = 0)],
  // work.accept_offer / start
  ['work.accept_offer', 'ownershipLeaseSeconds of 0', (p) => (p.ownershipLeaseSeconds = 0)],
  ['work.accept_offer', 'ownershipLeaseSeconds over a year', (p) => (p.ownershipLeaseSeconds = 31536001)],
  ['work.accept_offer', 'relative workItemId', (p) => (p.workItemId = RELATIVE_ID)],
  ['work.start', 'ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
  ['work.start', 'ownershipEpoch as a string', (p) => (p.ownershipEpoch = '2')],
  ['work.start', 'executionLeaseSeconds of 0', (p) => (p.executionLeaseSeconds = 0)],
  ['work.start', 'an executionLeaseId', (p) => (p.executionLeaseId = EXAMPLE_IDS.executionLease)],
  // work.checkpoint / block / unblock
  ['work.checkpoint', 'a checkpoint without phase', (p) => delete p.checkpoint.phase],
  ['work.checkpoint', 'a checkpoint without createdAt', (p) => delete p.checkpoint.createdAt],
  ['work.checkpoint', 'an empty phase', (p) => (p.checkpoint.phase = '')],
  ['work.checkpoint', 'a phase over 500 characters', (p) => (p.checkpoint.phase = LONG(501))],
  ['work.checkpoint', 'a bad checkpoint createdAt', (p) => (p.checkpoint.createdAt = '2026-09-01T12:00:00+0100')],
  ['work.checkpoint', 'a bad stateArtifactHash', (p) => (p.checkpoint.stateArtifactHash = 'sha256:1234')],
  ['work.checkpoint', 'an empty nextStep', (p) => (p.checkpoint.nextStep = '')],
  ['work.checkpoint', 'an empty milestone', (p) => (p.checkpoint.completedMilestones = [''])],
  ['work.checkpoint', 'a checkpoint with a progress percentage', (p) => (p.checkpoint.percentComplete = 60)],
  ['work.checkpoint', 'relative executionLeaseId', (p) => (p.executionLeaseId = 'lease-1')],
  ['work.checkpoint', 'resumeWithinSeconds of 0', (p) => (p.resumeWithinSeconds = 0)],
  ['work.block', 'empty reason', (p) => (p.reason = '')],
  ['work.block', 'a checkpoint without createdAt', (p) => delete p.checkpoint.createdAt],
  ['work.block', 'blockedLeaseSeconds of 0', (p) => (p.blockedLeaseSeconds = 0)],
  ['work.block', 'ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
  ['work.unblock', 'relative workItemId', (p) => (p.workItemId = RELATIVE_ID)],
  ['work.unblock', 'numeric workItemId', (p) => (p.workItemId = 7)],
  ['work.unblock', 'workItemId over 512 characters', (p) => (p.workItemId = `urn:missionweave:work-item:${LONG(500)}`)],
  // work.submit / accept_result / fail / cancel
  ['work.submit', 'no Artifact hashes', (p) => (p.artifactHashes = [])],
  ['work.submit', 'Artifact ids (reference shape)', (p) => { p.artifactIds = [EXAMPLE_IDS.artifact]; delete p.artifactHashes; }],
  ['work.submit', 'no Evidence', (p) => (p.evidence = [])],
  ['work.submit', 'reference Evidence', (p) => (p.evidence = [REFERENCE_EVIDENCE])],
  ['work.submit', 'unsigned Evidence', (p) => delete p.evidence[0].signature],
  ['work.submit', 'Evidence signed with another algorithm', (p) => (p.evidence[0].signature.algorithm = 'ES256')],
  ['work.submit', 'Evidence without criteria', (p) => (p.evidence[0].criterionIds = [])],
  ['work.submit', 'ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
  ['work.accept_result', 'no Evidence', (p) => (p.evidence = [])],
  ['work.accept_result', 'reference Evidence', (p) => (p.evidence = [REFERENCE_EVIDENCE])],
  ['work.accept_result', 'Evidence with a bad createdAt', (p) => (p.evidence[0].createdAt = '2026-09-01T12:05:00')],
  ['work.accept_result', 'Evidence as one object', (p) => (p.evidence = EXAMPLE_EVIDENCE)],
  ['work.fail', 'ownershipEpoch without executionLeaseId', (p) => delete p.executionLeaseId],
  ['work.fail', 'executionLeaseId without ownershipEpoch', (p) => delete p.ownershipEpoch],
  ['work.fail', 'an empty Evidence list', (p) => (p.evidence = [])],
  ['work.fail', 'reference Evidence', (p) => (p.evidence = [REFERENCE_EVIDENCE])],
  ['work.fail', 'empty reason', (p) => (p.reason = '')],
  ['work.fail', 'ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
  ['work.cancel', 'empty reason', (p) => (p.reason = '')],
  ['work.cancel', 'relative workItemId', (p) => (p.workItemId = RELATIVE_ID)],
  // artifact.publish
  ['artifact.publish', 'a reference Artifact', (p) => (p.artifact = REFERENCE_ARTIFACT)],
  ['artifact.publish', 'an unsigned Artifact manifest', (p) => delete p.artifact.signature],
  ['artifact.publish', 'an Artifact with inline content', (p) => (p.artifact.content = 'ALTER TABLE invoices …')],
  ['artifact.publish', 'an Artifact with a bad contentHash', (p) => (p.artifact.contentHash = 'sha256:ABC')],
  ['artifact.publish', 'an Artifact without retrieval uri', (p) => delete p.artifact.uri],
  ['artifact.publish', 'ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
  ['artifact.publish', 'relative executionLeaseId', (p) => (p.executionLeaseId = 'lease-1')],
  // approval.grant_execution
  ['approval.grant_execution', 'no operations', (p) => (p.operations = [])],
  ['approval.grant_execution', 'a repeated operation', (p) => (p.operations = ['db.migrate', 'db.migrate'])],
  ['approval.grant_execution', 'an operation with spaces', (p) => (p.operations = ['Deploy Prod'])],
  ['approval.grant_execution', 'a relative resource', (p) => (p.resources = ['billing-db'])],
  ['approval.grant_execution', 'a budget without any limit', (p) => (p.budget = {})],
  ['approval.grant_execution', 'a budget in reference microunits', (p) => (p.budget = REFERENCE_BUDGET)],
  ['approval.grant_execution', 'expiresInSeconds of 0', (p) => (p.expiresInSeconds = 0)],
  ['approval.grant_execution', 'comments over 4000 characters', (p) => (p.comments = LONG(4001))],
  ['approval.grant_execution', 'ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
  // policy.grant_cooperation_override
  ['policy.grant_cooperation_override', 'an unknown policyName', (p) => (p.policyName = 'token_budget')],
  ['policy.grant_cooperation_override', 'an unknown core kind', (p) => (p.targetCommandKind = 'mission.pause')],
  ['policy.grant_cooperation_override', 'an Event kind', (p) => (p.targetCommandKind = 'message.posted')],
  ['policy.grant_cooperation_override', 'an ext kind with two segments', (p) => (p.targetCommandKind = 'ext.acme.send')],
  ['policy.grant_cooperation_override', 'an upper-case ext kind', (p) => (p.targetCommandKind = 'ext.Acme.billing.send')],
  ['policy.grant_cooperation_override', 'a "system" beneficiary', (p) => (p.beneficiary = { type: 'system', id: 'organization' })],
  ['policy.grant_cooperation_override', 'relative targetActionId', (p) => (p.targetActionId = 'action-1')],
  ['policy.grant_cooperation_override', 'empty reason', (p) => (p.reason = '')],
  ['policy.grant_cooperation_override', 'bad expiresAt', (p) => (p.expiresAt = '2026-09-01T13:00:00.Z')],
  // ext.missionweaveprotocol.registry.agent_card_register
  ['ext.missionweaveprotocol.registry.agent_card_register', 'a reference Agent Card', (p) => (p.card = REFERENCE_AGENT_CARD)],
  ['ext.missionweaveprotocol.registry.agent_card_register', 'an unsigned Agent Card', (p) => delete p.card.signature],
  ['ext.missionweaveprotocol.registry.agent_card_register', 'an Agent Card without capabilities', (p) => (p.card.capabilities = [])],
  ['ext.missionweaveprotocol.registry.agent_card_register', 'a plain ws:// endpoint', (p) => (p.card.endpoints = [{ transport: 'wss', uri: 'ws://agents.acme.example/w7' }])],
  ['ext.missionweaveprotocol.registry.agent_card_register', 'an Agent Card with permissions', (p) => (p.card.permissions = ['db.migrate'])],
  // ext.missionweaveprotocol.identity.session_open
  ['ext.missionweaveprotocol.identity.session_open', 'relative agentId', (p) => (p.agentId = 'sql-worker-7')],
  ['ext.missionweaveprotocol.identity.session_open', 'empty agentId', (p) => (p.agentId = '')],
  ['ext.missionweaveprotocol.identity.session_open', 'an IRI-only agentId', (p) => (p.agentId = 'urn:missionweave:agent:größe')],
  ['ext.missionweaveprotocol.identity.session_open', 'a sessionEpoch', (p) => (p.sessionEpoch = 3)],
  ['mission.cancel', 'relative parentMissionId', (p) => (p.parentMissionId = 'ledger-migration')],
  // ext.missionweave.core.child_mission_settle
  ['ext.missionweave.core.child_mission_settle', 'relative childMissionId', (p) => (p.childMissionId = 'ledger-backfill')],
  ['ext.missionweave.core.child_mission_settle', 'an outcome in the payload', (p) => (p.outcome = 'approved')],
  // ext.missionweaveprotocol.core.work_dependency_add
  ['ext.missionweaveprotocol.core.work_dependency_add', 'relative dependencyId', (p) => (p.dependencyId = 'ledger-spec')],
  ['ext.missionweaveprotocol.core.work_dependency_add', 'dependencyId as a list', (p) => (p.dependencyId = [EXAMPLE_IDS.dependencyWorkItem])],
  ['ext.missionweaveprotocol.core.work_dependency_add', 'numeric workItemId', (p) => (p.workItemId = 1)],
  // ext.missionweaveprotocol.core.work_execution_lease_renew
  ['ext.missionweaveprotocol.core.work_execution_lease_renew', 'leaseSeconds of 0', (p) => (p.leaseSeconds = 0)],
  ['ext.missionweaveprotocol.core.work_execution_lease_renew', 'relative executionLeaseId', (p) => (p.executionLeaseId = 'lease-1')],
  ['ext.missionweaveprotocol.core.work_execution_lease_renew', 'ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
  // ext.missionweave.core.budget_revise (ours)
  ['ext.missionweave.core.budget_revise', 'an empty budget', (p) => (p.budget = {})],
  ['ext.missionweave.core.budget_revise', 'a budget delta', (p) => (p.budget = { toolCallLimit: -5 })],
  ['ext.missionweave.core.budget_revise', 'an empty reason', (p) => (p.reason = '')],
  ['ext.missionweave.core.budget_revise', 'relative workItemId', (p) => (p.workItemId = 'w1')],
  // ext.missionweaveprotocol.core.profile_pin (ours)
  ['ext.missionweaveprotocol.core.profile_pin', 'a relative profileUri', (p) => (p.profileUri = 'tally')],
  ['ext.missionweaveprotocol.core.profile_pin', 'a negative majorVersion', (p) => (p.majorVersion = -1)],
  ['ext.missionweaveprotocol.core.profile_pin', 'a semantic version for majorVersion', (p) => (p.majorVersion = '1.0.0')],
  // ext.missionweave.core.work_lease_close (ours)
  ['ext.missionweave.core.work_lease_close', 'an unknown cause', (p) => (p.cause = 'timeout')],
  ['ext.missionweave.core.work_lease_close', 'relative leaseId', (p) => (p.leaseId = 'lease-1')],
  ['ext.missionweave.core.work_lease_close', 'ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
  // ext.missionweave.core.capability_grant (ours)
  ['ext.missionweave.core.capability_grant', 'sessionEpoch of 0', (p) => (p.sessionEpoch = 0)],
  ['ext.missionweave.core.capability_grant', 'a tool that is no capability ID', (p) => (p.tools = ['Payments Tool'])],
  ['ext.missionweave.core.capability_grant', 'a negative ceiling', (p) => (p.limits = { toolCalls: -1 })],
  ['ext.missionweave.core.capability_grant', 'an unknown dimension', (p) => (p.limits = { gpuSeconds: 1 })],
  ['ext.missionweave.core.capability_grant', 'a lifetime over an hour', (p) => (p.expiresInSeconds = 3601)],
  // ext.missionweaveprotocol.core.resource_usage_record
  ['ext.missionweaveprotocol.core.resource_usage_record', 'an empty usage delta', (p) => (p.usageDelta = {})],
  ['ext.missionweaveprotocol.core.resource_usage_record', 'an all-zero usage delta', (p) => (p.usageDelta = { modelTokens: 0, toolCalls: 0 })],
  ['ext.missionweaveprotocol.core.resource_usage_record', 'a negative dimension', (p) => (p.usageDelta = { modelTokens: 10, toolCalls: -1 })],
  ['ext.missionweaveprotocol.core.resource_usage_record', 'a fractional dimension', (p) => (p.usageDelta = { computeSeconds: 1.5, toolCalls: 1 })],
  ['ext.missionweaveprotocol.core.resource_usage_record', 'an unknown dimension', (p) => (p.usageDelta = { gpuSeconds: 5, toolCalls: 1 })],
  ['ext.missionweaveprotocol.core.resource_usage_record', 'a normative budget shape', (p) => (p.usageDelta = { modelTokenLimit: 5, toolCalls: 1 })],
  ['ext.missionweaveprotocol.core.resource_usage_record', 'ownershipEpoch of 0', (p) => (p.ownershipEpoch = 0)],
  // ext.missionweaveprotocol.core.group_archive
  ['ext.missionweaveprotocol.core.group_archive', 'a snapshot created by a human', (p) => (p.snapshot.createdBy = { type: 'human', id: EXAMPLE_IDS.owner })],
  ['ext.missionweaveprotocol.core.group_archive', 'a snapshot created by "system" (reference spelling)', (p) => (p.snapshot.createdBy = { type: 'system', id: 'organization' })],
  ['ext.missionweaveprotocol.core.group_archive', 'a snapshot without policy log', (p) => (p.snapshot.policyLog = [])],
  ['ext.missionweaveprotocol.core.group_archive', 'a snapshot without Event ids', (p) => (p.snapshot.eventIds = [])],
  ['ext.missionweaveprotocol.core.group_archive', 'an unsigned snapshot', (p) => delete p.snapshot.signature],
];

/** Kind-specific variants that must be accepted. */
const VALID: ReadonlyArray<readonly [string, string, Mutation]> = [
  ['mission.create', 'a one-year Coordinator lease', (p) => (p.coordinatorLeaseSeconds = 31536000)],
  ['mission.create', 'a one-second Coordinator lease', (p) => (p.coordinatorLeaseSeconds = 1)],
  ['mission.create', 'a single-limit budget', (p) => (p.budget = { wallClockSecondsLimit: 86400 })],
  ['mission.create', 'highRiskExecutionApproval false, no policyVersion', (p) => (p.approvalPolicy = { finalHumanApproval: true, highRiskExecutionApproval: false })],
  ['mission.create', 'a deadline with an offset and fraction', (p) => (p.deadline = '2026-09-30T19:00:00.125+02:00')],
  ['mission.create', 'a urn:uuid missionId', (p) => (p.missionId = 'urn:uuid:7c9e6679-7425-40de-944b-e07fc1f90ae7')],
  ['mission.create_child', 'each failure policy', (p) => (p.failurePolicy = 'fail_parent_mission')],
  ['mission.renew_coordinator', 'an empty payload (default lease)', (p) => delete p.leaseSeconds],
  ['mission.approve', 'a child-Mission Approval', (p) => (p.approval.kind = 'child_mission')],
  ['mission.approve', 'empty comments', (p) => (p.comments = '')],
  ['membership.change', 'a provisional Membership with its Context Package and expiry', (p) => Object.assign(p, PROVISIONAL)],
  ['membership.change', 'a human reviewer with several roles', (p) => Object.assign(p, { principal: { type: 'human', id: EXAMPLE_IDS.owner }, roles: ['reviewer', 'observer'] })],
  ['membership.change', 'an Organization service member', (p) => (p.principal = { type: 'service', id: EXAMPLE_IDS.groupAuthority })],
  ['membership.change', 'visibility from the start of history', (p) => (p.visibilityAfterSequence = 0)],
  ['membership.grant_delegation', 'zero ceilings and depth', (p) => Object.assign(p, { maxDescendantDepth: 0, budget: { ...p.budget, financialLimit: 0, modelTokenLimit: 0 } })],
  ['message.post', 'content parts of every type', (p) => (p.content = CONTENT_PARTS)],
  ['message.post', 'content of exactly 100000 characters', (p) => (p.content = LONG(100000))],
  ['message.post', 'a human and a service mention', (p) => (p.mentions = [{ type: 'human', id: EXAMPLE_IDS.owner }, { type: 'service', id: EXAMPLE_IDS.groupAuthority }])],
  ['message.correct', 'plain-text replacement', (p) => (p.replacementContent = 'Dry run finished: 182,344 rows migrated.')],
  ['work.authorize', 'a non-exclusive WorkItem', (p) => (p.exclusive = false)],
  ['work.offer', 'a selection basis with no reliability Evidence', (p) => (p.selectionBasis.reliabilityEvidence = [])],
  ['work.checkpoint', 'a minimal checkpoint', (p) => (p.checkpoint = { phase: 'analysis', createdAt: '2026-09-01T12:00:00Z' })],
  ['work.fail', 'a Coordinator failure without lease scope or Evidence', (p) => { delete p.ownershipEpoch; delete p.executionLeaseId; delete p.evidence; }],
  ['approval.grant_execution', 'a production deployment with several operations', (p) => (p.operations = ['deploy:production', 'db.migrate'])],
  ['policy.grant_cooperation_override', 'an Extension Profile target kind', (p) => (p.targetCommandKind = 'ext.acme.billing.invoice_send')],
  ['policy.grant_cooperation_override', 'a reference ext target kind', (p) => (p.targetCommandKind = 'ext.missionweaveprotocol.core.resource_usage_record')],
  ['policy.grant_cooperation_override', 'a human beneficiary', (p) => (p.beneficiary = { type: 'human', id: EXAMPLE_IDS.owner })],
  ['ext.missionweaveprotocol.core.resource_usage_record', 'a single nonzero dimension', (p) => (p.usageDelta = { toolCalls: 1 })],
  ['ext.missionweaveprotocol.core.resource_usage_record', 'zeros beside one nonzero dimension', (p) => (p.usageDelta = { modelTokens: 0, externalActions: 1 })],
];

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
