/**
 * The pure parts of the MCP work tools: inline Artifacts checked against the named limits and
 * resolved from the Work Contract's deliverables before anything is sent, and the held work kept
 * in the Agent runtime's projection (a SQLite file, no Authority): it survives a new process, and
 * the runtime's slots bound what is started.
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MissionWeaveAgent } from '../src/client/agent.js';
import { MAX_INLINE_ARTIFACT_BYTES, MAX_INLINE_ARTIFACTS, MAX_INLINE_ARTIFACTS_TOTAL_BYTES } from '../src/client/limits.js';
import { HeldWork } from '../src/client/mcp/heldWork.js';
import { resolveInlineArtifacts, type InlineArtifact } from '../src/client/mcp/inlineArtifacts.js';
import { openAgentRuntime, type AgentRuntime } from '../src/client/runtime/runtime.js';
import type { MissionWeaveWorker } from '../src/client/worker.js';
import type { WorkContract, WorkItemDocument } from '../src/client/workDocuments.js';

const GROUP = 'urn:missionweave:group:g';
const contract = {
  requestedUrgency: 'normal',
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

const owned = (workItemId: string) => ({ groupId: GROUP, workItemId, ownershipEpoch: 1, workItem: item(workItemId, 'queued') });

function item(workItemId: string, state: WorkItemDocument['state']): WorkItemDocument {
  return { workItemId, missionId: 'urn:m', groupId: GROUP, conversationId: 'urn:c', revision: 2, state, contract, createdBy: { type: 'agent', id: 'urn:lead' } } as WorkItemDocument;
}

const AGENT = 'urn:missionweave:agent:me';
const runtimes: AgentRuntime[] = [];
afterEach(() => {
  for (const runtime of runtimes.splice(0)) runtime.close();
});

/** Held work over a real runtime on `path`; its Worker refuses to be used (nothing here may reach an Authority). */
function heldOn(path: string, slots = 1): HeldWork {
  const runtime = openAgentRuntime({ path, agentId: AGENT, slots });
  runtimes.push(runtime);
  const worker = { start: () => Promise.reject(new Error('no Authority here')), offers: () => [] } as unknown as MissionWeaveWorker;
  return new HeldWork({ agent: { agentId: AGENT } as MissionWeaveAgent, worker, runtime });
}

describe('held work, in the runtime', () => {
  it('keeps what was accepted in the projection: a new process on the same file lists it, with its Ownership Epoch', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'mw-held-')), 'projection.sqlite');
    const first = heldOn(path);
    await first.accepted({ ...owned('urn:w:a'), ownershipEpoch: 3 });
    expect(first.list()).toMatchObject([{ workItemId: 'urn:w:a', groupId: GROUP, held: 'queued', ownershipEpoch: 3 }]);
    runtimes.pop()?.close();
    const second = heldOn(path);
    expect(second.runtime.recovery.work.queued.map((w) => w.workItemId)).toEqual(['urn:w:a']);
    expect(second.list()).toMatchObject([{ workItemId: 'urn:w:a', held: 'queued', ownershipEpoch: 3 }]);
    // The WorkItem's document is not known until the Authority is asked again.
    expect(second.get('urn:w:a')?.workItem).toBeUndefined();
  });

  it('refuses a start when every slot holds started work, before asking the Authority', async () => {
    const held = heldOn(join(mkdtempSync(join(tmpdir(), 'mw-held-')), 'projection.sqlite'));
    await held.accepted(owned('urn:w:a'));
    await held.accepted(owned('urn:w:b'));
    expect(held.runtime.startChosen('urn:w:a', 'urn:lease:a').ok).toBe(true);
    await expect(held.start('urn:w:b', {})).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', reason: 'no_free_slot' });
    await expect(held.start('urn:w:c', {})).rejects.toMatchObject({ reason: 'not_owned' });
    expect(() => held.running('urn:w:a')).toThrow(expect.objectContaining({ reason: 'not_running' }));
  });
});
