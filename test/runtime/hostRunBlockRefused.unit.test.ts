/**
 * A run whose handler fails and whose `work.block` the Authority refuses (src/client/runtime/
 * hostRun.ts): the Authority already took the lease back, so the run must not end `blocked` (nobody
 * would unblock it); it ends `lease-lost`, which makes the host re-check the WorkItem. The e2e file
 * test/hostRunBlockRefused.e2e.test.ts shows the same across real processes, where the refusal and
 * the lease's loss race; here the order is pinned: the lease is still held when the block is sent.
 * The Authority is stood in for; the runtime is the real one on a SQLite projection.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { MissionWeaveError } from '../../src/client/errors.js';
import { HostRun, type RunInit } from '../../src/client/runtime/hostRun.js';
import { openAgentRuntime, type AgentRuntime } from '../../src/client/runtime/runtime.js';
import { EXAMPLE_WORK_CONTRACT } from '../support/payloadExamples.js';

const AGENT = 'urn:missionweave:agent:worker-1';
const GROUP = 'urn:missionweave:group:mission-a';
const dir = mkdtempSync(join(tmpdir(), 'mw-hostrun-block-unit-'));
const runtimes: AgentRuntime[] = [];

afterAll(() => {
  for (const runtime of runtimes) runtime.close();
  rmSync(dir, { recursive: true, force: true });
});

function runOf(workItemId: string, blockAnswer: () => Promise<unknown>, commands: string[], lines: string[]): { run: HostRun; runtime: AgentRuntime } {
  const runtime = openAgentRuntime({ path: join(dir, `projection-${runtimes.length + 1}.sqlite`), agentId: AGENT, slots: 1 });
  runtimes.push(runtime);
  expect(runtime.admit({ workItemId, groupId: GROUP, urgency: 'normal', deadlineMs: null, effort: 'm', preemptible: true, ownershipEpoch: 1 }).ok).toBe(true);
  expect(runtime.schedule().map((e) => e.type)).toContain('run.started');
  runtime.start(workItemId, 'urn:uuid:lease-1');
  const execution = {
    groupId: GROUP, workItemId, ownershipEpoch: 1, leaseId: 'urn:uuid:lease-1', leaseStatus: 'keeping',
    signal: new AbortController().signal, workItem: { contract: EXAMPLE_WORK_CONTRACT }, publishedArtifactHashes: [],
    stop: () => undefined,
  };
  const agent = { agentId: AGENT, command: (kind: string) => (commands.push(kind), blockAnswer()) };
  const init = {
    agent, runtime, execution, packages: [], resumeText: undefined, timeoutMs: 10_000,
    options: { groupId: GROUP, workItemId }, scheduled: () => undefined, log: (line: string) => void lines.push(line),
    handler: () => Promise.reject(new Error('the tool lost its connection')),
  } as unknown as RunInit;
  return { run: new HostRun(init), runtime };
}

it('a refused work.block ends the run lease-lost (re-checked by the host), not blocked', async () => {
  const commands: string[] = [];
  const lines: string[] = [];
  const refused = new MissionWeaveError({ code: 'WORK_LEASE_EXPIRED', message: 'the Execution Lease is not held', retryable: false, occurredAt: new Date().toISOString() });
  const { run, runtime } = runOf('urn:missionweave:work-item:w-1', () => Promise.reject(refused), commands, lines);
  expect(await run.run()).toBe('lease-lost');
  expect(commands).toEqual(['work.block']);
  expect(lines.at(-1)).toMatch(/^lease-lost urn:missionweave:work-item:w-1: the job handler threw: the tool lost its connection; work\.block was not accepted: /);
  expect(run.madeProgress).toBe(false);
  expect(runtime.state.work['urn:missionweave:work-item:w-1']?.status).toBe('blocked');
});

it('an accepted work.block ends the run blocked', async () => {
  const commands: string[] = [];
  const lines: string[] = [];
  const { run } = runOf('urn:missionweave:work-item:w-2', () => Promise.resolve({}), commands, lines);
  expect(await run.run()).toBe('blocked');
  expect(commands).toEqual(['work.block']);
  expect(lines.at(-1)).toBe('blocked urn:missionweave:work-item:w-2: the job handler threw: the tool lost its connection');
});
