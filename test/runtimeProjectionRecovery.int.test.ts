/**
 * The runtime's work state in the local projection (projectionWork.ts, projectionState.ts) and
 * the storage side of a restart (§11.3, §11.5) on real files: ownership and checkpoints are
 * fenced by Ownership Epoch and Execution Lease, work pauses only at a durable checkpoint, and a
 * restart turns running work into paused (checkpointed) or blocked with `runtime-session-lost`,
 * with the Cursors, unapplied Events, unanswered Commands and scheduler snapshot to rebuild from.
 */

import { describe, expect, it } from 'vitest';
import { projectionFiles } from './support/projectionFiles.js';
import { MAX_CHECKPOINT_BYTES, MAX_CONTEXT_BYTES, MAX_PROJECTED_WORK } from '../src/client/limits.js';
import { RUNTIME_SESSION_LOST } from '../src/client/runtime/projectionWork.js';

const AGENT = 'urn:missionweave:agent:worker-7';
const GA = 'urn:missionweave:group:mission-a';
const GB = 'urn:missionweave:group:mission-b';
const W1 = 'urn:missionweave:work-item:w1';
const W2 = 'urn:missionweave:work-item:w2';
const W3 = 'urn:missionweave:work-item:w3';
const W4 = 'urn:missionweave:work-item:w4';
const L1 = 'urn:missionweave:lease:exec-1';
const L2 = 'urn:missionweave:lease:exec-2';
const T0 = Date.parse('2026-07-15T00:00:00.000Z');

const { home, open } = projectionFiles(AGENT, T0);

describe('WorkItems in the projection', () => {
  it('fence checkpoints by Ownership Epoch and Execution Lease', () => {
    const { work } = open(home());
    work.own(GA, W1, 2);
    expect(() => work.own(GA, W1, 1)).toThrow(expect.objectContaining({ reason: 'stale', groupId: GA }));
    expect(() => work.start(GA, W1, { ownershipEpoch: 1, executionLeaseId: L1 })).toThrow(expect.objectContaining({ reason: 'stale' }));
    expect(work.start(GA, W1, { ownershipEpoch: 2, executionLeaseId: L1 })).toMatchObject({ status: 'running', executionLeaseId: L1 });
    expect(() => work.checkpoint(GA, W1, { ownershipEpoch: 2, executionLeaseId: L2 }, '{"step":1}')).toThrow(/runs under Ownership Epoch 2 and lease .*exec-1/);
    const saved = work.checkpoint(GA, W1, { ownershipEpoch: 2, executionLeaseId: L1 }, '{"step":1}');
    expect(saved.checkpoint).toMatchObject({ ownershipEpoch: 2, executionLeaseId: L1, at: '2026-07-15T00:00:00.000Z' });
    expect(saved.checkpoint?.data.toString('utf8')).toBe('{"step":1}');
    // Another Group's WorkItem of the same ID is another row.
    expect(work.get(GB, W1)).toBeUndefined();
  });

  it('pause only at a checkpoint taken under the current lease, and resume under a new one', () => {
    const { work } = open(home());
    work.own(GA, W1, 1);
    work.start(GA, W1, { ownershipEpoch: 1, executionLeaseId: L1 });
    expect(() => work.pause(GA, W1, { ownershipEpoch: 1, executionLeaseId: L1 })).toThrow(/paused only at a durable checkpoint/);
    work.checkpoint(GA, W1, { ownershipEpoch: 1, executionLeaseId: L1 }, new Uint8Array([1, 2, 3]));
    expect(work.pause(GA, W1, { ownershipEpoch: 1, executionLeaseId: L1 })).toMatchObject({ status: 'paused' });
    expect(work.get(GA, W1)?.executionLeaseId).toBeUndefined();
    expect(work.start(GA, W1, { ownershipEpoch: 1, executionLeaseId: L2 })).toMatchObject({ status: 'running', executionLeaseId: L2 });
    expect(() => work.pause(GA, W1, { ownershipEpoch: 1, executionLeaseId: L2 })).toThrow(/paused only at a durable checkpoint/);
    work.block(GA, W1, 'needs the staging credentials');
    expect(work.get(GA, W1)).toMatchObject({ status: 'blocked', blockedReason: 'needs the staging credentials' });
    expect(work.requeue(GA, W1)).toMatchObject({ status: 'queued' });
    work.finish(GA, W1);
    expect(work.list()).toEqual([]);
  });

  it(`bounds checkpoint data (maxCheckpointBytes, default ${MAX_CHECKPOINT_BYTES}) and tracked WorkItems (maxProjectedWork, default ${MAX_PROJECTED_WORK})`, () => {
    const { work } = open(home(), { limits: { maxCheckpointBytes: 8, maxProjectedWork: 2 } });
    work.own(GA, W1, 1);
    work.start(GA, W1, { ownershipEpoch: 1, executionLeaseId: L1 });
    work.checkpoint(GA, W1, { ownershipEpoch: 1, executionLeaseId: L1 }, '12345678');
    expect(() => work.checkpoint(GA, W1, { ownershipEpoch: 1, executionLeaseId: L1 }, '123456789')).toThrow(
      expect.objectContaining({ reason: 'too-large', message: expect.stringContaining('maxCheckpointBytes (8)') }),
    );
    expect(work.get(GA, W1)?.checkpoint?.data.toString('utf8')).toBe('12345678');
    work.own(GB, W2, 1);
    expect(() => work.own(GB, W3, 1)).toThrow(expect.objectContaining({ reason: 'work-full', groupId: GB }));
  });
});

describe('the scheduler snapshot and Group context', () => {
  it(`keep JSON text per Agent and per Group, never going back a revision (maxContextBytes, default ${MAX_CONTEXT_BYTES})`, () => {
    const path = home();
    const first = open(path, { limits: { maxContextBytes: 64 } });
    first.state.saveSchedulerSnapshot('{"credits":{"a":3}}');
    first.state.saveGroupContext(GA, 2, '{"repo":"a"}');
    expect(() => first.state.saveGroupContext(GA, 1, '{"repo":"old"}')).toThrow(expect.objectContaining({ reason: 'stale', groupId: GA }));
    expect(() => first.state.saveGroupContext(GB, 1, '{not json')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => first.state.saveGroupContext(GB, 1, JSON.stringify({ text: 'x'.repeat(64) }))).toThrow(expect.objectContaining({ reason: 'too-large' }));
    first.close();
    const second = open(path);
    expect(second.state.schedulerSnapshot()).toEqual({ snapshot: '{"credits":{"a":3}}', savedAt: '2026-07-15T00:00:00.000Z' });
    expect(second.state.groupContext(GA)).toMatchObject({ revision: 2, context: '{"repo":"a"}' });
    expect(second.state.groupContext(GB)).toBeUndefined();
  });
});

describe('a restart', () => {
  it('makes checkpointed running work resumable, blocks the rest as runtime-session-lost, and lists what to rebuild from', () => {
    const path = home();
    const before = open(path);
    before.work.own(GA, W1, 1);
    before.work.start(GA, W1, { ownershipEpoch: 1, executionLeaseId: L1 });
    before.work.checkpoint(GA, W1, { ownershipEpoch: 1, executionLeaseId: L1 }, '{"step":4}');
    before.work.own(GB, W2, 3);
    before.work.start(GB, W2, { ownershipEpoch: 3, executionLeaseId: L2 });
    before.work.own(GB, W3, 1);
    before.work.own(GA, W4, 1);
    before.work.block(GA, W4, 'awaiting review');
    before.inbox.receive({ eventId: 'urn:uuid:e-5', groupId: GA, sequence: 5 });
    before.inbox.receive({ eventId: 'urn:uuid:e-6', groupId: GA, sequence: 6 });
    before.cursors.set(GA, 5);
    before.outbox.add(JSON.stringify({ actionId: 'urn:uuid:a-1', groupId: GB, kind: 'work.checkpoint', signature: {} }));
    before.state.saveSchedulerSnapshot('{"version":1}');
    // The process dies: no graceful stop, only close to release the lock within this test process.
    before.close();

    const after = open(path);
    const recovery = after.recover();
    expect([...recovery.cursors]).toEqual([[GA, 5]]);
    expect(recovery.unapplied.map((e) => e.eventId)).toEqual(['urn:uuid:e-6']);
    expect(recovery.toSend.map((c) => c.actionId)).toEqual(['urn:uuid:a-1']);
    expect(recovery.schedulerSnapshot?.snapshot).toBe('{"version":1}');
    expect(recovery.work.resumable).toEqual([expect.objectContaining({ groupId: GA, workItemId: W1, status: 'paused', ownershipEpoch: 1 })]);
    expect(recovery.work.resumable[0]?.executionLeaseId).toBeUndefined();
    expect(recovery.work.lost).toEqual([expect.objectContaining({ groupId: GB, workItemId: W2, status: 'blocked', blockedReason: RUNTIME_SESSION_LOST })]);
    expect(recovery.work.queued.map((w) => w.workItemId)).toEqual([W3]);
    expect(recovery.work.blocked).toEqual([expect.objectContaining({ workItemId: W4, blockedReason: 'awaiting review' })]);
    after.close();

    // A second restart finds the same settled state, and nothing is running.
    const again = open(path).recover().work;
    expect(again.resumable.map((w) => w.workItemId)).toEqual([W1]);
    expect(again.lost).toEqual([]);
    expect(again.blocked.map((w) => [w.groupId, w.workItemId, w.blockedReason])).toEqual([
      [GA, W4, 'awaiting review'],
      [GB, W2, RUNTIME_SESSION_LOST],
    ]);
  });

  it('does not count a checkpoint from an earlier Ownership Epoch as safe', () => {
    const path = home();
    const before = open(path);
    before.work.own(GA, W1, 1);
    before.work.start(GA, W1, { ownershipEpoch: 1, executionLeaseId: L1 });
    before.work.checkpoint(GA, W1, { ownershipEpoch: 1, executionLeaseId: L1 }, '{"step":2}');
    before.work.block(GA, W1, 'lease expired');
    // Reassigned back to this Agent under a higher epoch: it keeps the checkpoint to start from.
    expect(before.work.own(GA, W1, 2)).toMatchObject({ status: 'queued', checkpoint: expect.objectContaining({ ownershipEpoch: 1 }) });
    before.work.start(GA, W1, { ownershipEpoch: 2, executionLeaseId: L2 });
    before.close();
    expect(open(path).recover().work.lost.map((w) => w.workItemId)).toEqual([W1]);
  });
});
