/**
 * The connected runtime host (src/client/runtime/hostRuntime.ts) against a real node (wss, TLS,
 * PostgreSQL): offers are accepted and admitted, the scheduler's runs get real Execution Leases
 * kept renewed and are run by a job handler; a handler that throws or hangs is blocked with a
 * clear reason at the Authority and the host goes on; a restart reports work that ran without a
 * checkpoint to its Coordinator (`work.block`, `runtime-session-lost`); and a Command signed
 * while offline is sent from the durable outbox on connect with its exact bytes.
 */

import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { CapabilityToken } from '../src/client/capabilities.js';
import type { Job, JobHandler } from '../src/client/runtime/job.js';
import { signWith, keySigner } from '../src/client/signer.js';
import { eventsOf } from './support/missions.js';
import { runtimeHostWorld, until } from './support/runtimeHostWorld.js';

const { w, hostOn, offer, eventOf, eventsOfWork } = runtimeHostWorld('mw-host-e2e-', { reactor: true });

it('runs offered work under a real lease: checkpoint, publish, submit; a throwing and a hanging handler are blocked with a reason and the host goes on', async () => {
  const seen: Job[] = [];
  const tokens: CapabilityToken[] = [];
  const handler: JobHandler = async (job) => {
    seen.push(job);
    const step = (job.resumeFrom as { step?: number } | undefined)?.step ?? 0;
    if (job.contract.goal.length === 0) throw new Error('unreachable');
    if (seen.length === 2) throw new Error('the tool crashed');
    if (seen.length === 3) return new Promise(() => undefined); // hangs for good
    expect(await job.checkpoint({ step: step + 1 })).toBe('continue');
    if (seen.length === 1) tokens.push(await job.token());
    const { contentHash } = await job.publishArtifact(`the result of ${job.workItemId}`, { mediaType: 'text/plain', name: 'result.txt' });
    await job.submit({ artifactHashes: [contentHash], summary: 'done' });
    return undefined;
  };
  const { host, runtime, lines } = hostOn(join(w.dir, 'a', 'projection.sqlite'), handler, { jobTimeoutMs: 1_500 });
  await host.start();

  const done = await offer();
  const submitted = await until(() => eventOf(done, 'work.submitted'), 'work.submitted');
  expect((submitted['payload'] as { artifactHashes: string[] }).artifactHashes).toHaveLength(1);
  expect(seen[0]).toMatchObject({ groupId: w.mission.groupId, workItemId: done, resumeFrom: undefined });
  // A real capability token from the Authorization Service, bound to this job's WorkItem and lease (§12).
  expect(tokens[0]?.claims).toMatchObject({ workItemId: done, missionId: w.mission.missionId });

  const threw = await offer();
  const blocked = await until(() => eventOf(threw, 'work.blocked'), 'work.blocked of the throwing handler');
  expect((blocked['payload'] as { reason: string }).reason).toBe('the job handler threw: the tool crashed');
  await until(() => (runtime.state.work[threw]?.status === 'blocked' ? true : undefined), 'blocked in the runtime');

  const hung = await offer();
  const stopped = await until(() => eventOf(hung, 'work.blocked'), 'work.blocked of the hanging handler');
  expect((stopped['payload'] as { reason: string }).reason).toContain('ran past its bound of 1500 ms');
  expect(seen[2]?.signal.aborted).toBe(true);

  // The host goes on: the next WorkItem is run and submitted.
  const next = await offer();
  await until(() => eventOf(next, 'work.submitted'), 'work.submitted after the failures');
  expect((await eventsOfWork(done)).filter((e) => e['kind'] === 'work.submitted')).toHaveLength(1);
  expect(runtime.state.work[done]).toBeUndefined();
  expect(lines.some((line) => line.startsWith(`submitted ${done}`))).toBe(true);
  // What the host keeps of WorkItems is bounded by what the runtime holds: the two blocked ones.
  expect(Object.keys(runtime.state.work)).toHaveLength(2);
  expect(host.knownDocuments).toBe(2);
}, 90_000);

it('after a restart, reports work that ran without a checkpoint to its Coordinator (work.block, runtime-session-lost), and a Coordinator work.unblock runs it again', async () => {
  const path = join(w.dir, 'b', 'projection.sqlite');
  let firstRuns = 0;
  const first = hostOn(path, async (job) => {
    firstRuns++;
    await new Promise((resolve) => job.signal.addEventListener('abort', resolve));
  });
  await first.host.start();
  const lost = await offer();
  await until(() => (firstRuns === 1 ? true : undefined), 'the first run');
  // A crash: the connection and the projection go away under the running job.
  await first.host.agent.close();
  first.runtime.close();

  const second = hostOn(path, async (job) => {
    await job.publishArtifact(`run again from the start: ${job.workItemId}`, { mediaType: 'text/plain' });
    await job.submit();
  });
  expect(second.runtime.recovery.work.lost.map((w) => w.workItemId)).toEqual([lost]);
  await second.host.start();
  const blocked = await until(() => eventOf(lost, 'work.blocked'), 'the lost WorkItem reported');
  expect((blocked['payload'] as { reason: string }).reason).toMatch(/^runtime-session-lost: /);
  expect(second.runtime.state.work[lost]).toMatchObject({ status: 'blocked' });

  await w.server.harness.expectOk(w.server.harness.send(w.coordinator, 'work.unblock', { workItemId: lost }, { groupId: w.mission.groupId, membershipEpoch: 1, coordinatorEpoch: 1 }));
  await until(() => eventOf(lost, 'work.submitted'), 'the unblocked WorkItem submitted');
}, 90_000);

it('sends a Command signed while offline from the durable outbox on connect, with the same bytes', async () => {
  const path = join(w.dir, 'c', 'projection.sqlite');
  const probe = hostOn(path, () => undefined);
  await probe.host.agent.connect();
  const epoch = probe.host.agent.sessionEpoch as number;
  await probe.host.agent.close();
  // Signed offline for the next Session of this Agent, kept in the outbox as its exact text.
  const unsigned = {
    protocolVersion: '0.1',
    actionId: `urn:uuid:${randomUUID()}`,
    actor: { type: 'agent', id: w.workerActor.principal.id },
    kind: 'message.post',
    groupId: w.mission.groupId,
    sessionEpoch: epoch + 1,
    membershipEpoch: 1,
    correlationId: `urn:uuid:${randomUUID()}`,
    issuedAt: new Date().toISOString(),
    payload: { messageId: `urn:uuid:${randomUUID()}`, conversationId: w.mission.mainConversationId, content: 'written while offline' },
  };
  const signed = await signWith('command', unsigned, keySigner(w.workerActor.key.keyId, w.workerActor.key.privateKey));
  const text = JSON.stringify(signed.document, null, 1);
  probe.runtime.projection.outbox.add(text);
  probe.runtime.close();

  const { host, runtime } = hostOn(path, () => undefined);
  await host.start();
  const row = runtime.projection.outbox.get(unsigned.actionId);
  expect(row).toMatchObject({ state: 'acked', eventId: expect.any(String) });
  expect(row?.bytes.toString('utf8')).toBe(text);
  const posted = (await eventsOf(w.server.db.pool, w.mission.groupId)).find((e) => e['eventId'] === row?.eventId);
  expect(posted?.['kind']).toBe('message.posted');
  expect(JSON.stringify(posted)).toContain('written while offline');
}, 60_000);

it('stopping yields a running job at its next safe checkpoint: the lease is released (work.checkpointed) and the next host resumes it from there', async () => {
  const path = join(w.dir, 'd', 'projection.sqlite');
  let checkpoints = 0;
  const first = hostOn(path, async (job) => {
    for (let step = 1; ; step++) {
      checkpoints = step;
      if ((await job.checkpoint({ step })) === 'yield') return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  await first.host.start();
  const workItemId = await offer();
  await until(() => (checkpoints >= 2 ? true : undefined), 'two checkpoints');
  await first.host.stop();
  first.runtime.close();
  const checkpointed = await until(() => eventOf(workItemId, 'work.checkpointed'), 'work.checkpointed (the lease released)');
  expect(JSON.stringify(checkpointed['payload'])).toContain('runtime stopping');
  expect(first.lines).toContain(`yielded ${workItemId}`);

  const resumedFrom: unknown[] = [];
  const second = hostOn(path, async (job) => {
    resumedFrom.push(job.resumeFrom);
    const { contentHash } = await job.publishArtifact(`resumed ${job.workItemId}`, { mediaType: 'text/plain' });
    await job.submit({ artifactHashes: [contentHash] });
  });
  expect(second.runtime.recovery.work.resumable.map((w) => w.workItemId)).toEqual([workItemId]);
  await second.host.start();
  await until(() => eventOf(workItemId, 'work.submitted'), 'the resumed WorkItem submitted');
  expect(resumedFrom).toEqual([{ step: checkpoints }]);
}, 90_000);

it('preempts a running job at its next safe checkpoint for a critical arrival: the slot passes over, the lease is released, and the yielded job resumes from its checkpoint', async () => {
  // The runtime's clock, moved past MIN_RUN_BEFORE_PREEMPT_MS instead of waiting for it.
  let skewMs = 0;
  const order: string[] = [];
  const resumedFrom = new Map<string, unknown>();
  let routine = '';
  const { host, lines } = hostOn(
    join(w.dir, 'e', 'projection.sqlite'),
    async (job) => {
      order.push(job.workItemId);
      if (!resumedFrom.has(job.workItemId)) resumedFrom.set(job.workItemId, job.resumeFrom);
      else resumedFrom.set(`${job.workItemId}#2`, job.resumeFrom);
      for (let step = (job.resumeFrom as { step?: number } | undefined)?.step ?? 0; ; step++) {
        if ((await job.checkpoint({ step })) === 'yield') return;
        if (job.workItemId !== routine || step >= 50) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const { contentHash } = await job.publishArtifact(`preemption ${job.workItemId}`, { mediaType: 'text/plain' });
      await job.submit({ artifactHashes: [contentHash] });
    },
    {},
    () => Date.now() + skewMs,
  );
  await host.start();
  routine = await offer('routine');
  await until(() => (order.length === 1 ? true : undefined), 'the routine job running');
  skewMs = 60_000;
  const critical = await offer('critical');
  const yielded = await until(() => eventOf(routine, 'work.checkpointed'), 'the routine job yielded (work.checkpointed)');
  expect(JSON.stringify(yielded['payload'])).toContain('preempted');
  await until(() => eventOf(critical, 'work.submitted'), 'the critical WorkItem submitted');
  await until(() => eventOf(routine, 'work.submitted'), 'the routine WorkItem resumed and submitted');
  expect(order).toEqual([routine, critical, routine]);
  expect(resumedFrom.get(`${routine}#2`)).toMatchObject({ step: expect.any(Number) });
  expect(lines).toContain(`yielded ${routine} (preempted)`);
  expect((await eventsOfWork(routine)).filter((e) => e['kind'] === 'work.started')).toHaveLength(2);
}, 90_000);
