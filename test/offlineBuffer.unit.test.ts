/**
 * The SDK's OfflineBuffer (§11.5): progress buffered while disconnected is signed at once under
 * the old Session with the bounded offline execution binding, and rebased on reconnect — same
 * Action ID, binding and payload, the current issuedAt and epochs, a new signature, a checkpoint
 * pointed at the current Execution Lease — in bytes the Group Authority's front accepts.
 */

import { describe, expect, it } from 'vitest';
import { verifyCommandBytes } from '../src/app/verifyCommand.js';
import { AgentClientError, MissionWeaveError } from '../src/client/errors.js';
import { OfflineBuffer, type OfflineExecution } from '../src/client/offlineBuffer.js';
import { keySigner } from '../src/client/signer.js';
import { OFFLINE_EXECUTION_EXTENSION } from '../src/protocol/offlineExecution.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { KeyRegistry } from '../src/protocol/signing/keyRegistry.js';
import { makeKey, ORGANIZATION } from './support/keys.js';
import { coreRegistry } from './support/coreDecider.js';

const worker = makeKey({ type: 'agent', id: 'urn:missionweave:agent:worker-7' });
const registry = KeyRegistry.fromEvidence({ organizationId: ORGANIZATION, bindings: [worker.binding] });
const signer = keySigner(worker.signingKey.keyId, worker.signingKey.privateKey);

const T0 = Date.parse('2026-07-15T00:00:00.000Z');
const EXECUTION: OfflineExecution = {
  agentId: worker.principal.id,
  groupId: 'urn:missionweave:group:g1',
  workItemId: 'urn:missionweave:work-item:w1',
  conversationId: 'urn:missionweave:conversation:w1',
  sessionEpoch: 1,
  membershipEpoch: 2,
  ownershipEpoch: 1,
  executionLeaseId: 'urn:missionweave:lease:exec-1',
  executionLeaseExpiresAt: '2026-07-15T00:10:00.000Z',
};

function clockAt(seconds: number): { now: number; clock: () => number } {
  const state = { now: T0 + seconds * 1000, clock: () => state.now };
  return state;
}

function front(text: string) {
  return verifyCommandBytes(Buffer.from(text), { registry, revision: 1 }, schemaRegistry(), coreRegistry());
}

type Command = Record<string, unknown> & { payload: Record<string, unknown>; extensions: Record<string, { data: Record<string, unknown> }> };

describe('OfflineBuffer', () => {
  it('signs buffered progress under the old Session with the complete binding', async () => {
    const time = clockAt(60);
    const buffer = new OfflineBuffer(EXECUTION, signer, { disconnectedAt: '2026-07-15T00:00:30.000Z', maxGraceSeconds: 300, clock: time.clock });
    expect(buffer.graceDeadline).toBe('2026-07-15T00:05:30.000Z');
    const message = (await buffer.bufferMessage({ content: 'copied 40% of the rows' }, { modelTokens: 900 })) as Command;
    expect(message).toMatchObject({ kind: 'message.post', sessionEpoch: 1, membershipEpoch: 2, issuedAt: '2026-07-15T00:01:00.000Z', payload: { conversationId: EXECUTION.conversationId } });
    expect(message.extensions[OFFLINE_EXECUTION_EXTENSION]).toMatchObject({ version: '0.1.0', critical: true });
    const binding = message.extensions[OFFLINE_EXECUTION_EXTENSION]?.data;
    expect(binding).toEqual({
      agentId: EXECUTION.agentId,
      groupId: EXECUTION.groupId,
      workItemId: EXECUTION.workItemId,
      sessionEpoch: 1,
      ownershipEpoch: 1,
      executionLeaseId: EXECUTION.executionLeaseId,
      disconnectedAt: '2026-07-15T00:00:30.000Z',
      bufferedAt: '2026-07-15T00:01:00.000Z',
      graceDeadline: '2026-07-15T00:05:30.000Z',
      executionLeaseExpiresAt: EXECUTION.executionLeaseExpiresAt,
      resourceUsageDelta: { financialMicrounits: 0, modelTokens: 900, toolCalls: 0, computeSeconds: 0, wallClockSeconds: 0, externalActions: 0 },
    });
    expect(schemaRegistry().validateObject('offline-execution-binding', binding).ok).toBe(true);
    expect(front(JSON.stringify(message)).ok).toBe(true);
  });

  it('rebases: same Action ID, binding and content, current issuedAt and epochs, checkpoint on the current lease, a new signature', async () => {
    const time = clockAt(60);
    const buffer = new OfflineBuffer(EXECUTION, signer, { disconnectedAt: '2026-07-15T00:00:30.000Z', maxGraceSeconds: 300, clock: time.clock });
    const message = (await buffer.bufferMessage({ content: 'copied 40% of the rows' })) as Command;
    time.now += 30_000;
    const checkpoint = (await buffer.bufferCheckpoint({ phase: 'copying', completedMilestones: ['schema'] }, { toolCalls: 2 })) as Command;
    time.now = T0 + 400_000;
    const current = { sessionEpoch: 2, membershipEpoch: 2, executionLeaseId: 'urn:missionweave:lease:exec-2' };
    const texts = await buffer.rebase(current);
    const [rebasedMessage, rebasedCheckpoint] = texts.map((t) => JSON.parse(t) as Command);
    for (const [before, after] of [[message, rebasedMessage], [checkpoint, rebasedCheckpoint]] as const) {
      expect(after).toMatchObject({ actionId: before.actionId, correlationId: before.correlationId, sessionEpoch: 2, membershipEpoch: 2, issuedAt: '2026-07-15T00:06:40.000Z' });
      expect(after?.extensions).toEqual(before.extensions);
      expect(after?.signature).not.toEqual(before.signature);
    }
    expect(rebasedMessage?.payload).toEqual(message.payload);
    expect(rebasedCheckpoint?.payload).toEqual({ ...checkpoint.payload, executionLeaseId: 'urn:missionweave:lease:exec-2' });
    expect(rebasedCheckpoint?.extensions[OFFLINE_EXECUTION_EXTENSION]?.data['executionLeaseId']).toBe(EXECUTION.executionLeaseId);
    for (const text of texts) {
      const verified = front(text);
      expect(verified.ok && verified.command.envelope.sessionEpoch).toBe(2);
    }
    time.now += 5_000;
    expect(await buffer.rebase(current)).toBe(texts);
    const again = await buffer.rebase({ ...current, sessionEpoch: 3 });
    expect(again.map((t) => (JSON.parse(t) as Command).actionId)).toEqual([message.actionId, checkpoint.actionId]);
    expect(again).not.toEqual(texts);
  });

  it('buffers nothing after the grace deadline (never past the lease), beyond its bound, or with an external action', async () => {
    const time = clockAt(60);
    const buffer = new OfflineBuffer(EXECUTION, signer, { disconnectedAt: '2026-07-15T00:00:30.000Z', maxGraceSeconds: 3600, maxCommands: 1, clock: time.clock });
    expect(buffer.graceDeadline).toBe(EXECUTION.executionLeaseExpiresAt);
    await expect(buffer.bufferMessage({ content: 'x' }, { externalActions: 1 })).rejects.toBeInstanceOf(AgentClientError);
    await buffer.bufferMessage({ content: 'x' });
    await expect(buffer.bufferMessage({ content: 'y' })).rejects.toThrow(/at most 1/);
    const late = new OfflineBuffer(EXECUTION, signer, { disconnectedAt: '2026-07-15T00:00:30.000Z', maxGraceSeconds: 60, clock: clockAt(90).clock });
    await expect(late.bufferCheckpoint({ phase: 'copying' })).rejects.toThrow(/grace period ended/);
    expect(late.size).toBe(0);
  });

  it('reconciles in order; ACTION_ID_COLLISION means an earlier rebase was already accepted', async () => {
    const time = clockAt(60);
    const buffer = new OfflineBuffer(EXECUTION, signer, { disconnectedAt: '2026-07-15T00:00:30.000Z', maxGraceSeconds: 300, clock: time.clock });
    await buffer.bufferMessage({ content: 'a' });
    await buffer.bufferMessage({ content: 'b' });
    await buffer.bufferMessage({ content: 'c' });
    const sent: string[] = [];
    const error = (code: 'ACTION_ID_COLLISION' | 'WORK_LEASE_EXPIRED') => new MissionWeaveError({ code, message: code, retryable: false, occurredAt: '2026-07-15T00:06:40Z' });
    const answers = [() => ({ kind: 'message.posted' }), () => { throw error('ACTION_ID_COLLISION'); }, () => { throw error('WORK_LEASE_EXPIRED'); }];
    const outcomes = await buffer.reconcile({ sendSigned: async (text) => { sent.push(text); return (answers[sent.length - 1] as () => never)(); } }, { sessionEpoch: 2, membershipEpoch: 2 });
    expect(sent.map((t) => (JSON.parse(t) as Command).payload['content'])).toEqual(['a', 'b', 'c']);
    expect(outcomes.map((o) => o.outcome)).toEqual(['accepted', 'already-reconciled', 'refused']);
  });
});
