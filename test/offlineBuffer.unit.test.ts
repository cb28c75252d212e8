/**
 * The SDK's OfflineBuffer (§11.5): progress buffered while disconnected is signed at once under
 * the old Session with the bounded offline execution binding, and rebased on reconnect — a new
 * Action ID (§19), the same binding, correlation and payload, the current issuedAt and epochs, a
 * new signature, a checkpoint pointed at the current Execution Lease — in bytes the Group
 * Authority's front accepts; reconciled at most once across reconnects with lost answers.
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

  it('rebases: a new Action ID, the same binding and content, current issuedAt and epochs, checkpoint on the current lease, a new signature', async () => {
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
      expect(after?.actionId).not.toBe(before.actionId);
      expect(after).toMatchObject({ correlationId: before.correlationId, sessionEpoch: 2, membershipEpoch: 2, issuedAt: '2026-07-15T00:06:40.000Z' });
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
    const ids = (list: readonly string[]) => list.map((t) => (JSON.parse(t) as Command).actionId);
    expect(new Set([...ids(again), ...ids(texts), message.actionId, checkpoint.actionId]).size).toBe(6);
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

  it('reconciles at most once across reconnects: a lost answer is resent unchanged (its receipt), a fenced one is rebased under a new Action ID', async () => {
    const time = clockAt(60);
    const buffer = new OfflineBuffer(EXECUTION, signer, { disconnectedAt: '2026-07-15T00:00:30.000Z', maxGraceSeconds: 300, clock: time.clock });
    const buffered = [await buffer.bufferMessage({ content: 'a' }), await buffer.bufferMessage({ content: 'b' }), await buffer.bufferMessage({ content: 'c' })] as Command[];
    const authority = fakeAuthority();
    const reconcile = async (sessionEpoch: number) => {
      authority.session = sessionEpoch;
      return (await buffer.reconcile(authority, { sessionEpoch, membershipEpoch: 2 })).map((o) => [o.bufferedActionId, o.outcome]);
    };
    const [a, b, c] = buffered.map((command) => command.actionId);
    authority.fate = { b: 'answer-lost' };
    expect(await reconcile(2)).toEqual([[a, 'accepted'], [b, 'unanswered']]);
    authority.fate = { c: 'never-arrived' };
    expect(await reconcile(3)).toEqual([[a, 'accepted'], [b, 'accepted'], [c, 'unanswered']]);
    const unanswered = authority.sent.at(-1)!;
    authority.fate = {};
    expect(await reconcile(4)).toEqual([[a, 'accepted'], [b, 'accepted'], [c, 'accepted']]);
    // Each applied once, under an Action ID of its own that is none of the buffered ones (§19).
    expect([...authority.applied.values()].map((t) => t.payload['content'])).toEqual(['a', 'b', 'c']);
    const appliedIds = [...authority.applied.keys()];
    expect(appliedIds.filter((id) => [a, b, c].includes(id))).toEqual([]);
    // c's session-3 text was resent unchanged, refused stale, and only then rebased under a new Action ID.
    expect(authority.sent.filter((t) => t === unanswered)).toHaveLength(2);
    expect(appliedIds[2]).not.toBe((JSON.parse(unanswered) as Command).actionId);
    expect(authority.applied.get(appliedIds[2]!)?.sessionEpoch).toBe(4);
    expect(authority.applied.get(appliedIds[1]!)?.sessionEpoch).toBe(2);
  });
});

/** An Authority that applies a Command once per Action ID, answers a retry with its receipt and fences old Sessions. */
function fakeAuthority() {
  const state = {
    session: 0,
    fate: {} as Record<string, 'answer-lost' | 'never-arrived'>,
    sent: [] as string[],
    applied: new Map<string, Command>(),
    async sendSigned(text: string) {
      const command = JSON.parse(text) as Command & { actionId: string };
      state.sent.push(text);
      const receipt = { kind: 'message.posted', cause: { type: 'command', id: command.actionId } } as never;
      if (state.applied.has(command.actionId)) return receipt;
      const fate = state.fate[command.payload['content'] as string];
      if (fate === 'never-arrived') throw new AgentClientError('CONNECTION_CLOSED', 'dropped before it arrived');
      if (command.sessionEpoch !== state.session) throw new MissionWeaveError({ code: 'AUTH_STALE_SESSION', message: 'fenced', retryable: false, occurredAt: '2026-07-15T00:06:40Z' });
      state.applied.set(command.actionId, command);
      if (fate === 'answer-lost') throw new AgentClientError('CONNECTION_CLOSED', 'the answer was lost');
      return receipt;
    },
  };
  return state;
}
