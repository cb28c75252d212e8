/**
 * The Agent runtime survives its process being killed (§11.5): a child process opens the runtime
 * on a real projection file, admits and starts work, checkpoints one run safely, and is killed
 * with SIGKILL (no close, no WAL checkpoint). The next open, in this process, takes the lock the
 * dead process held and rebuilds the same held work: the checkpointed run resumable, the other
 * blocked with `runtime-session-lost`, the waiting one still queued.
 */

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RUNTIME_SESSION_LOST } from '../src/client/runtime/projectionWork.js';
import { openAgentRuntime } from '../src/client/runtime/runtime.js';

const AGENT = 'urn:missionweave:agent:worker-7';
const GA = 'urn:missionweave:group:mission-a';
const GB = 'urn:missionweave:group:mission-b';
const T0 = Date.UTC(2026, 11, 4, 12, 0, 0);
const RUNTIME_JS = resolve('dist/client/runtime/runtime.js');

let folder = '';

beforeAll(() => {
  // The child runs the emitted JavaScript: build just the runtime and what it imports.
  // Type errors are tsc --noEmit's business; here only the emitted JavaScript matters.
  const build = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '--outDir', 'dist', '--rootDir', 'src', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2023', '--lib', 'es2023,es2024.string', '--types', 'node', '--strict', '--skipLibCheck', 'src/client/runtime/runtime.ts'], { encoding: 'utf8' });
  expect(existsSync(RUNTIME_JS), build.stdout).toBe(true);
  folder = mkdtempSync(join(tmpdir(), 'mw-runtime-crash-'));
}, 120_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

const CHILD = `
const { openAgentRuntime } = await import(process.env.RUNTIME_JS);
const work = (id, groupId) => ({ workItemId: 'urn:missionweave:work-item:' + id, groupId, urgency: 'normal', deadlineMs: null, effort: 'm', preemptible: true, ownershipEpoch: 3 });
const runtime = openAgentRuntime({ path: process.env.PROJECTION, agentId: '${AGENT}', slots: 2, clock: () => ${T0} });
for (const [id, g] of [['a1', '${GA}'], ['b1', '${GB}'], ['a2', '${GA}']]) if (!runtime.admit(work(id, g)).ok) throw new Error('admit ' + id);
runtime.setGroupPolicy('${GA}', { weight: 1, priorityClass: 'normal', maxConcurrent: 1, maxQueued: 10, admitting: true });
const started = runtime.schedule().filter((e) => e.type === 'run.started').map((e) => e.workItemId);
runtime.start('urn:missionweave:work-item:a1', 'urn:missionweave:lease:la');
runtime.start('urn:missionweave:work-item:b1', 'urn:missionweave:lease:lb');
runtime.checkpoint('urn:missionweave:work-item:a1', 'urn:missionweave:lease:la', JSON.stringify({ step: 4 }), true);
await runtime.cursorStore.save('${GA}', 12);
process.stdout.write(JSON.stringify({ started }) + '\\n');
setInterval(() => {}, 1000);
`;

it('rebuilds held work from the projection after the process holding it was killed', async () => {
  const path = join(folder, 'projection.sqlite');
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], { env: { ...process.env, RUNTIME_JS, PROJECTION: path }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  expect(JSON.parse(line.toString()), stderr).toEqual({ started: ['urn:missionweave:work-item:a1', 'urn:missionweave:work-item:b1'] });
  // While the child lives it holds the one-writer lock.
  expect(() => openAgentRuntime({ path, agentId: AGENT, slots: 2 })).toThrow(expect.objectContaining({ reason: 'locked' }));
  child.kill('SIGKILL');
  await once(child, 'exit');

  const runtime = openAgentRuntime({ path, agentId: AGENT, slots: 2, clock: () => T0 + 60_000 });
  try {
    const { work, cursors, interrupted } = runtime.recovery;
    expect(work.resumable).toEqual([expect.objectContaining({ workItemId: 'urn:missionweave:work-item:a1', status: 'paused', ownershipEpoch: 3 })]);
    expect(work.resumable[0]?.checkpoint?.data.toString('utf8')).toBe('{"step":4}');
    expect(work.lost).toEqual([expect.objectContaining({ workItemId: 'urn:missionweave:work-item:b1', status: 'blocked', blockedReason: RUNTIME_SESSION_LOST })]);
    expect(work.queued.map((w) => w.workItemId)).toEqual(['urn:missionweave:work-item:a2']);
    expect(cursors.get(GA)).toBe(12);
    expect(interrupted.map((e) => e.type === 'run.interrupted' && [e.workItemId, e.resumable])).toEqual([
      ['urn:missionweave:work-item:a1', true],
      ['urn:missionweave:work-item:b1', false],
    ]);
    expect(runtime.state.slots).toEqual([null, null]);
    expect(Object.values(runtime.state.work).map((w) => [w.workItemId, w.status]).sort()).toEqual([
      ['urn:missionweave:work-item:a1', 'ready'],
      ['urn:missionweave:work-item:a2', 'ready'],
      ['urn:missionweave:work-item:b1', 'blocked'],
    ]);
    expect(runtime.state.groups[GA]?.policy.maxConcurrent).toBe(1);
  } finally {
    runtime.close();
  }
}, 60_000);
