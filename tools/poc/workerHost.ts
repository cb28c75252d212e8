/**
 * One PoC Worker as an OS process of its own (forked by poc.ts): the Agent runtime
 * (src/client/runtime/: per-Group ready queues, the weighted-fair Scheduler, execution slots, its
 * SQLite projection in the Worker's own home) joined to the SDK's Worker over wss, running a
 * handler module per WorkItem with the job contract of `missionweave worker` (handlers/).
 *
 * - An offer is accepted, then admitted to its Group's queue; `schedule` fills free slots; each
 *   started run gets an Execution Lease (renewed by the SDK) and the handler.
 * - A handler's safe checkpoint is made durable in the projection first; if the Scheduler asked
 *   the run to yield, the checkpoint goes to the Authority too (`work.checkpoint` releases the
 *   lease and requeues the WorkItem, §11.3), the slot passes on, and the run resumes later from
 *   that checkpoint.
 * - A replaced Session (a cut connection, a restart) revokes the lease: the run stops at its next
 *   checkpoint and its WorkItem goes back to the ready queue, resumed from its last safe checkpoint.
 * - A fenced run (its lease expired, its WorkItem reassigned) is NOT stopped by this host: its
 *   late publication and submission go to the Authority, whose fencing must refuse them (§11.5).
 *
 * Everything the Scheduler decides is reported to the orchestrator, which checks it.
 */

import { createPrivateKey } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { MissionWeaveAgent } from '#src/client/agent.js';
import { MissionWeaveWorker, type OwnedWork } from '#src/client/worker.js';
import type { WorkExecution } from '#src/client/workExecution.js';
import { workItemOf, type WorkItemDocument } from '#src/client/workDocuments.js';
import { projectionPathIn } from '#src/client/runtime/projection.js';
import { openAgentRuntime, type AgentRuntime } from '#src/client/runtime/runtime.js';
import type { SchedulerEvent } from '#src/client/runtime/schedulerTypes.js';
import type { FromWorker, JobFacts, ToWorker, WorkerInit } from './pocMessages.js';
import { stageOfGoal } from './pocPlan.js';
import { GroupContexts, groupsIn, type Job } from './workerContexts.js';

type Handler = (job: Job) => Promise<void>;

const tell = (message: FromWorker): void => {
  process.send?.(message);
};
const log = (line: string): void => tell({ type: 'log', line });

let init: WorkerInit;
let runtime: AgentRuntime;
let contexts: GroupContexts;
let agent: MissionWeaveAgent;
let worker: MissionWeaveWorker;
let handler: Handler;
const credentials = new Map<string, string>();
/** WorkItems owned here: what `start` needs. */
const owned = new Map<string, OwnedWork>();
const accepting = new Set<string>();
/** WorkItems whose ownership lease the Authority closed under this Agent's epoch: fenced, never requeued here. */
const ownershipClosed = new Set<string>();
const LEASE_CLOSED = 'ext.missionweave.core.work_lease_closed';
/** Times one WorkItem is started again after an error before its run counts as failed. */
const MAX_RESTARTS = 5;
const retries = new Map<string, number>();

function held(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const w of Object.values(runtime.state.work)) counts[`${w.groupId}|${w.status}`] = (counts[`${w.groupId}|${w.status}`] ?? 0) + 1;
  return counts;
}

function report(events: readonly SchedulerEvent[]): void {
  for (const e of events) tell({ type: 'decision', decision: { ...e }, held: held() });
}

function pump(): void {
  const events = runtime.schedule();
  report(events);
  for (const e of events) if (e.type === 'run.started') void run(e.workItemId);
}

async function startLeased(work: OwnedWork): Promise<WorkExecution | string> {
  // Right after a restart or reconnection the Authority may still be closing the old Session's
  // lease (§11.3): the start is refused until it has, so retry a little.
  for (let attempt = 0; ; attempt++) {
    try {
      return await worker.start(work, { executionLeaseSeconds: init.executionLeaseSeconds });
    } catch (error) {
      const code = (error as { code?: string }).code ?? String(error);
      if (code === 'WORK_STALE_OWNERSHIP' || code === 'WORK_LEASE_EXPIRED' || code === 'WORK_NOT_OWNER' || attempt >= 20) return code;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function run(workItemId: string): Promise<void> {
  const work = owned.get(workItemId);
  const heldWork = runtime.state.work[workItemId];
  if (work === undefined || heldWork === undefined) return;
  const row = runtime.projection.work.get(work.groupId, workItemId);
  const resumeFrom = row?.checkpoint === undefined ? null : (JSON.parse(row.checkpoint.data.toString()) as unknown);
  const stage = stageOfGoal(work.workItem.contract.goal) ?? '?';
  const context = contexts.of(work.groupId);
  const facts: JobFacts = { groupId: work.groupId, workItemId, stage, contextGroups: groupsIn(context), credentialGroup: credentials.has(work.groupId) ? work.groupId : undefined, resumedFrom: resumeFrom === null ? null : Number((resumeFrom as { step?: number }).step ?? 0) };
  const execution = await startLeased(work);
  if (typeof execution === 'string') {
    // The Authority no longer lets this Agent run it (re-checked after a restart, §11.5).
    tell({ type: 'job', phase: 'refused', facts, detail: `start: ${execution}` });
    const withdrawn = runtime.withdraw(workItemId);
    if (withdrawn.ok) report(withdrawn.events);
    owned.delete(workItemId);
    return pump();
  }
  const leaseId = execution.leaseId;
  runtime.start(workItemId, leaseId);
  tell({ type: 'job', phase: 'started', facts });
  let ending: 'submitted' | 'failed' | 'yielded' | 'requeue' | undefined;
  // A lost lease whose ownership is intact (a replaced Session, an expired Execution Lease) is
  // this Agent's to start again; a closed ownership is fencing (§11.5).
  const replaced = (): boolean => execution.signal.aborted && !ownershipClosed.has(`${workItemId}|${work.ownershipEpoch}`);
  const job: Job = {
    groupId: work.groupId,
    workItemId,
    contract: execution.workItem.contract,
    context,
    credential: credentials.get(work.groupId),
    seed: init.seed,
    resumeFrom,
    signal: execution.signal,
    async checkpoint(data, options = {}) {
      const safe = options.safe ?? true;
      if (replaced()) {
        ending = 'requeue';
        return 'yield';
      }
      const decided = runtime.checkpoint(workItemId, leaseId, JSON.stringify(data), safe);
      if (!decided.ok) throw new Error(`checkpoint refused: ${decided.refusal.code}`);
      report(decided.events);
      tell({ type: 'job', phase: 'checkpoint', facts, detail: JSON.stringify(data) });
      if (!decided.events.some((e) => e.type === 'run.yielded')) return 'continue';
      ending = 'yielded';
      await execution.checkpoint({ phase: `step ${String((data as { step?: number }).step ?? 0)}`, nextStep: 'resume from the stored checkpoint' }).catch((error: unknown) => log(`checkpoint to the Authority refused: ${String((error as { code?: string }).code ?? error)}`));
      tell({ type: 'job', phase: 'yielded', facts });
      for (const e of decided.events) if (e.type === 'run.started') void run(e.workItemId);
      return 'yield';
    },
    async publishArtifact(content, options) {
      const published = await execution.publishArtifact({ bytes: Buffer.from(content) }, { mediaType: options.mediaType, schemaUri: 'urn:missionweave:schema:poc-stage' });
      return published.contentHash;
    },
    async submit(result) {
      const criterionIds = execution.workItem.contract.acceptanceCriteria.map((c) => c.criterionId);
      const evidence = await execution.evidence({ type: 'deterministic_test', criterionIds, method: result.summary, result: 'passed', artifactHashes: [...execution.publishedArtifactHashes] });
      await execution.submit({ evidence: [evidence] });
      ending = 'submitted';
    },
    async fail(reason) {
      await execution.fail(reason);
      ending = 'failed';
    },
  };
  try {
    await handler(job);
    if (ending === undefined && replaced()) ending = 'requeue';
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).message;
    tell({ type: 'job', phase: 'refused', facts, detail: code });
    // A lost connection or lease with the ownership intact: start again from the last safe
    // checkpoint (a bounded number of times); fenced, or refused for good: the run failed.
    const tries = (retries.get(workItemId) ?? 0) + 1;
    retries.set(workItemId, tries);
    ending = !ownershipClosed.has(`${workItemId}|${work.ownershipEpoch}`) && tries <= MAX_RESTARTS ? 'requeue' : 'failed';
  } finally {
    execution.stop();
  }
  if (ending === 'yielded') return;
  if (ending === 'requeue') {
    // The lease went (a replaced Session, a lost connection) but the WorkItem is still ours (§11.3).
    const blocked = runtime.end(workItemId, 'blocked', 'lease-lost');
    if (blocked.ok) report(blocked.events);
    const back = runtime.unblock(workItemId);
    if (back.ok) report(back.events);
    return pump();
  }
  tell({ type: 'job', phase: ending === 'submitted' ? 'submitted' : 'failed', facts });
  const ended = runtime.end(workItemId, ending === 'submitted' ? 'submitted' : 'failed');
  if (ended.ok) report(ended.events);
  owned.delete(workItemId);
  pump();
}

function observe(groupId: string, sequence: number, workItem: WorkItemDocument): void {
  const stage = stageOfGoal(workItem.contract.goal);
  if (stage === undefined) return;
  const doc = contexts.of(groupId);
  doc.workItems[workItem.workItemId] = { stage, state: workItem.state };
  const mine = owned.get(workItem.workItemId);
  if (mine !== undefined && workItem.owner?.agentId === agent.agentId && workItem.owner.ownershipEpoch === mine.ownershipEpoch) {
    owned.set(workItem.workItemId, { ...mine, workItem });
    doc.owned[workItem.workItemId] = workItem;
  }
  contexts.save(groupId, sequence);
}

async function join(groupId: string): Promise<void> {
  const policy = init.policies[groupId];
  if (policy !== undefined) report((() => {
    const set = runtime.setGroupPolicy(groupId, policy);
    return set.ok ? set.events : [];
  })());
  await agent.subscribe(groupId);
}

async function start(message: WorkerInit): Promise<void> {
  init = message;
  for (const [groupId, credential] of Object.entries(message.credentials)) credentials.set(groupId, credential);
  const scale = message.clockScale;
  const origin = Date.now();
  runtime = openAgentRuntime({ path: projectionPathIn(message.home), agentId: message.agent.id, slots: message.slots, clock: () => origin + (Date.now() - origin) * scale });
  contexts = new GroupContexts(runtime.projection);
  handler = ((await import(pathToFileURL(message.handler).href)) as { default: Handler }).default;
  agent = new MissionWeaveAgent({ url: message.url, ca: message.ca, agentId: message.agent.id, keyId: message.agent.keyId, privateKey: createPrivateKey(message.agent.privateKeyPem), cursorStore: runtime.cursorStore, reconnect: { initialDelayMs: 100, maxDelayMs: 1_000 } });
  worker = new MissionWeaveWorker(agent, { ownershipLeaseSeconds: message.ownershipLeaseSeconds, executionLeaseSeconds: message.executionLeaseSeconds });
  agent.onEvent((event) => {
    if (event.kind === LEASE_CLOSED) {
      const closed = event.payload as { workItemId?: string; ownershipEpoch?: number; closedLeases?: { leaseType?: string }[] };
      if (closed.closedLeases?.some((l) => l.leaseType === 'ownership') === true) ownershipClosed.add(`${String(closed.workItemId)}|${String(closed.ownershipEpoch)}`);
    }
    const workItem = workItemOf(event);
    if (workItem !== undefined) observe(event.groupId, event.sequence, workItem);
    const epoch = worker.epochs.facts(event.groupId)?.membershipEpoch;
    if (epoch !== undefined && epoch !== contexts.of(event.groupId).membershipEpoch) {
      contexts.of(event.groupId).membershipEpoch = epoch;
      contexts.save(event.groupId, event.sequence);
    }
  });
  agent.onError((error) => log(`agent error ${error.code}: ${error.message}`));
  // What the projection kept from before a restart: owned work comes back to its queues (§11.5).
  const recovery = runtime.recovery.work;
  for (const row of [...recovery.resumable, ...recovery.queued]) {
    const doc = contexts.of(row.groupId).owned[row.workItemId];
    if (doc !== undefined) owned.set(row.workItemId, { groupId: row.groupId, workItemId: row.workItemId, ownershipEpoch: row.ownershipEpoch, workItem: doc });
  }
  report(runtime.recovery.interrupted);
  // Work that ran without a safe durable checkpoint came back blocked (runtime-session-lost).
  // The PoC's handlers are idempotent (their result depends only on the seed, the stage and the
  // Group's context), so it is started again from its beginning — after the Authority confirms
  // the ownership, as any start here is.
  for (const row of recovery.lost) {
    log(`runtime-session-lost: ${row.workItemId} ran without a safe checkpoint; started again from the beginning`);
    const back = runtime.unblock(row.workItemId);
    if (back.ok) report(back.events);
    const doc = contexts.of(row.groupId).owned[row.workItemId];
    if (doc !== undefined) owned.set(row.workItemId, { groupId: row.groupId, workItemId: row.workItemId, ownershipEpoch: row.ownershipEpoch, workItem: doc });
  }
  worker.onOffer(async (offer) => {
    if (accepting.has(offer.workItemId) || runtime.state.work[offer.workItemId] !== undefined) return;
    accepting.add(offer.workItemId);
    try {
      const work = await worker.accept(offer, { ownershipLeaseSeconds: message.ownershipLeaseSeconds });
      owned.set(work.workItemId, work);
      remember(work);
      const contract = work.workItem.contract;
      const admitted = runtime.admit({ workItemId: work.workItemId, groupId: work.groupId, ownershipEpoch: work.ownershipEpoch, urgency: contract.requestedUrgency, deadlineMs: Date.parse(contract.deadline), effort: effortOf(contract), preemptible: true });
      if (admitted.ok) report(admitted.events);
      else log(`admission refused ${admitted.refusal.code}`);
      pump();
    } catch (error) {
      log(`accept ${offer.workItemId}: ${String((error as { code?: string }).code ?? error)}`);
    } finally {
      accepting.delete(offer.workItemId);
    }
  });
  for (const groupId of message.groups) {
    const epoch = contexts.of(groupId).membershipEpoch;
    if (epoch !== undefined) worker.epochs.set(groupId, { membershipEpoch: epoch });
  }
  await agent.connect();
  for (const groupId of message.groups) await join(groupId);
  tell({ type: 'ready', recovery: { resumable: recovery.resumable.length, queued: recovery.queued.length, lost: recovery.lost.length, held: held() } });
  pump();
}

/** The owned WorkItem's document, kept with its Group's context so that a restart can start it again. */
function remember(work: OwnedWork): void {
  contexts.of(work.groupId).owned[work.workItemId] = work.workItem;
  contexts.save(work.groupId, 0);
}

function effortOf(contract: WorkItemDocument['contract']): 'xs' | 's' | 'm' {
  const band = (contract.constraints as { effort?: string } | undefined)?.effort;
  return band === 'xs' || band === 's' || band === 'm' ? band : 'm';
}

process.on('message', (message: ToWorker) => {
  if (message.type === 'init') {
    start(message).catch((error: unknown) => {
      log(`start failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(3);
    });
  } else {
    credentials.set(message.groupId, message.credential);
    if (message.policy !== undefined) (init.policies as Record<string, unknown>)[message.groupId] = message.policy;
    join(message.groupId).catch((error: unknown) => log(`join failed: ${String(error)}`));
  }
});
process.on('disconnect', () => process.exit(0));
