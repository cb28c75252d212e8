/**
 * A run resumed after its WorkItem's result was already published (src/client/runtime/hostRun.ts,
 * hostArtifacts.ts). In the PoC the shared Worker was killed after publishing Mission A's
 * implementation-3 and before submitting it; each later run resumed from the last step, built the
 * same bytes, had `artifact.publish` refused (the content hash is published in the Group once)
 * and threw: blocked, unblocked by its Coordinator, started again — 2,289 times. Here the
 * Authority's refusal and its published Artifacts are stood in for; the runtime is the real one
 * on a SQLite projection. The same content published for THIS WorkItem by THIS Agent is adopted
 * and submitted; another WorkItem's or another Agent's is still refused.
 */

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MissionWeaveError } from '../../src/client/errors.js';
import type { PublishedOfGroup } from '../../src/client/runtime/hostArtifacts.js';
import { HostRun, type RunInit } from '../../src/client/runtime/hostRun.js';
import type { Job } from '../../src/client/runtime/job.js';
import { openAgentRuntime, type AgentRuntime } from '../../src/client/runtime/runtime.js';
import { EXAMPLE_WORK_CONTRACT } from '../support/payloadExamples.js';

const AGENT = 'urn:missionweave:agent:worker-1';
const GROUP = 'urn:missionweave:group:mission-a';
const dir = mkdtempSync(join(tmpdir(), 'mw-hostrun-unit-'));
let opened = 0;
const runtimes: AgentRuntime[] = [];

afterAll(() => {
  for (const runtime of runtimes) runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

const CONTENT = '{"stage":"implementation-3","digest":"abc"}';
const HASH = `sha256:${createHash('sha256').update(CONTENT).digest('hex')}`;

function alreadyPublished(): MissionWeaveError {
  return new MissionWeaveError({ code: 'INVALID_STATE_TRANSITION', message: 'this content hash is already published in the Group', retryable: false, occurredAt: new Date().toISOString(), details: { contentHash: HASH } });
}

interface Seen {
  submitted: { artifactHashes?: readonly string[] }[];
  commands: string[];
}

/** One run of `workItemId` (running in a real runtime) whose publications the Authority refuses as already published. */
function runOf(workItemId: string, published: PublishedOfGroup | undefined, seen: Seen): HostRun {
  const runtime = openAgentRuntime({ path: join(dir, `projection-${++opened}.sqlite`), agentId: AGENT, slots: 1 });
  runtimes.push(runtime);
  expect(runtime.admit({ workItemId, groupId: GROUP, urgency: 'normal', deadlineMs: null, effort: 'm', preemptible: true, ownershipEpoch: 1 }).ok).toBe(true);
  expect(runtime.schedule().map((e) => e.type)).toContain('run.started');
  runtime.start(workItemId, 'urn:uuid:lease-2');
  const execution = {
    groupId: GROUP,
    workItemId,
    ownershipEpoch: 1,
    leaseId: 'urn:uuid:lease-2',
    leaseStatus: 'held',
    signal: new AbortController().signal,
    workItem: { contract: EXAMPLE_WORK_CONTRACT },
    publishedArtifactHashes: [],
    publishArtifact: () => Promise.reject(alreadyPublished()),
    evidence: (draft: unknown) => Promise.resolve(draft),
    submit: (result: { artifactHashes?: readonly string[] }) => (seen.submitted.push(result), Promise.resolve({})),
    fail: () => Promise.resolve({}),
    stop: () => undefined,
  };
  const agent = { agentId: AGENT, command: (kind: string) => (seen.commands.push(kind), Promise.resolve({})) };
  const init = {
    agent,
    runtime,
    execution,
    packages: [],
    resumeText: '{"step":3}',
    timeoutMs: 10_000,
    options: { groupId: GROUP, workItemId },
    scheduled: () => undefined,
    log: () => undefined,
    lookupArtifact: (contentHash: string) => Promise.resolve(contentHash === HASH ? published : undefined),
    handler: async (job: Job) => {
      // The PoC's handler, resumed at its last step: nothing left but publishing and submitting.
      const { contentHash } = await job.publishArtifact(CONTENT, { mediaType: 'application/json' });
      expect(contentHash).toBe(HASH);
      await job.submit({ summary: 'done' });
    },
  } as unknown as RunInit;
  return new HostRun(init);
}

describe('a run resumed after its result was published', () => {
  it('adopts the content this WorkItem already published and submits it, instead of failing on every restart', async () => {
    const seen: Seen = { submitted: [], commands: [] };
    const run = runOf('urn:missionweave:work-item:impl-3', { workItemId: 'urn:missionweave:work-item:impl-3', producerAgentId: AGENT }, seen);
    expect(await run.run()).toBe('submitted');
    expect(seen.submitted.map((s) => s.artifactHashes)).toEqual([[HASH]]);
    expect(seen.commands).toEqual([]);
    expect(run.madeProgress).toBe(true);
  });

  it("does not adopt another WorkItem's Artifact: the handler's failure blocks the run, without progress", async () => {
    const seen: Seen = { submitted: [], commands: [] };
    const run = runOf('urn:missionweave:work-item:impl-3', { workItemId: 'urn:missionweave:work-item:impl-4', producerAgentId: AGENT }, seen);
    expect(await run.run()).toBe('blocked');
    expect(seen.submitted).toEqual([]);
    expect(seen.commands).toEqual(['work.block']);
    expect(run.madeProgress).toBe(false);
  });

  it("does not adopt another Agent's Artifact, nor one the Authority does not list", async () => {
    for (const published of [{ workItemId: 'urn:missionweave:work-item:impl-3', producerAgentId: 'urn:missionweave:agent:other' }, undefined]) {
      const seen: Seen = { submitted: [], commands: [] };
      const run = runOf('urn:missionweave:work-item:impl-3', published, seen);
      expect(await run.run()).toBe('blocked');
      expect(seen.submitted).toEqual([]);
    }
  });
});
