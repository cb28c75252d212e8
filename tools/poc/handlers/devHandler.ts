/**
 * The PoC's deterministic software-development handler: a job handler module of the runtime host
 * (src/client/runtime/job.ts, as `missionweave worker --handler` takes). A stage of `steps` steps
 * (Work Contract `constraints.steps`), each `constraints.stepMs` long and ending in a safe
 * checkpoint, then one Artifact whose content depends only on the seed (MW_POC_SEED), the stage
 * and its contract, and the submission. Resumed from a checkpoint, it goes on after the step it
 * recorded; asked to yield, it returns; when its signal aborts (the lease lost), it stops.
 */

import { createHash } from 'node:crypto';
import type { Job } from '#src/client/runtime/job.js';
import { stageOfGoal } from '../pocPlan.js';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export default async function devHandler(job: Job): Promise<void> {
  const stage = stageOfGoal(job.contract.goal) ?? 'unknown';
  const constraints = (job.contract.constraints ?? {}) as { steps?: number; stepMs?: number };
  const steps = constraints.steps ?? 2;
  const stepMs = constraints.stepMs ?? 300;
  const resumed = (job.resumeFrom ?? null) as { step: number; digest: string } | null;
  let digest = resumed?.digest ?? createHash('sha256').update(`${process.env['MW_POC_SEED'] ?? '0'}|${stage}`).digest('hex');
  for (let step = (resumed?.step ?? 0) + 1; step <= steps; step++) {
    await pause(stepMs);
    if (job.signal.aborted) throw new Error(`stopped: ${String(job.signal.reason)}`);
    digest = createHash('sha256').update(`${digest}|${step}`).digest('hex');
    if ((await job.checkpoint({ step, digest }, { safe: true })) === 'yield') return;
  }
  // The result names what it built on: its own contract's dependencies (IDs derived from the seed).
  const content = JSON.stringify({ stage, digest, builtOn: [...job.contract.dependencyWorkItemIds].sort() });
  await job.publishArtifact(content, { mediaType: 'application/json', schemaUri: 'urn:missionweave:schema:poc-stage' });
  await job.submit({ summary: `${stage}: ${steps} steps, digest ${digest.slice(0, 12)}` });
}
