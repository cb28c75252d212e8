/**
 * The runtime host's intake (src/client/runtime/hostIntake.ts, hostAdmission.ts) against a real
 * node (wss, TLS, PostgreSQL): work this Agent came to own other than through the host's own
 * offer handling is picked up (from the Group's view on start, from its Events while running) and
 * run; an offer the runtime would refuse is declined (not accepted); owned work the runtime refuses
 * (a per-Group quota of one) is released at once with `work.fail`, and the Coordinator's new offer
 * of it is accepted once there is room.
 */

import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { requestOf } from '../src/client/runtime/hostAdmission.js';
import type { JobHandler } from '../src/client/runtime/job.js';
import type { WorkItemDocument } from '../src/client/workDocuments.js';
import { runtimeHostWorld, until } from './support/runtimeHostWorld.js';

const { w, agentOf, hostOn, authorize, offer, offerAgain, eventOf, kindsOf } = runtimeHostWorld('mw-intake-e2e-', { reactor: true });

/** `until`, failing with the WorkItem's Events and the host's last lines (a timeout on the Citus cluster under load once said nothing else). */
async function told<T>(lines: readonly string[], check: () => Promise<T | undefined> | T | undefined, what: string, workItemId?: string): Promise<T> {
  return until(check, what).catch(async (error: unknown) => {
    const kinds = workItemId === undefined ? '' : `; the WorkItem's Events: ${(await kindsOf(workItemId)).join(', ')}`;
    throw new Error(`${String(error)}${kinds}; the host said: ${lines.slice(-30).join(' | ')}`);
  });
}

const submitting: JobHandler = async (job) => {
  const { contentHash } = await job.publishArtifact(`done ${job.workItemId}`, { mediaType: 'text/plain' });
  await job.submit({ artifactHashes: [contentHash] });
};

it('picks up work the Agent accepted through another client while the host was down (from the view on start) and runs it once', async () => {
  const workItemId = await offer();
  // Another client of the same Agent (the CLI, MCP, its own code) accepts; the host is not running.
  const other = agentOf();
  await other.connect();
  await other.command('work.accept_offer', { workItemId }, { groupId: w.mission.groupId, workItemId, membershipEpoch: 1 });
  await other.close();

  const { host, lines } = hostOn(join(w.dir, 'a', 'projection.sqlite'), submitting);
  await host.start();
  await told(lines, () => eventOf(workItemId, 'work.submitted'), 'the picked-up WorkItem submitted', workItemId);
  expect(lines.filter((line) => line.startsWith(`picked up ${workItemId}`))).toHaveLength(1);
  expect((await kindsOf(workItemId)).filter((kind) => kind === 'work.offer.accepted')).toHaveLength(1);
  expect((await kindsOf(workItemId)).filter((kind) => kind === 'work.submitted')).toHaveLength(1);
  await host.stop(100);
}, 90_000);

it('a per-Group quota of one: an offer over it is declined (not accepted); owned work over it is released with work.fail; both run once there is room', async () => {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const ran: string[] = [];
  let first = '';
  const { host, runtime, lines } = hostOn(join(w.dir, 'b', 'projection.sqlite'), async (job) => {
    ran.push(job.workItemId);
    if (job.workItemId === first) await gate;
    await submitting(job);
  });
  expect(runtime.setGroupPolicy(w.mission.groupId, { weight: 1, priorityClass: 'normal', maxConcurrent: 1, maxQueued: 1, admitting: true }).ok).toBe(true);
  await host.start();

  first = await offer();
  await told(lines, () => (ran.includes(first) ? true : undefined), 'the first WorkItem running', first);
  const second = await offer(); // ready: the one queued place
  await told(lines, () => (runtime.state.work[second] !== undefined ? true : undefined), 'the second WorkItem admitted');
  const over = await offer();
  const later = await offer();
  await told(lines, () => (lines.includes(`declined ${over}: group-queue-full`) && lines.includes(`declined ${later}: group-queue-full`) ? true : undefined), 'both offers declined');
  expect(await eventOf(over, 'work.offer.accepted')).toBeUndefined();

  // Accepted all the same by another client of the Agent: the runtime refuses it, the host releases it.
  await host.agent.command('work.accept_offer', { workItemId: over }, { groupId: w.mission.groupId, workItemId: over, membershipEpoch: 1 });
  const failed = await told(lines, () => eventOf(over, 'work.failed'), 'the refused WorkItem released (work.failed)');
  expect((failed['payload'] as { reason: string }).reason).toBe("declined by the Worker's runtime: capacity (group-queue-full); offer it again or elsewhere");
  await told(lines, () => (lines.includes(`released ${over}: group-queue-full`) ? true : undefined), 'the release logged');
  expect(runtime.state.work[over]).toBeUndefined();

  open();
  await told(lines, () => eventOf(second, 'work.submitted'), 'the queued WorkItem submitted');
  // Room again: work accepted elsewhere is picked up from its Event; the Coordinator's new offer is accepted.
  await host.agent.command('work.accept_offer', { workItemId: later }, { groupId: w.mission.groupId, workItemId: later, membershipEpoch: 1 });
  await told(lines, () => eventOf(later, 'work.submitted'), 'the WorkItem picked up from its Event submitted');
  expect(lines.some((line) => line.startsWith(`picked up ${later}`))).toBe(true);
  await offerAgain(over);
  await told(lines, async () => ((await kindsOf(over)).includes('work.submitted') ? true : undefined), 'the re-offered WorkItem submitted');
  expect(ran.filter((id) => id === over)).toHaveLength(1);
  expect((await kindsOf(first)).filter((kind) => kind === 'work.submitted')).toHaveLength(1);
}, 120_000);

it('an Event showing its WorkItem owned and queued, delivered after the run here submitted it, does not bring the finished work back: no second work.start, nothing held', async () => {
  // Ahead of the host's handlers: the offer's acceptance reaches the host only once the run has ended (a slow stream).
  let deliver: () => void = () => undefined;
  const late = new Promise<void>((resolve) => (deliver = resolve));
  onTestFinished(() => deliver());
  let target: string | undefined;
  const ran: string[] = [];
  const { host, runtime, lines } = hostOn(join(w.dir, 'late', 'projection.sqlite'), async (job) => (ran.push(job.workItemId), submitting(job)), {
    ahead: (agent) =>
      void agent.onEvent(async (event) => {
        if (event.kind === 'work.offer.accepted' && (event.payload as { workItemId?: string }).workItemId === target) await late;
      }),
  });
  await host.start();
  const workItemId = (target = await authorize());
  await offerAgain(workItemId);
  const submitted = (await told(lines, () => eventOf(workItemId, 'work.submitted'), 'the WorkItem submitted', workItemId)) as { sequence: number };
  await told(lines, () => (runtime.state.work[workItemId] === undefined ? true : undefined), 'the run ended here', workItemId);
  deliver();
  // The late Event and the submission after it are handled; whatever they set off has had time to ask for a start (START_RETRY_MS apart).
  await told(lines, () => ((host.agent.cursor(w.mission.groupId) ?? 0) >= submitted.sequence ? true : undefined), 'the Cursor past the submission');
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect((await kindsOf(workItemId)).filter((kind) => kind === 'work.started')).toHaveLength(1);
  expect(runtime.state.work[workItemId], `the host said: ${lines.join(' | ')}`).toBeUndefined();
  expect(ran).toEqual([workItemId]);
  expect(lines.filter((line) => line.includes(workItemId) && (line.startsWith('blocked') || line.startsWith('picked up') || line.includes('refused')))).toEqual([]);
}, 90_000);

it('held work whose work.start is refused because the WorkItem ended (submitted elsewhere) is let go at once, not blocked and retried', async () => {
  const { host, runtime, lines } = hostOn(join(w.dir, 'ended', 'projection.sqlite'), submitting);
  await host.start();
  const workItemId = await offer();
  await told(lines, () => eventOf(workItemId, 'work.submitted'), 'the WorkItem submitted', workItemId);
  await told(lines, () => (runtime.state.work[workItemId] === undefined ? true : undefined), 'the run ended here', workItemId);
  // Held again as the last race would leave it: admitted from what an old Event said.
  const accepted = (await eventOf(workItemId, 'work.offer.accepted')) as { payload: { workItem: WorkItemDocument; ownershipEpoch: number } };
  expect(runtime.admit(requestOf(w.mission.groupId, accepted.payload.workItem, accepted.payload.ownershipEpoch, 'm')).ok).toBe(true);
  host.pump();
  await told(lines, () => (runtime.state.work[workItemId] === undefined ? true : undefined), 'the ended WorkItem let go', workItemId);
  expect(lines).toContain(`withdrawn ${workItemId}: work.start refused, the WorkItem is submitted`);
  expect(lines.filter((line) => line.startsWith(`blocked ${workItemId}`))).toEqual([]);
  expect((await kindsOf(workItemId)).filter((kind) => kind === 'work.started')).toHaveLength(1);
}, 90_000);
