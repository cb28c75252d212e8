/**
 * The runtime host (src/client/runtime/hostIntake.ts, hostRuntime.ts) against a real node (wss,
 * TLS, PostgreSQL): an offer of a WorkItem the runtime still holds, waiting for a slot, under an
 * Ownership Epoch the Authority has since fenced. The host skips the offer while it holds the
 * work; its start under the old epoch is then refused (WORK_STALE_OWNERSHIP) and the hold
 * withdrawn, and the offer, still live, must be accepted then, or nobody runs the WorkItem. The
 * reduced PoC under load hit this on 2026-12-05: a Worker's 6 s Execution Lease ran out before its
 * first renewal, then its ownership lease, and Mission B waited for good on the re-offered
 * `design`.
 */

import { join } from 'node:path';
import { expect, it } from 'vitest';
import { WORK_LEASE_CLOSED } from '../src/domain/workItem/workLeaseClose.js';
import { eventsOf } from './support/missions.js';
import { runtimeHostWorld, until } from './support/runtimeHostWorld.js';

const { w, hostOn, offer, offerAgain, eventOf, kindsOf } = runtimeHostWorld('mw-reoffer-e2e-', { reactor: true });

it('takes a live offer of work it held under a fenced Ownership Epoch once the stale hold is withdrawn, and runs it once', async () => {
  const { groupId } = w.mission;
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const ran: string[] = [];
  let first = '';
  const { host, runtime, lines } = hostOn(join(w.dir, 'a', 'projection.sqlite'), async (job) => {
    ran.push(job.workItemId);
    if (job.workItemId === first) await gate;
    const { contentHash } = await job.publishArtifact(`done ${job.workItemId}`, { mediaType: 'text/plain' });
    await job.submit({ artifactHashes: [contentHash] });
  });
  await host.start();
  // The host's one slot is busy.
  first = await offer();
  await until(() => (ran.includes(first) ? true : undefined), 'the first WorkItem running');

  // Accepted under Ownership Epoch 1 with a 1 s ownership lease on the host's connection
  // (its runtime declined the offer while its Group admitted nothing), then picked up by the host
  // from the Event once the Group admits again, and held ready, waiting for the slot.
  expect(runtime.setGroupPolicy(groupId, { weight: 1, priorityClass: 'normal', maxConcurrent: 1, maxQueued: 1, admitting: false }).ok).toBe(true);
  const workItemId = await offer();
  await until(() => (lines.some((line) => line.startsWith(`declined ${workItemId}: `)) ? true : undefined), 'the offer declined');
  expect(runtime.setGroupPolicy(groupId, { weight: 1, priorityClass: 'normal', maxConcurrent: 1, maxQueued: 1, admitting: true }).ok).toBe(true);
  await host.agent.command('work.accept_offer', { workItemId, ownershipLeaseSeconds: 1 }, { groupId, workItemId, membershipEpoch: 1 });
  await until(() => (runtime.state.work[workItemId]?.status === 'ready' ? true : undefined), 'the second WorkItem held ready');

  // The Authority fences that owner (its ownership lease ran out); the Coordinator offers the work again, and the host sees the offer.
  await until(
    async () =>
      (await eventsOf(w.server.db.pool, groupId)).find((e) => {
        const closed = e['payload'] as { workItemId?: string; closedLeases?: { leaseType?: string }[] };
        return e['kind'] === WORK_LEASE_CLOSED && closed.workItemId === workItemId && closed.closedLeases?.some((l) => l.leaseType === 'ownership') === true;
      }),
    'the ownership lease closed by the reactor',
  );
  await offerAgain(workItemId);
  await until(() => (host.worker.offers().some((o) => o.workItemId === workItemId) ? true : undefined), 'the offer seen by the host');
  expect(runtime.state.work[workItemId]?.status).toBe('ready');

  // The slot frees: the start under Epoch 1 is refused, the hold withdrawn, and the live offer taken.
  open();
  await until(() => eventOf(workItemId, 'work.submitted'), 'the re-offered WorkItem submitted', 30_000);
  expect(lines).toContain(`withdrawn ${workItemId}: work.start refused WORK_STALE_OWNERSHIP`);
  const kinds = await kindsOf(workItemId);
  expect(kinds.filter((kind) => kind === 'work.offer.accepted')).toHaveLength(2);
  expect(kinds.filter((kind) => kind === 'work.submitted')).toHaveLength(1);
  expect(ran.filter((id) => id === workItemId)).toHaveLength(1);
}, 90_000);
