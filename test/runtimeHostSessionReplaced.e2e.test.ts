/**
 * A Session replaced while a kept Command is in flight (§11.3, §11.5, §15.1, §19), against a real
 * node and its reactor: the runtime host's `work.submit` is sent, the connection drops before the
 * answer, and the Agent reconnects under a new Session Epoch. The Agent sends the same bytes again:
 *
 * - never applied (lost on the way in): the resend is refused AUTH_STALE_SESSION, and the outbox
 *   rebases it onto the new Session — a new Execution Lease (`work.start`, once the reactor has
 *   closed the replaced Session's lease) and a new Action ID, the same correlation ID — and the
 *   handler's `submit` resolves with its Event. Without the rebase the fenced Command was recorded
 *   refused, the handler's submit threw and the work ran again;
 * - applied (the answer lost): the resend is answered with the original receipt; nothing is
 *   rebased and no second lease is taken.
 *
 * Either way the handler runs once and the WorkItem is submitted once.
 */

import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Submission } from '../src/app/groupAuthority.js';
import type { JobHandler } from '../src/client/runtime/job.js';
import { runtimeHostWorld, until } from './support/runtimeHostWorld.js';

const { w, hostOn, offer, eventOf, eventsOfWork, dropWorker, interceptSubmits } = runtimeHostWorld('mw-host-replaced-', { reactor: true });

type Command = Record<string, unknown> & { actionId: string; correlationId: string; sessionEpoch: number; payload: { workItemId: string } };

function counting(): { handler: JobHandler; runs: string[] } {
  const runs: string[] = [];
  const handler: JobHandler = async (job) => {
    runs.push(job.workItemId);
    const { contentHash } = await job.publishArtifact(`the result of ${job.workItemId}`, { mediaType: 'text/plain', name: 'result.txt' });
    await job.submit({ artifactHashes: [contentHash], summary: 'done' });
  };
  return { handler, runs };
}

it('rebases a work.submit the new Session fenced before it was applied: a new lease and Action ID, applied once, the handler run once', async () => {
  const { handler, runs } = counting();
  const { host, runtime, lines } = hostOn(join(w.dir, 'fenced', 'projection.sqlite'), handler);
  await host.start();
  const firstSession = host.agent.sessionEpoch as number;
  // Lost on the way in: never submitted, and the connection drops.
  const spy = interceptSubmits<Command>('work.submit', () => {
    dropWorker();
    return Promise.resolve({ ok: false, error: { code: 'INTERNAL_ERROR', message: 'lost', retryable: true } } as Submission);
  });
  try {
    const workItemId = await offer();
    const submitted = await until(() => eventOf(workItemId, 'work.submitted'), 'work.submitted');
    const [original, resent, rebased] = spy.calls;
    expect(spy.calls).toHaveLength(3);
    expect(JSON.stringify(resent)).toBe(JSON.stringify(original));
    expect(original?.sessionEpoch).toBe(firstSession);
    expect(rebased?.sessionEpoch).toBe(host.agent.sessionEpoch);
    expect(rebased?.sessionEpoch).toBeGreaterThan(firstSession);
    // §19: a new Command under a new Action ID, the same correlation; it is what the Event records.
    expect(rebased?.actionId).not.toBe(original?.actionId);
    expect(rebased?.correlationId).toBe(original?.correlationId);
    expect((submitted['cause'] as { id: string }).id).toBe(rebased?.actionId);
    // On a new Execution Lease of the new Session (§11.3).
    const leases = (await eventsOfWork(workItemId)).filter((e) => e['kind'] === 'work.started').map((e) => (e['payload'] as { executionLease: { leaseId: string; sessionEpoch: number } }).executionLease);
    expect(leases.map((l) => l.sessionEpoch)).toEqual([firstSession, rebased?.sessionEpoch]);
    expect((rebased?.payload as { executionLeaseId?: string }).executionLeaseId).toBe(leases[1]?.leaseId);
    const row = runtime.projection.outbox.get(rebased?.actionId as string);
    expect(row).toMatchObject({ state: 'acked', rebasedFrom: original?.actionId });
    expect(runtime.projection.outbox.get(original?.actionId as string)).toBeUndefined();
    await until(() => (runtime.state.work[workItemId] === undefined ? true : undefined), 'the run ended here').catch((error: unknown) => {
      throw new Error(`${String(error)}; held: ${JSON.stringify(runtime.state.work[workItemId])}; host log:\n${lines.join('\n')}`);
    });
    expect((await eventsOfWork(workItemId)).filter((e) => e['kind'] === 'work.submitted')).toHaveLength(1);
    expect(runs).toEqual([workItemId]);
    expect(lines.filter((l) => l.includes('lease-lost') || l.startsWith('blocked'))).toEqual([]);
  } finally {
    spy.restore();
  }
});

it('answers a work.submit applied before the Session was replaced with its receipt: not rebased, no second lease', async () => {
  const { handler, runs } = counting();
  const { host, runtime } = hostOn(join(w.dir, 'applied', 'projection.sqlite'), handler);
  await host.start();
  // Accepted and committed, but the connection dies before the answer leaves.
  const spy = interceptSubmits<Command>('work.submit', async (original) => {
    const outcome = await original();
    dropWorker();
    return outcome;
  });
  try {
    const workItemId = await offer();
    await until(() => (spy.calls.length >= 2 ? true : undefined), 'the resend after the reconnect');
    await until(() => (runs.length === 1 && runtime.projection.outbox.get(spy.calls[0]?.actionId as string)?.state === 'acked' ? true : undefined), 'the kept work.submit acked');
    expect(spy.calls.map((c) => c.actionId)).toEqual([spy.calls[0]?.actionId, spy.calls[0]?.actionId]);
    const events = await eventsOfWork(workItemId);
    expect(events.filter((e) => e['kind'] === 'work.submitted').map((e) => (e['cause'] as { id: string }).id)).toEqual([spy.calls[0]?.actionId]);
    expect(events.filter((e) => e['kind'] === 'work.started')).toHaveLength(1);
    expect(runs).toEqual([workItemId]);
  } finally {
    spy.restore();
  }
});
