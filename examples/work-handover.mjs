#!/usr/bin/env node
/**
 * A WorkItem handed over past a paused Worker, with `missionweave/client`: one Coordinator (this
 * process) and two Workers (examples/work-worker.mjs, each its own process) over wss.
 *
 *  1. The Coordinator admits Workers A and B to its Mission's Group, authorizes a WorkItem and
 *     offers it to A. A accepts (Ownership Epoch n), starts under a short Execution Lease, and
 *     its SDK renews the lease.
 *  2. A is paused for real (SIGSTOP): no renewal, no event loop. Its lease runs out on the Group
 *     Authority's clock and the Authority closes it with an Event of its own.
 *  3. The Coordinator offers the WorkItem to B, which accepts under Ownership Epoch n+1, starts,
 *     works (its lease renewed meanwhile), publishes its result as an Artifact and submits it;
 *     the Coordinator accepts the result and the WorkItem is verified.
 *  4. A resumes (SIGCONT) and, playing a Worker whose result was already on its way, publishes
 *     and submits: the Authority refuses both (WORK_LEASE_EXPIRED or WORK_STALE_OWNERSHIP). It
 *     never completes the WorkItem.
 *
 *   npm run build
 *   missionweave agent add planner --dir demo --capability code.review@1.0.0    # the Coordinator
 *   missionweave agent add worker-a --dir demo --capability code.review@1.0.0
 *   missionweave agent add worker-b --dir demo --capability code.review@1.0.0
 *   # … create a Mission with planner as its Coordinator (see the README), then:
 *   MW_HOME=demo MW_COORDINATOR=planner MW_WORKER_A=worker-a MW_WORKER_B=worker-b MW_GROUP_ID=urn:… \
 *     node examples/work-handover.mjs
 *
 * Inputs (environment): MW_GROUP_ID; the Agents by handle from an operator directory (MW_HOME,
 * MW_COORDINATOR, MW_WORKER_A, MW_WORKER_B) or explicitly (MW_URL, MW_CA_FILE and, for each of
 * COORDINATOR, WORKER_A, WORKER_B, MW_<ROLE>_AGENT_ID, MW_<ROLE>_KEY_ID, MW_<ROLE>_PRIVATE_KEY_FILE);
 * MW_CAPABILITY (what the WorkItem requires, default code.review@1.0.0); MW_LEASE_SECONDS (default 2).
 *
 * Output: JSON lines — this process's steps, each Worker's lines as {"worker":"A",…}, and last
 * {"done":{…}} with the WorkItem ID, both Ownership Epochs and how A's late submission ended.
 */

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { MissionWeaveAgent, MissionWeaveCoordinator } from 'missionweave/client';
import { identity, server, workContract, selectionBasis, lines, until } from './work-scenario.mjs';

const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const groupId = process.env.MW_GROUP_ID ?? '';
if (groupId === '') throw new Error('missing MW_GROUP_ID');
const leaseSeconds = Number(process.env.MW_LEASE_SECONDS ?? '2');
const [capabilityId, capabilityVersion] = (process.env.MW_CAPABILITY ?? 'code.review@1.0.0').split('@');
const { url, caFile } = server();
const agents = { coordinator: identity('COORDINATOR'), A: identity('WORKER_A'), B: identity('WORKER_B') };

/** Starts a Worker process; its JSON lines are relayed and kept. */
function startWorker(name, extraEnv) {
  const me = agents[name];
  const child = spawn(process.execPath, [new URL('./work-worker.mjs', import.meta.url).pathname], {
    env: { ...process.env, MW_URL: url, MW_CA_FILE: caFile, MW_AGENT_ID: me.agentId, MW_KEY_ID: me.keyId, MW_PRIVATE_KEY_FILE: me.privateKeyFile, MW_GROUP_ID: groupId, MW_LEASE_SECONDS: String(leaseSeconds), ...extraEnv },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const seen = [];
  lines(child.stdout, (line) => {
    seen.push(line);
    print({ worker: name, ...line });
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, seen, exited, line: (key, timeoutMs) => until(() => seen.find((l) => key in l), timeoutMs, `Worker ${name}: ${key}`) };
}

/** The state of a process from /proc (Linux), to show the pause is real: `T` is stopped. */
function processState(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
  } catch {
    return undefined;
  }
}

const agent = new MissionWeaveAgent({ url, ca: readFileSync(caFile, 'utf8'), agentId: agents.coordinator.agentId, keyId: agents.coordinator.keyId, privateKey: readFileSync(agents.coordinator.privateKeyFile, 'utf8') });
const coordinator = new MissionWeaveCoordinator(agent);
const workItems = new Map();
const history = [];
coordinator.onWorkItem((workItem, event) => {
  workItems.set(workItem.workItemId, workItem);
  history.push({ kind: event.kind, sequence: event.sequence, actor: event.actor, state: workItem.state, owner: workItem.owner });
});
agent.onError((error) => process.stderr.write(`${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`));

const workers = [];
try {
  await agent.connect();
  await agent.subscribe(groupId);
  await until(() => coordinator.epochs.facts(groupId)?.coordinatorEpoch, 15_000, 'the Coordinator Epoch');
  for (const name of ['A', 'B']) await coordinator.admit(groupId, agents[name].agentId);
  const workerA = startWorker('A', { MW_WORK_MS: String(leaseSeconds * 3000), MW_LATE_SUBMIT: '1' }); // still working when paused
  const workerB = startWorker('B', { MW_WORK_MS: String(leaseSeconds * 750) }); // long enough to renew
  workers.push(workerA, workerB);
  await Promise.all([workerA.line('ready', 30_000), workerB.line('ready', 30_000)]);

  const capability = { id: capabilityId, version: capabilityVersion };
  const { workItem } = await coordinator.authorize(groupId, { contract: workContract(capability) });
  const workItemId = workItem.workItemId;
  print({ authorized: { workItemId } });
  await coordinator.offer(groupId, { workItemId, candidateAgentIds: [agents.A.agentId], selectionBasis: selectionBasis(capability), offerExpiresInSeconds: 60 });
  print({ offered: { to: 'A' } });

  // 2. A paused for real once the SDK has renewed its lease once: renewal ran, then stops with A.
  const started = (await workerA.line('started', 30_000)).started;
  await until(() => history.find((h) => h.kind === 'work.progressed' && h.actor.id === agents.A.agentId), 30_000, "A's first lease renewal");
  workerA.child.kill('SIGSTOP');
  // The signal lands asynchronously; on Linux, wait until the kernel reports the process stopped.
  if (process.platform === 'linux') await until(() => processState(workerA.child.pid) === 'T', 5_000, 'A to stop');
  print({ paused: { worker: 'A', pid: workerA.child.pid, processState: processState(workerA.child.pid), ownershipEpoch: started.ownershipEpoch, executionLeaseId: started.executionLeaseId } });

  // The Authority closes A's lease on its own clock: an Event of the WorkItem not signed for A.
  const closed = await until(() => history.find((h) => h.actor.type === 'service' && h.owner?.ownershipEpoch === started.ownershipEpoch && h.kind !== 'work.started'), 60_000, "the Authority's closure of A's lease");
  print({ leaseClosed: closed });

  // 3. Re-offer to B: retried while the Authority still counts A as the live owner.
  await until(async () => {
    try {
      return await coordinator.offer(groupId, { workItemId, candidateAgentIds: [agents.B.agentId], selectionBasis: selectionBasis(capability), offerExpiresInSeconds: 60 });
    } catch (error) {
      if (error.code === 'WORK_ALREADY_OWNED' || error.code === 'INVALID_STATE_TRANSITION') return undefined;
      throw error;
    }
  }, 60_000, 'the offer to B');
  print({ offered: { to: 'B' } });
  const acceptedB = (await workerB.line('accepted', 30_000)).accepted;
  await workerB.line('submitted', 30_000);
  const submitted = await until(() => (workItems.get(workItemId)?.state === 'submitted' ? workItems.get(workItemId) : undefined), 30_000, 'the submission');
  const review = await coordinator.evidence(submitted, { type: 'reviewer_assessment', criterionIds: submitted.contract.acceptanceCriteria.map((c) => c.criterionId), method: 'Checked the answer.', result: 'passed', artifactHashes: [...submitted.submission.artifactHashes] });
  const verified = await coordinator.acceptResult(groupId, workItemId, [review]);
  print({ verified: { workItemId, state: verified.workItem.state, owner: verified.workItem.owner?.agentId, ownershipEpoch: verified.workItem.owner?.ownershipEpoch } });

  // 4. A resumes; its late submission is refused.
  workerA.child.kill('SIGCONT');
  print({ resumed: { worker: 'A' } });
  const late = await until(() => workerA.seen.find((l) => 'submitRefused' in l || 'submitted' in l), 30_000, "A's late submission");
  await Promise.all(workers.map((w) => w.exited));
  print({ done: { workItemId, ownershipEpochs: { A: started.ownershipEpoch, B: acceptedB.ownershipEpoch }, lateSubmission: late.submitRefused ? { refused: late.submitRefused.code } : { accepted: true }, state: workItems.get(workItemId)?.state } });
} catch (error) {
  process.stderr.write(`${JSON.stringify({ failed: { code: error.code, message: error.message } })}\n`);
  process.exitCode = 1;
} finally {
  for (const w of workers) {
    w.child.kill('SIGCONT');
    if (w.child.exitCode === null) w.child.kill('SIGTERM');
  }
  coordinator.close();
  await agent.close();
}
