#!/usr/bin/env node
/**
 * A Worker written with `missionweave/client` (run by examples/work-handover.mjs, or alone): it
 * joins its Mission's Group with an attention filter that lets through only what is addressed to
 * it — offers naming it, its own WorkItems, its own leases (§8) — takes the first offer, starts
 * it under a short Execution Lease that the SDK renews while the work runs, publishes its result
 * as an Artifact (uploaded to the Group Authority's store, its signed manifest published under
 * the lease: only published Artifacts may be submitted, §13.1) and submits it with signed
 * Evidence. If the lease is lost meanwhile (renewal refused, expiry passed, another owner), the
 * SDK aborts `execution.signal`; this Worker then stops without submitting, unless MW_LATE_SUBMIT
 * asks it to play a Worker whose result was already on its way, to show that the Group
 * Authority refuses both its publication and its submission (WORK_LEASE_EXPIRED /
 * WORK_STALE_OWNERSHIP) and never completes the work.
 *
 * Inputs (environment): MW_URL, MW_CA_FILE, MW_AGENT_ID, MW_KEY_ID, MW_PRIVATE_KEY_FILE,
 * MW_GROUP_ID; MW_LEASE_SECONDS (Execution and ownership lease, default 2), MW_WORK_MS (how long
 * the work takes, default 500), MW_LATE_SUBMIT=1 (submit even after the lease is known lost).
 *
 * Output: JSON lines — {"ready"}, {"offer"}, {"accepted"}, {"started"}, {"leaseLost"},
 * {"published"} or {"publishRefused"}, {"submitted"} or {"submitRefused"}, then {"done"}. Exit code 0 unless something unexpected failed.
 */

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { MissionWeaveAgent, MissionWeaveWorker } from 'missionweave/client';

const input = (name, fallback) => {
  const value = process.env[name] ?? fallback;
  if (value === undefined || value === '') throw new Error(`missing ${name}`);
  return value;
};
const print = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

const groupId = input('MW_GROUP_ID');
const leaseSeconds = Number(input('MW_LEASE_SECONDS', '2'));
const workMs = Number(input('MW_WORK_MS', '500'));
const lateSubmit = process.env.MW_LATE_SUBMIT === '1';

const agent = new MissionWeaveAgent({
  url: input('MW_URL'),
  ca: readFileSync(input('MW_CA_FILE'), 'utf8'),
  agentId: input('MW_AGENT_ID'),
  keyId: input('MW_KEY_ID'),
  privateKey: readFileSync(input('MW_PRIVATE_KEY_FILE'), 'utf8'),
});
const worker = new MissionWeaveWorker(agent, { ownershipLeaseSeconds: leaseSeconds, executionLeaseSeconds: leaseSeconds });
agent.onError((error) => process.stderr.write(`${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`));

/** The work itself: takes `workMs`, produces a result document. */
async function doTheWork(contract) {
  await new Promise((resolve) => setTimeout(resolve, workMs));
  return Buffer.from(JSON.stringify({ goal: contract.goal, answer: 42, by: agent.agentId }));
}

/**
 * Publishes the result as the contract's first deliverable; its hashes to submit. A late Worker
 * whose publication is refused (its lease is gone) goes on, naive as it is, with the hash it
 * computed itself: the submission is refused just the same.
 */
async function publish(execution, result) {
  const deliverable = execution.workItem.contract.requiredDeliverables[0];
  try {
    const published = await execution.publishArtifact({ bytes: result }, { mediaType: deliverable.mediaType, schemaUri: deliverable.schema });
    print({ published: { contentHash: published.contentHash, sequence: published.event.sequence } });
    return execution.publishedArtifactHashes;
  } catch (error) {
    if (!lateSubmit) throw error;
    print({ publishRefused: { code: error.code, message: error.message } });
    return [`sha256:${createHash('sha256').update(result).digest('hex')}`];
  }
}

const finished = new Promise((resolve, reject) => {
  worker.onOffer(async (offer) => {
    print({ offer: { workItemId: offer.workItemId, sequence: offer.event.sequence, offerExpiresAt: offer.offerExpiresAt } });
    const owned = await worker.accept(offer);
    print({ accepted: { workItemId: owned.workItemId, ownershipEpoch: owned.ownershipEpoch } });
    await worker.run(owned, async (execution) => {
      print({ started: { workItemId: execution.workItemId, ownershipEpoch: execution.ownershipEpoch, executionLeaseId: execution.leaseId, pid: process.pid } });
      execution.signal.addEventListener('abort', () => {
        const reason = execution.signal.reason;
        print({ leaseLost: { reason: reason.reason, code: reason.cause?.code, message: reason.message, renewals: execution.renewals } });
      });
      const result = await doTheWork(execution.workItem.contract);
      if (execution.signal.aborted && !lateSubmit) return;
      const artifactHashes = await publish(execution, result);
      const criterionIds = execution.workItem.contract.acceptanceCriteria.map((c) => c.criterionId);
      const evidence = await execution.evidence({ type: 'deterministic_test', criterionIds, method: 'Recomputed the answer twice.', result: 'passed', artifactHashes: [...artifactHashes] });
      try {
        const submitted = await execution.submit({ artifactHashes, evidence: [evidence] });
        print({ submitted: { sequence: submitted.sequence, ownershipEpoch: execution.ownershipEpoch, renewals: execution.renewals } });
      } catch (error) {
        print({ submitRefused: { code: error.code, message: error.message, ownershipEpoch: execution.ownershipEpoch, executionLeaseId: execution.leaseId } });
      }
    });
    resolve();
  });
  worker.onError((error) => reject(error));
});

await agent.connect();
await agent.subscribe(groupId, { attention: { mentionsOnly: true } });
print({ ready: { agentId: agent.agentId, sessionEpoch: agent.sessionEpoch } });
try {
  await finished;
  print({ done: { agentId: agent.agentId } });
} catch (error) {
  process.stderr.write(`${JSON.stringify({ failed: { code: error.code, message: error.message } })}\n`);
  process.exitCode = 1;
} finally {
  worker.close();
  await agent.close();
}
