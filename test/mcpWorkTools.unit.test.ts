/**
 * The pure parts of the MCP work tools: inline Artifacts checked against the named limits and
 * resolved from the Work Contract's deliverables before anything is sent, and the bounded
 * record of held work — ended entries forgotten first, then the oldest, whose renewal stops.
 */

import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { GroupEvent } from '../src/client/documents.js';
import { MAX_INLINE_ARTIFACT_BYTES, MAX_INLINE_ARTIFACTS, MAX_INLINE_ARTIFACTS_TOTAL_BYTES } from '../src/client/limits.js';
import { HeldWork } from '../src/client/mcp/heldWork.js';
import { resolveInlineArtifacts, type InlineArtifact } from '../src/client/mcp/inlineArtifacts.js';
import { keySigner } from '../src/client/signer.js';
import type { WorkContract, WorkItemDocument } from '../src/client/workDocuments.js';
import { WorkExecution } from '../src/client/workExecution.js';

const GROUP = 'urn:missionweave:group:g';
const contract = {
  requiredDeliverables: [{ deliverableId: 'report', description: 'The report.', mediaType: 'text/markdown', schema: 'urn:missionweave:schema:report' }],
  acceptanceCriteria: [{ criterionId: 'c1', description: 'd', evidenceRequired: ['deterministic_test'] }],
} as unknown as WorkContract;

const refusalOf = (artifacts: readonly InlineArtifact[]) => {
  try {
    resolveInlineArtifacts(artifacts, contract);
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('inline Artifacts', () => {
  it('take their media type and schema from the deliverable unless given', () => {
    const [fromDeliverable, explicit] = resolveInlineArtifacts([{ text: '# Report', deliverableId: 'report' }, { text: '{}', mediaType: 'application/json', schemaUri: 'urn:s', classification: 'confidential' }], contract);
    expect(fromDeliverable?.details).toEqual({ mediaType: 'text/markdown', schemaUri: 'urn:missionweave:schema:report' });
    expect(fromDeliverable?.bytes.toString('utf8')).toBe('# Report');
    expect(explicit?.details).toEqual({ mediaType: 'application/json', schemaUri: 'urn:s', classification: 'confidential' });
  });

  it('are measured in UTF-8 bytes, not characters', () => {
    // Three bytes a character: under the limit in characters, over it in bytes.
    const euros = '€'.repeat(Math.floor(MAX_INLINE_ARTIFACT_BYTES / 3) + 1);
    expect(euros.length).toBeLessThan(MAX_INLINE_ARTIFACT_BYTES);
    expect(refusalOf([{ text: euros, deliverableId: 'report' }])).toMatchObject({ code: 'INVALID_ARGUMENT', reason: 'inline_artifact_too_large' });
    expect(refusalOf([{ text: 'x'.repeat(MAX_INLINE_ARTIFACT_BYTES), deliverableId: 'report' }])).toBeUndefined();
  });

  it('are refused over the count, over the total, for an unknown deliverable or without a type', () => {
    const one = { text: 'x', deliverableId: 'report' };
    expect(refusalOf(Array.from({ length: MAX_INLINE_ARTIFACTS + 1 }, () => one))).toMatchObject({ reason: 'too_many_inline_artifacts' });
    const big = { text: 'x'.repeat(MAX_INLINE_ARTIFACT_BYTES), deliverableId: 'report' };
    const overTotal = Array.from({ length: Math.floor(MAX_INLINE_ARTIFACTS_TOTAL_BYTES / MAX_INLINE_ARTIFACT_BYTES) + 1 }, () => big);
    expect(overTotal.length).toBeLessThanOrEqual(MAX_INLINE_ARTIFACTS);
    expect(refusalOf(overTotal)).toMatchObject({ reason: 'inline_artifacts_too_large' });
    expect(refusalOf([])).toMatchObject({ reason: 'artifact_required' });
    expect(refusalOf([{ text: 'x', deliverableId: 'slides' }])).toMatchObject({ reason: 'unknown_deliverable' });
    expect(refusalOf([{ text: 'x', mediaType: 'text/plain' }])).toMatchObject({ reason: 'artifact_type_required' });
  });
});

const agent = { agentId: 'urn:missionweave:agent:me', signer: keySigner('urn:key:me', generateKeyPairSync('ed25519').privateKey), sessionEpoch: 1, command: () => Promise.reject(new Error('no Commands here')) };
const executions: WorkExecution[] = [];

function item(workItemId: string, state: WorkItemDocument['state']): WorkItemDocument {
  return { workItemId, missionId: 'urn:m', groupId: GROUP, conversationId: 'urn:c', revision: 2, state, contract, createdBy: { type: 'agent', id: 'urn:lead' } } as WorkItemDocument;
}

/** A WorkExecution as `work.started` made it: its keeper renews (never, here) until stopped. */
function started(workItemId: string): WorkExecution {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + 600_000).toISOString();
  const executionLease = { leaseId: `urn:lease:${workItemId}`, leaseType: 'execution', holderAgentId: agent.agentId, sessionEpoch: 1, issuedAt: now.toISOString(), expiresAt, state: 'active', renewalCount: 0 };
  const event = { groupId: GROUP, sequence: 5, occurredAt: now.toISOString(), payload: { workItemId, ownershipEpoch: 1, executionLease, executionLeaseExpiresAt: expiresAt, workItem: item(workItemId, 'active') } } as unknown as GroupEvent;
  const execution = new WorkExecution({ agent, started: event, sentAt: now.getTime(), leaseSeconds: 600, renewAtFraction: 1 / 3, options: () => ({ groupId: GROUP }) });
  executions.push(execution);
  return execution;
}

const owned = (workItemId: string) => ({ groupId: GROUP, workItemId, ownershipEpoch: 1, workItem: item(workItemId, 'queued') });
const ids = (held: HeldWork) => held.list().map((entry) => entry.workItemId);

afterEach(() => {
  for (const execution of executions.splice(0)) execution.stop();
});

describe('held work', () => {
  it('forgets an ended entry before any live one', () => {
    const held = new HeldWork(2);
    held.owned(owned('urn:w:queued'));
    const done = started('urn:w:done');
    held.running(done);
    done.stop();
    held.owned(owned('urn:w:next'));
    expect(ids(held)).toEqual(['urn:w:queued', 'urn:w:next']);
  });

  it('when all are live, forgets the oldest and stops renewing its lease', () => {
    const held = new HeldWork(2);
    const oldest = started('urn:w:oldest');
    held.running(oldest);
    held.owned(owned('urn:w:queued'));
    held.owned(owned('urn:w:next'));
    expect(ids(held)).toEqual(['urn:w:queued', 'urn:w:next']);
    expect(oldest.leaseStatus).toBe('stopped');
  });

  it('counts age from last use: a WorkItem started again is the newest', () => {
    const held = new HeldWork(2);
    held.owned(owned('urn:w:a'));
    held.owned(owned('urn:w:b'));
    const resumed = started('urn:w:a');
    held.running(resumed);
    held.owned(owned('urn:w:c'));
    expect(ids(held)).toEqual(['urn:w:a', 'urn:w:c']);
    expect(held.get('urn:w:a')?.execution).toBe(resumed);
    expect(resumed.leaseStatus).toBe('keeping');
  });
});
