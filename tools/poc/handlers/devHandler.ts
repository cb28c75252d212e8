/**
 * The PoC's deterministic software-development handler (the job contract of workerHost.ts and
 * `missionweave worker`): a stage of `steps` steps (Work Contract `constraints.steps`), each
 * `constraints.stepMs` long and ending in a safe checkpoint, then one Artifact whose content
 * depends only on the seed, the stage and the Group's own context, and the submission.
 * Resumed from a checkpoint, it goes on after the step it recorded; asked to yield, it stops.
 */

import { createHash } from 'node:crypto';
import type { Job } from '../workerContexts.js';
import { stageOfGoal } from '../pocPlan.js';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export default async function devHandler(job: Job): Promise<void> {
  const stage = stageOfGoal(job.contract.goal) ?? 'unknown';
  const constraints = (job.contract.constraints ?? {}) as { steps?: number; stepMs?: number };
  const steps = constraints.steps ?? 2;
  const stepMs = constraints.stepMs ?? 300;
  const resumed = job.resumeFrom as { step: number; digest: string } | null;
  let digest = resumed?.digest ?? createHash('sha256').update(`${job.seed}|${stage}`).digest('hex');
  for (let step = (resumed?.step ?? 0) + 1; step <= steps; step++) {
    await pause(stepMs);
    digest = createHash('sha256').update(`${digest}|${step}`).digest('hex');
    if ((await job.checkpoint({ step, digest }, { safe: true })) === 'yield') return;
  }
  // Only this Group's stages are in the job's context: the result names what it built on.
  const siblings = Object.values(job.context.workItems).map((w) => w.stage).sort();
  const content = JSON.stringify({ stage, digest, builtOn: siblings, credential: job.credential === undefined ? null : createHash('sha256').update(job.credential).digest('hex').slice(0, 16) });
  await job.publishArtifact(content, { mediaType: 'application/json' });
  await job.submit({ summary: `${stage}: ${steps} steps, digest ${digest.slice(0, 12)}` });
}
