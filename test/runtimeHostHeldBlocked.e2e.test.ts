/**
 * What the runtime host (src/client/runtime/hostRuntime.ts, hostRecovery.ts) does on start with
 * work its projection holds BLOCKED, against a real node (wss, TLS, PostgreSQL). Three WorkItems
 * are held blocked when the Worker goes down: two reported to their Coordinator (`work.block`,
 * after the handler threw), one blocked here only (a `work.start` refused for a passing reason,
 * waiting for its retry when the process died; the Authority has it queued). While the Worker is
 * down the Coordinator cancels the first and unblocks the second. On start each is re-checked
 * with the Authority: the cancelled one is withdrawn, the other two run and are submitted once.
 * The unblocked one may also reach the host as a replayed `work.unblocked` Event (when it arrives
 * after the restart settled); the cancellation and the blocked-here-only one reach it no other way
 * (no Event the host acts on, nothing new in the Group's view): without the re-check on start
 * (hostRuntime.ts's `work.blocked` rows) both stay blocked for good, and this test fails.
 */

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { JobHandler } from '../src/client/runtime/job.js';
import { openAgentRuntime } from '../src/client/runtime/runtime.js';
import { runtimeHostWorld, until } from './support/runtimeHostWorld.js';

const { w, agentOf, hostOn, offer, asCoordinator, eventOf, kindsOf } = runtimeHostWorld('mw-held-blocked-e2e-', { reactor: true });

const submitting: JobHandler = async (job) => {
  const { contentHash } = await job.publishArtifact(`done ${job.workItemId}`, { mediaType: 'text/plain' });
  await job.submit({ artifactHashes: [contentHash] });
};

it('on start, held blocked work is re-checked with the Authority: cancelled while down is withdrawn; unblocked, or blocked here only, runs once', async () => {
  const path = join(w.dir, 'a', 'projection.sqlite');
  const first = hostOn(path, () => Promise.reject(new Error('the tool crashed')));
  await first.host.start();
  const [cancelled, unblocked] = [await offer(), await offer()];
  for (const workItemId of [cancelled, unblocked]) {
    await until(() => eventOf(workItemId, 'work.blocked'), `work.blocked of ${workItemId}`);
    await until(() => (first.runtime.state.work[workItemId]?.status === 'blocked' ? true : undefined), 'blocked in the runtime');
  }
  await first.host.stop(100);
  first.runtime.close();

  // Blocked here only: owned and queued at the Authority, its start refused for a passing reason
  // (as the host's retryStart records it) when the process died.
  const local = await offer();
  const other = agentOf();
  await other.connect();
  await other.command('work.accept_offer', { workItemId: local }, { groupId: w.mission.groupId, workItemId: local, membershipEpoch: 1 });
  await other.close();
  const between = openAgentRuntime({ path, agentId: w.workerActor.principal.id, slots: 1 });
  expect(between.admit({ workItemId: local, groupId: w.mission.groupId, urgency: 'normal', deadlineMs: null, effort: 'm', preemptible: true, ownershipEpoch: 1 }).ok).toBe(true);
  expect(between.schedule().map((e) => e.type)).toContain('run.started');
  between.start(local, `urn:uuid:${randomUUID()}`);
  expect(between.end(local, 'blocked', 'work.start refused UNAVAILABLE').ok).toBe(true);
  between.close();

  // While the Worker is down, the Coordinator cancels one blocked WorkItem and unblocks the other.
  await w.server.harness.expectOk(w.server.harness.send(w.coordinator, 'work.cancel', { workItemId: cancelled, reason: 'no longer needed' }, asCoordinator()));
  await w.server.harness.expectOk(w.server.harness.send(w.coordinator, 'work.unblock', { workItemId: unblocked }, asCoordinator()));

  const ran: string[] = [];
  const second = hostOn(path, async (job) => (ran.push(job.workItemId), submitting(job)));
  expect(second.runtime.recovery.work.blocked.map((row) => row.workItemId).sort()).toEqual([cancelled, unblocked, local].sort());
  await second.host.start();

  for (const workItemId of [unblocked, local]) await until(() => eventOf(workItemId, 'work.submitted'), `work.submitted of ${workItemId}`);
  expect(second.lines).toContain(`withdrawn ${cancelled}: it is cancelled`);
  await until(() => (Object.keys(second.runtime.state.work).length === 0 ? true : undefined), 'nothing held');
  expect(ran.sort()).toEqual([unblocked, local].sort());
  for (const workItemId of [unblocked, local]) expect((await kindsOf(workItemId)).filter((kind) => kind === 'work.submitted')).toHaveLength(1);
  // Nothing was sent about the cancelled one after its cancellation: the second host never started it.
  expect((await kindsOf(cancelled)).at(-1)).toBe('work.cancelled');
}, 120_000);
