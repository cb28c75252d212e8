/**
 * A kept Command refused MEMBERSHIP_STALE (§8, §19), against a real node: the Worker's Membership
 * changed (its epoch moved) after the runtime signed a run-ending Command and before the Authority
 * saw it. §19: "A stale fencing error requires the current authoritative epoch and a new Command
 * with a new Action ID and signature"; a Command under a fenced Membership Epoch was never applied
 * and never can be, so the durable outbox rebases it, as it does on AUTH_STALE_SESSION and as the
 * in-memory OfflineBuffer does on both: the Membership Epoch the Authority holds now (`/v1/me`), a
 * new Action ID, the same correlation ID and payload. The Session did not change, so the Execution
 * Lease it cites still holds and no new one is taken.
 *
 * - in flight, through the runtime host: the handler's `submit` resolves with the rebased
 *   Command's Event, the WorkItem is submitted once and the handler runs once (before, the submit
 *   was refused, the run was blocked and the WorkItem never submitted);
 * - kept and sent later (`sendOutbox`): the row is rebased in place and acked (before, it was
 *   recorded refused MEMBERSHIP_STALE, the checkpoint lost);
 * - the Membership ended: the Authority answers MEMBERSHIP_REQUIRED, not a stale epoch, and the
 *   row stays refused, not rebased.
 */

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { signWith } from '../src/client/signer.js';
import { OutboxCommands } from '../src/client/runtime/outboxCommands.js';
import { outcomeText, sendOutbox } from '../src/client/runtime/projectionSend.js';
import type { JobHandler } from '../src/client/runtime/job.js';
import { runtimeHostWorld, until } from './support/runtimeHostWorld.js';

const { w, asCoordinator, hostOn, offer, eventOf, eventsOfWork, interceptSubmits, projectionWorker } = runtimeHostWorld('mw-outbox-membership-', { reactor: false });

type Command = Record<string, unknown> & { actionId: string; correlationId: string; sessionEpoch: number; membershipEpoch: number; payload: { workItemId: string; executionLeaseId: string } };

/** The Coordinator changes the Worker's Membership (the same role): its Membership Epoch moves on. Resolves with the new epoch. */
async function changeWorkerMembership(): Promise<number> {
  const outcome = await w.server.harness.expectOk(w.server.harness.send(w.coordinator, 'membership.change', { principal: { ...w.workerActor.principal }, roles: ['worker'] }, asCoordinator()));
  const changed = outcome.events.map((e) => JSON.parse(e.text) as { kind: string; payload: { membership: { membershipEpoch: number } } }).find((e) => e.kind === 'membership.changed');
  return changed?.payload.membership.membershipEpoch as number;
}

it('rebases a work.submit refused MEMBERSHIP_STALE in flight onto the current Membership Epoch: a new Action ID, the same lease, applied once, the handler run once', async () => {
  const runs: string[] = [];
  const handler: JobHandler = async (job) => {
    runs.push(job.workItemId);
    const { contentHash } = await job.publishArtifact(`the result of ${job.workItemId}`, { mediaType: 'text/plain', name: 'result.txt' });
    await job.submit({ artifactHashes: [contentHash], summary: 'done' });
  };
  const { host, runtime, lines } = hostOn(join(w.dir, 'inflight.sqlite'), handler);
  onTestFinished(async () => {
    await host.stop(100);
    runtime.close();
  });
  await host.start();
  let newEpoch = 0;
  // The Membership changes while the work.submit is on its way in: the Authority refuses it MEMBERSHIP_STALE.
  const { calls } = interceptSubmits<Command>('work.submit', async (original) => {
    newEpoch = await changeWorkerMembership();
    return original();
  });
  const workItemId = await offer();
  const submitted = await until(() => eventOf(workItemId, 'work.submitted'), 'work.submitted');
  const [refused, rebased] = calls;
  expect(calls).toHaveLength(2);
  expect(newEpoch).toBeGreaterThan(refused?.membershipEpoch as number);
  // §19: a new Command under the current authoritative epoch and a new Action ID; the same correlation and Session.
  expect(rebased?.membershipEpoch).toBe(newEpoch);
  expect(rebased?.actionId).not.toBe(refused?.actionId);
  expect(rebased?.correlationId).toBe(refused?.correlationId);
  expect(rebased?.sessionEpoch).toBe(refused?.sessionEpoch);
  expect((submitted['cause'] as { id: string }).id).toBe(rebased?.actionId);
  // The Session did not change: the same Execution Lease, no second work.start.
  expect(rebased?.payload.executionLeaseId).toBe(refused?.payload.executionLeaseId);
  const events = await eventsOfWork(workItemId);
  expect(events.filter((e) => e['kind'] === 'work.started')).toHaveLength(1);
  expect(events.filter((e) => e['kind'] === 'work.submitted')).toHaveLength(1);
  expect(runtime.projection.outbox.get(rebased?.actionId as string)).toMatchObject({ state: 'acked', rebasedFrom: refused?.actionId });
  expect(runtime.projection.outbox.get(refused?.actionId as string)).toBeUndefined();
  await until(() => (runtime.state.work[workItemId] === undefined ? true : undefined), 'the run ended here');
  expect(runs).toEqual([workItemId]);
  expect(lines.filter((l) => l.includes('lease-lost') || l.startsWith('blocked'))).toEqual([]);
});

/**
 * A Worker on its own projection holding a WorkItem under an Execution Lease, and in its outbox a
 * `work.checkpoint` kept and not yet sent (the process was cut off between keeping and sending),
 * signed under the Membership Epoch of then; its OutboxCommands still caches that epoch.
 */
async function keptCheckpoint(name: string) {
  const { runtime, agent, worker, groupId, membershipEpoch: oldEpoch } = await projectionWorker(name);
  const workItemId = await offer();
  const owned = await worker.accept({ groupId, workItemId });
  const execution = await worker.start(owned);
  const kept = {
    protocolVersion: '0.1',
    actionId: `urn:uuid:${randomUUID()}`,
    actor: { type: 'agent', id: agent.agentId },
    kind: 'work.checkpoint',
    groupId,
    sessionEpoch: agent.sessionEpoch,
    membershipEpoch: oldEpoch,
    correlationId: `urn:uuid:${randomUUID()}`,
    issuedAt: new Date().toISOString(),
    payload: { workItemId, ownershipEpoch: owned.ownershipEpoch, executionLeaseId: execution.leaseId, checkpoint: { phase: 'kept before the Membership changed', createdAt: new Date().toISOString() } },
  };
  runtime.projection.outbox.add(JSON.stringify((await signWith('command', kept, agent.signer)).document));
  const commands = new OutboxCommands(agent, () => runtime.projection.outbox, () => oldEpoch);
  const send = () => sendOutbox(runtime.projection.outbox, agent, commands.inFlight, commands.rebase);
  return { runtime, kept, oldEpoch, workItemId, leaseId: execution.leaseId, send };
}

it('rebases a kept work.checkpoint whose Membership Epoch was fenced before it was sent: the row is acked under a new Action ID, the old one is gone', async () => {
  const { runtime, kept, oldEpoch, workItemId, leaseId, send } = await keptCheckpoint('kept');
  const newEpoch = await changeWorkerMembership();
  expect(newEpoch).toBeGreaterThan(oldEpoch);
  const outcomes = await send();
  expect(outcomes.map(outcomeText)).toEqual([expect.stringMatching(new RegExp(`: acked \\(rebased from ${kept.actionId}\\)$`))]);
  const rebasedId = outcomes[0]?.actionId as string;
  expect(rebasedId).not.toBe(kept.actionId);
  expect(runtime.projection.outbox.get(kept.actionId)).toBeUndefined();
  const row = runtime.projection.outbox.get(rebasedId);
  expect(row).toMatchObject({ state: 'acked', rebasedFrom: kept.actionId });
  const rebased = JSON.parse(row?.bytes.toString('utf8') as string) as Command;
  expect(rebased).toMatchObject({ membershipEpoch: newEpoch, sessionEpoch: kept.sessionEpoch, correlationId: kept.correlationId, payload: { executionLeaseId: leaseId } });
  const events = await eventsOfWork(workItemId);
  expect(events.filter((e) => e['kind'] === 'work.checkpointed').map((e) => (e['cause'] as { id: string }).id)).toEqual([rebasedId]);
  expect(events.filter((e) => e['kind'] === 'work.started')).toHaveLength(1);
});

// Last in the file: it ends the Worker's Membership.
it('leaves a kept Command refused when the Agent holds no Membership there any more (MEMBERSHIP_REQUIRED, not a stale epoch): not rebased, nothing applied', async () => {
  const { runtime, kept, workItemId, send } = await keptCheckpoint('ended');
  await w.server.harness.expectOk(w.server.harness.send(w.coordinator, 'membership.end', { principal: { ...w.workerActor.principal } }, asCoordinator()));
  const outcomes = await send();
  expect(outcomes).toEqual([{ actionId: kept.actionId, outcome: 'refused', code: 'MEMBERSHIP_REQUIRED' }]);
  expect(runtime.projection.outbox.get(kept.actionId)).toMatchObject({ state: 'refused' });
  expect(runtime.projection.outbox.count()).toBe(1);
  expect((await eventsOfWork(workItemId)).filter((e) => e['kind'] === 'work.checkpointed')).toEqual([]);
});
