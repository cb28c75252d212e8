/**
 * One PoC Worker as an OS process of its own (forked by poc.ts): the SDK's connected runtime host
 * (src/client/runtime/hostRuntime.ts, what `missionweave worker` runs) over wss, with its SQLite
 * projection in the Worker's own home and the PoC's handler module (handlers/devHandler.ts) as its
 * job handler. Everything a Worker does — accepting offers the runtime would admit, per-Group
 * queues, the weighted-fair Scheduler, execution slots, leases renewed while a job runs,
 * preemption at a safe checkpoint, the restart's re-check with the Authority and the
 * `runtime-session-lost` report to the Coordinator — is the runtime host's. This file only:
 *
 * - opens the runtime with the Scheduler's clock sped up (`clockScale`) and reporting its
 *   decisions (reportingRuntime.ts), and sets the Groups' weights;
 * - wraps the handler to tell the orchestrator what each job was handed (its context's Groups,
 *   the capability token it obtained and whether another Group's was refused) and how it went;
 * - joins a Group it is admitted to later (the child Mission's), once started;
 * - holds the running jobs of a Group at their next step when told to (`hold` … `release`): the
 *   critical arrival's injection keeps a routine feature busy until its preemption is asked for.
 */

import { createPrivateKey } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { MissionWeaveAgent } from '#src/client/agent.js';
import { RuntimeHost } from '#src/client/runtime/hostRuntime.js';
import type { Job, JobHandler } from '#src/client/runtime/job.js';
import { projectionPathIn } from '#src/client/runtime/projection.js';
import type { FromWorker, JobFacts, ToWorker, WorkerInit } from './pocMessages.js';
import { stageOfGoal } from './pocPlan.js';
import { ReportingRuntime } from './reportingRuntime.js';

const tell = (message: FromWorker): void => {
  process.send?.(message);
};
const log = (line: string): void => tell({ type: 'log', line });
/** The runtime host's lines worth the orchestrator's log; the rest only with MW_POC_VERBOSE=1. */
const NOTABLE = /withdrawn|blocked|reported|lost|refused|not accepted|failed|declined|released|outbox|adopted|backing off/;

/**
 * A token request that failed on the link (the disconnection injection cuts it for 1.5 s) is
 * asked again, every 250 ms, up to TOKEN_ATTEMPTS times, as a handler would: then the job has its
 * token, or the check names the failure.
 */
const LINK_DOWN = /ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|socket hang up|CONNECTION_FAILED|no live Session/;
const TOKEN_ATTEMPTS = 40;
/** The longest a `hold` lasts without its `release`. */
const HOLD_BOUND_MS = 120_000;

let init: WorkerInit;
/** Jobs in progress (WorkItem → Group), and those held at their next step until `release`. */
const active = new Map<string, string>();
const held = new Map<string, number>();
let runtime: ReportingRuntime;
let agent: MissionWeaveAgent;
let started: Promise<void> | undefined;
const joined = new Set<string>();

function codeOf(error: unknown): string {
  return String((error as { code?: string }).code ?? (error instanceof Error ? error.message : error));
}

/** The Group IDs anywhere in `value`. */
export function groupsIn(value: unknown): string[] {
  return [...new Set(JSON.stringify(value).match(/urn:missionweave:group:[0-9a-f-]+/g) ?? [])];
}

/** What the job was handed, found out as a handler would: its context, its own token, another Group's token asked for. */
async function factsOf(job: Job): Promise<JobFacts> {
  const stage = stageOfGoal(job.contract.goal) ?? '?';
  const step = (job.resumeFrom as { step?: number } | undefined)?.step;
  let token: { groupId: string; workItemId: string } | undefined;
  let tokenError: string | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      const { claims } = await job.token();
      token = { groupId: claims.groupId, workItemId: claims.workItemId };
      break;
    } catch (error) {
      if (job.signal.aborted) tokenError = 'lease-lost';
      else if (attempt < TOKEN_ATTEMPTS && LINK_DOWN.test(codeOf(error))) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        continue;
      } else tokenError = codeOf(error);
      break;
    }
  }
  const foreign = init.pocGroups.find((g) => g !== job.groupId);
  const foreignTokenRefused = foreign === undefined ? null : await job.token({ groupId: foreign }).then(() => false, () => true);
  return {
    groupId: job.groupId, workItemId: job.workItemId, stage, contextGroups: groupsIn(job.context), contextPackages: job.context.packages.length,
    tokenGroup: token?.groupId, tokenWorkItem: token?.workItemId, ...(tokenError === undefined ? {} : { tokenError }), foreignTokenRefused, resumedFrom: step ?? null,
  };
}

/** The handler, with each job's facts and phases told to the orchestrator; the job itself is the host's. */
function observed(handler: JobHandler): JobHandler {
  return async (job) => {
    const facts = await factsOf(job);
    tell({ type: 'job', phase: 'started', facts });
    active.set(job.workItemId, job.groupId);
    const watched: Job = Object.freeze({
      ...job,
      async checkpoint(data: unknown, options?: { readonly safe?: boolean }) {
        // A held step lasts until the release (or its bound), as a slow step would.
        while ((held.get(job.workItemId) ?? 0) > Date.now() && !job.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 50));
        const answer = await job.checkpoint(data, options);
        tell({ type: 'job', phase: answer === 'yield' ? 'yielded' : 'checkpoint', facts, detail: JSON.stringify(data) });
        return answer;
      },
      async submit(result?: Parameters<Job['submit']>[0]) {
        await job.submit(result);
        tell({ type: 'job', phase: 'submitted', facts });
      },
    });
    try {
      return await handler(watched);
    } catch (error) {
      tell({ type: 'job', phase: 'refused', facts, detail: codeOf(error) });
      throw error;
    } finally {
      active.delete(job.workItemId);
      held.delete(job.workItemId);
    }
  };
}

async function join(groupId: string): Promise<void> {
  if (joined.has(groupId)) return;
  joined.add(groupId);
  const policy = init.policies[groupId];
  if (policy !== undefined) runtime.setGroupPolicy(groupId, policy);
  await agent.subscribe(groupId);
}

async function start(message: WorkerInit): Promise<void> {
  init = message;
  process.env['MW_POC_SEED'] = String(message.seed);
  const origin = Date.now();
  const clock = (): number => origin + (Date.now() - origin) * message.clockScale;
  runtime = ReportingRuntime.open({ path: projectionPathIn(message.home), agentId: message.agent.id, slots: message.slots, clock }, (events, held) => {
    for (const e of events) tell({ type: 'decision', decision: { ...e }, held });
  });
  runtime.reportRecovery();
  for (const [groupId, policy] of Object.entries(message.policies)) runtime.setGroupPolicy(groupId, policy);
  const handler = ((await import(pathToFileURL(message.handler).href)) as { default: JobHandler }).default;
  agent = new MissionWeaveAgent({ url: message.url, ca: message.ca, agentId: message.agent.id, keyId: message.agent.keyId, privateKey: createPrivateKey(message.agent.privateKeyPem), cursorStore: runtime.cursorStore, reconnect: { initialDelayMs: 100, maxDelayMs: 1_000 } });
  agent.onError((error) => log(`agent error ${error.code}: ${error.message}`));
  const verbose = process.env['MW_POC_VERBOSE'] === '1';
  const host = new RuntimeHost({
    agent, runtime, handler: observed(handler), groups: message.groups, executionLeaseSeconds: message.executionLeaseSeconds, ownershipLeaseSeconds: message.ownershipLeaseSeconds,
    log: (line) => (verbose || NOTABLE.test(line) ? log(line) : undefined),
  });
  for (const groupId of message.groups) joined.add(groupId);
  await host.start();
  const { work } = runtime.recovery;
  tell({ type: 'ready', recovery: { resumable: work.resumable.length, queued: work.queued.length, lost: work.lost.length, held: runtime.held(), resumableIds: work.resumable.map((w) => w.workItemId) } });
}

process.on('message', (message: ToWorker) => {
  if (message.type === 'init') {
    started = start(message);
    started.catch((error: unknown) => {
      log(`start failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(3);
    });
  } else if (message.type === 'hold') {
    for (const [workItemId, groupId] of active) if (groupId === message.groupId) held.set(workItemId, Date.now() + HOLD_BOUND_MS);
    log(`holding ${held.size} job(s) of ${message.groupId} at their next step`);
  } else if (message.type === 'release') {
    held.clear();
  } else {
    // A join can arrive while start() still awaits (a restarted process is told of the child
    // Group before it connected): it is taken once the host has started, never before.
    const { groupId } = message;
    void (started ?? Promise.reject(new Error('not started')))
      .then(() => join(groupId))
      .catch((error: unknown) => log(`join failed: ${String(error)}`));
  }
});
process.on('disconnect', () => process.exit(0));
