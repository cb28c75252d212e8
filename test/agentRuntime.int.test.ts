/**
 * The Agent runtime (src/client/runtime/runtime.ts) on a real projection file: every scheduler
 * decision is saved with its WorkItem rows, and a runtime closed and opened again on the same
 * file rebuilds the same per-Group queues and the same held work (§11.5). Work that ran with a
 * safe durable checkpoint is ready again; work that ran without one is blocked with
 * `runtime-session-lost`; work picked but never started under a lease is ready again.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { RUNTIME_SESSION_LOST } from '../src/client/runtime/projectionWork.js';
import { openAgentRuntime, type AgentRuntime, type AgentRuntimeOptions } from '../src/client/runtime/runtime.js';
import { readyQueue } from '../src/client/runtime/schedulerRanking.js';
import type { SchedulerEvent, SchedulerState, WorkRequest } from '../src/client/runtime/schedulerTypes.js';

const AGENT = 'urn:missionweave:agent:worker-7';
const GA = 'urn:missionweave:group:mission-a';
const GB = 'urn:missionweave:group:mission-b';
const w = (n: number): string => `urn:missionweave:work-item:w${n}`;
const T0 = Date.UTC(2026, 11, 4, 12, 0, 0);

const folders: string[] = [];
const opened: AgentRuntime[] = [];
let now = T0;

function fileIn(): string {
  const folder = mkdtempSync(join(tmpdir(), 'mw-runtime-'));
  folders.push(folder);
  return join(folder, 'projection.sqlite');
}

function open(path: string, options: Partial<AgentRuntimeOptions> = {}): AgentRuntime {
  const runtime = openAgentRuntime({ path, agentId: AGENT, slots: 2, clock: () => now, ...options });
  opened.push(runtime);
  return runtime;
}

function request(workItemId: string, groupId: string, extra: Partial<WorkRequest> = {}): WorkRequest & { ownershipEpoch: number } {
  return { workItemId, groupId, urgency: 'normal', deadlineMs: null, effort: 'm', preemptible: true, ownershipEpoch: 1, ...extra };
}

function started(events: readonly SchedulerEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'run.started' ? [e.workItemId] : []));
}

/** Each Group's ready queue in order, and the blocked work: what a restart must rebuild. */
function queues(state: SchedulerState, atMs: number): Record<string, unknown> {
  return {
    ready: Object.fromEntries([GA, GB].map((g) => [g, readyQueue(state, g, atMs).map((x) => x.workItemId)])),
    blocked: Object.values(state.work).filter((x) => x.status === 'blocked').map((x) => x.workItemId).sort(),
    slots: state.slots,
    groups: state.groups,
  };
}

afterEach(() => {
  for (const runtime of opened.splice(0)) runtime.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  now = T0;
});

/** Two Groups, two slots, four WorkItems: two run (one of them checkpointed safely), two wait. */
function busyRuntime(path: string): { runtime: AgentRuntime; checkpointed: string; unsafe: string } {
  const runtime = open(path);
  expect(runtime.setGroupPolicy(GA, { weight: 2, priorityClass: 'normal', maxConcurrent: 1, maxQueued: 10, admitting: true }).ok).toBe(true);
  expect(runtime.setGroupPolicy(GB, { weight: 1, priorityClass: 'normal', maxConcurrent: 1, maxQueued: 10, admitting: true }).ok).toBe(true);
  // w1 is urgent, so it leads its Group's queue before and after the restart.
  expect(runtime.admit(request(w(1), GA, { urgency: 'high' })).ok).toBe(true);
  for (const [n, g] of [[2, GA], [3, GB], [4, GB]] as const) expect(runtime.admit(request(w(n), g)).ok).toBe(true);
  now += 1_000;
  const runs = started(runtime.schedule());
  expect(runs.sort()).toEqual([w(1), w(3)]);
  runtime.start(w(1), 'urn:missionweave:lease:l1');
  runtime.start(w(3), 'urn:missionweave:lease:l3');
  now += 1_000;
  expect(runtime.checkpoint(w(1), 'urn:missionweave:lease:l1', '{"step":1}', true).ok).toBe(true);
  expect(runtime.checkpoint(w(3), 'urn:missionweave:lease:l3', '{"draft":true}', false).ok).toBe(true);
  return { runtime, checkpointed: w(1), unsafe: w(3) };
}

describe('AgentRuntime across a restart', () => {
  it('rebuilds the same queues and held work; work run without a safe checkpoint is blocked runtime-session-lost', () => {
    const path = fileIn();
    const { runtime, checkpointed, unsafe } = busyRuntime(path);
    expect(runtime.state.slots.filter((s) => s !== null)).toHaveLength(2);
    expect(runtime.projection.work.get(GA, checkpointed)?.status).toBe('running');
    const before = runtime.state;
    runtime.close();

    now += 5_000;
    const again = open(path);
    // The projection side: one resumable, one lost, the two waiting ones still queued.
    expect(again.recovery.work.resumable.map((x) => x.workItemId)).toEqual([checkpointed]);
    expect(again.recovery.work.lost).toEqual([expect.objectContaining({ workItemId: unsafe, groupId: GB, status: 'blocked', blockedReason: RUNTIME_SESSION_LOST })]);
    expect(again.recovery.work.queued.map((x) => x.workItemId).sort()).toEqual([w(2), w(4)]);
    // The scheduler side: every slot emptied, the checkpointed run ready again, the other blocked.
    expect(again.recovery.interrupted).toEqual(
      before.slots.map((id) => expect.objectContaining({ type: 'run.interrupted', workItemId: id, resumable: id === checkpointed })),
    );
    expect(again.state.slots).toEqual([null, null]);
    expect(queues(again.state, now)).toEqual({
      ready: { [GA]: [w(1), w(2)], [GB]: [w(4)] },
      blocked: [unsafe],
      slots: [null, null],
      groups: before.groups,
    });
    expect(Object.keys(again.state.work).sort()).toEqual(Object.keys(before.work).sort());
    expect(again.state.work[checkpointed]).toMatchObject({ status: 'ready', runs: 1, seq: before.work[checkpointed]?.seq, lastSafeCheckpointAtMs: T0 + 2_000 });
    expect(again.projection.work.get(GA, checkpointed)?.checkpoint?.data.toString('utf8')).toBe('{"step":1}');
    const settled = queues(again.state, now);
    again.close();

    // A second restart with nothing in between finds the same.
    const third = open(path);
    expect(third.recovery.interrupted).toEqual([]);
    expect(third.recovery.work.lost).toEqual([]);
    expect(third.recovery.work.blocked.map((x) => [x.workItemId, x.blockedReason])).toEqual([[unsafe, RUNTIME_SESSION_LOST]]);
    expect(queues(third.state, now)).toEqual(settled);

    // Resuming: the checkpointed WorkItem runs again under a new lease; the lost one is unblocked.
    expect(started(third.schedule()).sort()).toEqual([checkpointed, w(4)].sort());
    expect(third.start(checkpointed, 'urn:missionweave:lease:l1b')).toMatchObject({ status: 'running', executionLeaseId: 'urn:missionweave:lease:l1b' });
    expect(third.unblock(unsafe).ok).toBe(true);
    expect(third.projection.work.get(GB, unsafe)).toMatchObject({ status: 'queued' });
  });

  it('makes work picked but never started under a lease ready again, not lost', () => {
    const path = fileIn();
    const runtime = open(path);
    expect(runtime.admit(request(w(1), GA)).ok).toBe(true);
    expect(started(runtime.schedule())).toEqual([w(1)]);
    runtime.close();
    const again = open(path);
    expect(again.recovery.work.lost).toEqual([]);
    expect(again.state.work[w(1)]).toMatchObject({ status: 'ready' });
    expect(again.projection.work.get(GA, w(1))).toMatchObject({ status: 'queued' });
  });

  it('keeps Cursors as the Agent CursorStore across a restart', async () => {
    const path = fileIn();
    const runtime = open(path);
    await runtime.cursorStore.save(GA, 7);
    runtime.close();
    const again = open(path);
    expect(await again.cursorStore.load(GA)).toBe(7);
    expect(again.recovery.cursors.get(GA)).toBe(7);
  });

  it('ends runs: submitted work is forgotten on both sides, blocked work keeps its reason', () => {
    const path = fileIn();
    const runtime = open(path);
    runtime.admit(request(w(1), GA));
    runtime.admit(request(w(2), GB));
    expect(started(runtime.schedule()).sort()).toEqual([w(1), w(2)]);
    runtime.start(w(1), 'urn:missionweave:lease:a');
    runtime.start(w(2), 'urn:missionweave:lease:b');
    expect(runtime.end(w(1), 'submitted').ok).toBe(true);
    expect(runtime.end(w(2), 'blocked', 'needs-input').ok).toBe(true);
    runtime.close();
    const again = open(path);
    expect(again.state.work[w(1)]).toBeUndefined();
    expect(again.projection.work.get(GA, w(1))).toBeUndefined();
    expect(again.state.work[w(2)]).toMatchObject({ status: 'blocked' });
    expect(again.recovery.work.blocked).toEqual([expect.objectContaining({ workItemId: w(2), blockedReason: 'needs-input' })]);
  });

  it('saves nothing of a decision whose rows do not fit, and refuses admission with a typed reason', () => {
    const path = fileIn();
    const runtime = open(path, { limits: { maxProjectedWork: 1 } });
    expect(runtime.admit(request(w(1), GA)).ok).toBe(true);
    const before = runtime.state;
    expect(() => runtime.admit(request(w(2), GA))).toThrow(expect.objectContaining({ code: 'PROJECTION_FAILED', reason: 'work-full' }));
    expect(runtime.state).toBe(before);
    expect(runtime.admit(request(w(1), GA))).toEqual({ ok: false, refusal: expect.objectContaining({ code: 'duplicate-work-item' }) });
    runtime.close();
    const again = open(path, { limits: { maxProjectedWork: 1 } });
    expect(Object.keys(again.state.work)).toEqual([w(1)]);
  });
});

describe('AgentRuntime saves a decision and its rows together', () => {
  it('keeps no WorkItem row when the snapshot of the same decision cannot be saved', () => {
    const path = fileIn();
    // Room for the empty scheduler's snapshot, not for one holding a WorkItem.
    const runtime = open(path, { limits: { maxContextBytes: 200 } });
    expect(() => runtime.admit(request(w(1), GA))).toThrow(expect.objectContaining({ code: 'PROJECTION_FAILED', reason: 'too-large' }));
    expect(runtime.projection.work.get(GA, w(1))).toBeUndefined();
    expect(runtime.state.work).toEqual({});
    runtime.close();
    expect(Object.keys(open(path).state.work)).toEqual([]);
  });
});

describe('AgentRuntime refuses a projection it cannot trust', () => {
  function tamper(path: string, sql: string): void {
    const db = new Database(path);
    db.exec(sql);
    db.close();
  }

  it('fails as corrupt on a snapshot that does not restore, and changes nothing', () => {
    const path = fileIn();
    const { runtime } = busyRuntime(path);
    runtime.close();
    tamper(path, `UPDATE scheduler_snapshot SET snapshot = '{"version":9}'`);
    expect(() => open(path)).toThrow(expect.objectContaining({ code: 'PROJECTION_FAILED', reason: 'corrupt', message: expect.stringMatching(/projection\.sqlite: the scheduler snapshot cannot be restored: unsupported snapshot version 9/) }));
    // Rolled back: the running rows were not settled by the failed open.
    const db = new Database(path, { readonly: true });
    expect((db.prepare(`SELECT count(*) AS n FROM work WHERE status = 'running'`).get() as { n: number }).n).toBe(2);
    db.close();
  });

  it('fails as corrupt when the scheduler and the projection disagree on held work', () => {
    const path = fileIn();
    const { runtime } = busyRuntime(path);
    runtime.close();
    tamper(path, `DELETE FROM work WHERE work_item_id = '${w(2)}'`);
    expect(() => open(path)).toThrow(expect.objectContaining({ reason: 'corrupt', message: expect.stringContaining(`WorkItem ${w(2)}`) }));
  });

  it('refuses another slot count than the runtime was created with', () => {
    const path = fileIn();
    open(path).close();
    opened.splice(0);
    expect(() => open(path, { slots: 3 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('created with 2 slots') }));
  });
});
