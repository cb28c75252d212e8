/**
 * A run whose handler fails after the Authority already took its WorkItem back (src/client/runtime/
 * hostRun.ts): `work.block` is refused there, so the run must not stay blocked in the runtime
 * (nobody would ever unblock it — the Coordinator sees no blocked WorkItem); it ends `lease-lost`
 * and the host re-checks it with the Authority. Here the Coordinator cancels the WorkItem while
 * the job runs and the handler then throws: the re-check finds it cancelled and withdraws it.
 * (In the PoC a cut connection did this: the handler failed on the lost Session, the Authority
 * had put the WorkItem back to `queued`, and the Worker held it blocked for good.)
 *
 * Two orders are possible across real processes and both must end the same way: the handler's
 * `work.block` reaches the Authority first and is refused, or the `work.cancelled` Event reaches
 * the Worker first and its lease is known lost. CI saw the second (stop 39). The refused-block
 * order alone is pinned in test/runtime/hostRunBlockRefused.unit.test.ts.
 */

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { MissionWeaveAgent } from '../src/client/index.js';
import { RuntimeHost } from '../src/client/runtime/hostRuntime.js';
import { openAgentRuntime } from '../src/client/runtime/runtime.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { eventsOf } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { runtimeHostWorld, until } from './support/runtimeHostWorld.js';

const { w, asCoordinator } = runtimeHostWorld('mw-hostrun-e2e-', { reactor: false });

it('a run whose work.block the Authority refuses is re-checked, not held blocked: the cancelled WorkItem is withdrawn', async () => {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const runtime = openAgentRuntime({ path: join(w.dir, 'projection.sqlite'), agentId: w.workerActor.principal.id, slots: 1 });
  const agent = new MissionWeaveAgent({ url: w.server.url, ca: w.server.ca, agentId: w.workerActor.principal.id, keyId: w.workerActor.key.keyId, privateKey: w.workerActor.key.privateKey, cursorStore: runtime.cursorStore });
  const lines: string[] = [];
  let runs = 0;
  const host = new RuntimeHost({
    agent, runtime, executionLeaseSeconds: 60, log: (line) => void lines.push(line),
    handler: async (job) => {
      runs++;
      expect(await job.checkpoint({ step: 1 })).toBe('continue');
      // The Coordinator takes the WorkItem back; the handler's tool fails right after, before the
      // Worker heard of it.
      await w.server.harness.expectOk(w.server.harness.send(w.coordinator, 'work.cancel', { workItemId, reason: 'Superseded.' }, asCoordinator()));
      throw new Error('the tool lost its connection');
    },
  });
  await host.start();

  const contract = { ...EXAMPLE_WORK_CONTRACT, goal: `${EXAMPLE_WORK_CONTRACT.goal} (${workItemId})`, inputArtifacts: [], dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(Date.now() + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 50 } };
  await w.server.harness.expectOk(w.server.harness.send(w.coordinator, 'work.authorize', { workItemId, contract }, asCoordinator()));
  const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
  await w.server.harness.expectOk(w.server.harness.send(w.coordinator, 'work.offer', { workItemId, candidateAgentIds: [w.workerActor.principal.id], selectionBasis }, asCoordinator()));

  await until(() => (runs === 1 && runtime.state.work[workItemId] === undefined ? true : undefined), 'the cancelled WorkItem withdrawn from the runtime', 30_000);
  expect(lines.some((line) => line.startsWith(`withdrawn ${workItemId}: it is cancelled`))).toBe(true);
  const lost = lines.filter((line) => line.startsWith(`lease-lost ${workItemId}: `));
  expect(lost).toHaveLength(1);
  expect(lost[0]).toMatch(/: (the job handler threw: the tool lost its connection; work\.block was not accepted|the Execution Lease was lost)/);
  const kinds = (await eventsOf(w.server.db.pool, w.mission.groupId)).filter((e) => (e['payload'] as { workItemId?: string }).workItemId === workItemId).map((e) => e['kind']);
  expect(kinds).toContain('work.cancelled');
  expect(kinds).not.toContain('work.blocked');
}, 90_000);
