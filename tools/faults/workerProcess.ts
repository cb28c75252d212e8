/**
 * One Worker Agent as a process of its own, forked by the fault suite (workerPool.ts), so that it
 * can be paused for real — SIGSTOP freezes its timers, its lease renewals and its socket at once,
 * and SIGCONT resumes it with the stale lease still in memory, as a long GC pause or a frozen VM
 * would — and killed for real, SIGKILL in the middle of its execution.
 *
 * It is a deliberately naive Worker: it does not stop when a renewal is refused, and publishes
 * and submits its result when its work is done whatever happened meanwhile — the content
 * uploaded to the Artifact store, its signed manifest published with `artifact.publish`, then
 * `work.submit` of that hash (only published Artifacts may be submitted, §13.1). What keeps a
 * fenced Worker from publishing or completing must be the Group Authority's fencing (§11.3,
 * §11.5), not the Worker's good manners (the SDK's Worker stops on a lost lease; this one is the
 * pg-boss #436 worker).
 *
 * Every Command is reported to the suite before it is sent and every answer after, so that the
 * suite's history holds this process's Operations too (and can settle them if it is killed).
 */

import { createPrivateKey, type KeyObject } from 'node:crypto';
import { signCommand, timestampOf } from '#src/app/issueDocuments.js';
import type { BenchAgent } from '../bench/benchWorld.js';
import { artifactUri, uploadArtifact } from '#src/client/artifacts.js';
import type { JsonObject } from '#src/protocol/strictJson.js';
import { pause, pick, settled } from './actors.js';
import { AgentLink, type Answer } from './agentLink.js';
import { resultHash, signedEvidence, signedManifest, type FromWorker, type ToWorker, type WorkerTask } from './workDocuments.js';

/** How long one Command is retried (reconnecting as needed) before the Worker gives up on it. */
const COMMAND_DEADLINE_MS = 30_000;

let agent: BenchAgent | undefined;
let key: KeyObject | undefined;
let ca = '';
let link: AgentLink | undefined;
let opening: Promise<AgentLink> | undefined;
let urlWaiters: ((urls: readonly string[]) => void)[] = [];
let nextKey = 0;

const tell = (message: FromWorker): void => {
  process.send?.(message);
};

function liveUrls(): Promise<readonly string[]> {
  return new Promise((resolve) => {
    urlWaiters.push(resolve);
    tell({ type: 'urls' });
  });
}

async function connected(): Promise<AgentLink> {
  if (link?.isOpen === true) return link;
  opening ??= (async () => {
    for (;;) {
      const url = pick(await liveUrls());
      if (url !== undefined && agent !== undefined) {
        try {
          link = await AgentLink.open(url, ca, agent, key);
          return link;
        } catch {
          // the node went away or the database is down: try another
        }
      }
      await pause(200);
    }
  })().finally(() => (opening = undefined));
  return opening;
}

function sign(task: WorkerTask, kind: string, payload: Record<string, unknown>, sessionEpoch: number): Record<string, unknown> {
  if (agent === undefined || key === undefined) throw new Error('not initialised');
  return signCommand(
    { actor: { type: 'agent', id: agent.id }, kind, payload: payload as JsonObject, groupId: task.group.groupId, membershipEpoch: task.membershipEpoch, sessionEpoch, issuedAt: timestampOf(Date.now()) },
    { keyId: agent.keyId, privateKey: key },
  );
}

/** Sends until answered for good, the same bytes on every copy (reconnecting after a loss). */
async function settle(workItemId: string, command: Record<string, unknown>): Promise<Answer> {
  const k = nextKey++;
  tell({ type: 'invoke', key: k, workItemId, command });
  const deadline = Date.now() + COMMAND_DEADLINE_MS;
  for (;;) {
    const answer = await (await connected()).command(command);
    tell({ type: 'complete', key: k, answer });
    if (settled(answer) || Date.now() > deadline) return answer;
    if (answer.type !== 'lost') await pause(100 + Math.random() * 200);
  }
}

/** A fresh Command signed in the current Session, settled. */
async function act(task: WorkerTask, kind: string, payload: Record<string, unknown>): Promise<Answer> {
  const { sessionEpoch } = await connected();
  return settle(task.workItemId, sign(task, kind, payload, sessionEpoch));
}

/**
 * Uploads `text` to the Artifact store through a live node (every node serves the one store in
 * PostgreSQL), retried like a Command until the deadline: content is named by its hash, so a
 * repeat stores nothing new. Its retrieval URI; a Worker that never got it stored publishes all
 * the same, and the Authority refuses a manifest of content it does not hold.
 */
async function stored(text: string): Promise<string> {
  const deadline = Date.now() + COMMAND_DEADLINE_MS;
  for (;;) {
    const live = await connected();
    const origin = `https://${new URL(live.url).host}`;
    try {
      await uploadArtifact({ origin, ca, sessionToken: live.sessionToken }, { bytes: Buffer.from(text) });
      return artifactUri(origin, resultHash(text));
    } catch {
      // the node went away, or the Session with it: try again through a live one
      if (Date.now() > deadline) return artifactUri(origin, resultHash(text));
      await pause(100 + Math.random() * 200);
    }
  }
}

function codeOf(answer: Answer): string {
  return answer.type === 'error' ? answer.code : answer.type === 'lost' ? 'LOST' : 'APPLIED';
}

function payloadOf(answer: Answer, kind: string): Record<string, unknown> | undefined {
  const events = answer.type === 'event' ? answer.events.map((e) => JSON.parse(e.text) as { kind: string; payload: Record<string, unknown> }) : [];
  return events.find((e) => e.kind === kind)?.payload;
}

async function accept(task: Extract<WorkerTask, { type: 'accept' }>): Promise<void> {
  await connected(); // connect first, so that both racers send at the same moment
  await pause(Math.max(0, task.at - Date.now()));
  const answer = await act(task, 'work.accept_offer', { workItemId: task.workItemId, ownershipLeaseSeconds: task.ownershipLeaseSeconds });
  const accepted = payloadOf(answer, 'work.offer.accepted');
  tell({ type: 'accepted', taskId: task.taskId, outcome: accepted === undefined ? { won: false, code: codeOf(answer) } : { won: true, ownershipEpoch: Number(accepted['ownershipEpoch']) } });
}

async function execute(task: Extract<WorkerTask, { type: 'execute' }>): Promise<void> {
  const { workItemId, ownershipEpoch } = task;
  const done = (outcome: string, renewals = 0, renewalsRefused = 0): void => tell({ type: 'executed', taskId: task.taskId, outcome: { outcome, renewals, renewalsRefused } });
  const start = await act(task, 'work.start', { workItemId, ownershipEpoch, executionLeaseSeconds: task.executionLeaseSeconds });
  const leaseId = (payloadOf(start, 'work.started')?.['executionLease'] as { leaseId?: string } | undefined)?.leaseId;
  if (leaseId === undefined) return done(`start:${codeOf(start)}`);
  tell({ type: 'started', taskId: task.taskId, leaseId });
  const began = Date.now();
  let renewals = 0;
  let renewalsRefused = 0;
  // Renew, then look at the clock: a Worker resumed from a pause sends one late renewal first.
  do {
    await pause(task.renewEveryMs);
    const renewed = await act(task, 'ext.missionweaveprotocol.core.work_execution_lease_renew', { workItemId, ownershipEpoch, executionLeaseId: leaseId, leaseSeconds: task.executionLeaseSeconds });
    renewals++;
    if (renewed.type !== 'event') renewalsRefused++;
  } while (Date.now() - began < task.workMs);
  if (agent === undefined || key === undefined) return;
  const text = `${workItemId} ${agent.id} ${ownershipEpoch}`;
  const hash = resultHash(text);
  const uri = await stored(text);
  await act(task, 'artifact.publish', { artifact: signedManifest(agent, key, task.group, workItemId, text, uri), ownershipEpoch, executionLeaseId: leaseId });
  const evidence = signedEvidence(agent, key, task.group, workItemId, 'deterministic_test', [hash]);
  const submitted = await act(task, 'work.submit', { workItemId, ownershipEpoch, executionLeaseId: leaseId, artifactHashes: [hash], evidence: [evidence] });
  done(submitted.type === 'event' ? 'submitted' : `submit:${codeOf(submitted)}`, renewals, renewalsRefused);
}

process.on('message', (message: ToWorker) => {
  if (message.type === 'init') {
    agent = message.agent;
    ca = message.ca;
    key = createPrivateKey(message.agent.privateKeyPem);
  } else if (message.type === 'urls') {
    const waiters = urlWaiters;
    urlWaiters = [];
    for (const resolve of waiters) resolve(message.urls);
  } else {
    const { task } = message;
    void (task.type === 'accept' ? accept(task) : execute(task));
  }
});
// The suite went away: nothing left to do.
process.on('disconnect', () => process.exit(0));
