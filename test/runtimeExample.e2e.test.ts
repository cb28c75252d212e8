/**
 * `examples/runtime-worker.mjs` — the Worker serving two Missions that docs/sdk.md shows — run
 * as written, as its own process, against a real node (wss, TLS, PostgreSQL): the Coordinator
 * of each Mission offers it one WorkItem, both are submitted with the Artifact the handler
 * published, and SIGTERM stops it with exit 0. The docs show the file byte for byte (checked
 * here), so the two cannot drift.
 */

import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { WORKER_CAPABILITIES } from './support/publishedWork.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

const EXAMPLE = 'examples/runtime-worker.mjs';
const directory = mkdtempSync(join(tmpdir(), 'mw-runtime-example-'));
let server: TestServer;
let missions: MissionRefs[];
let coordinator: Actor;
let workerActor: Actor;

beforeAll(async () => {
  let owner: Actor;
  let mission: MissionRefs;
  ({ server, owner, coordinator, workerActor, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {}, workerActor: { handle: 'worker', capabilities: WORKER_CAPABILITIES } },
    mission: { owner: 'owner', coordinator: 'coordinator', members: { workerActor: ['worker'] } },
  }));
  const second = await createMission(server.harness, owner, coordinator, { deadline: new Date(Date.now() + 2 * 86_400_000).toISOString() });
  await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...workerActor.principal }, roles: ['worker'] }, { groupId: second.groupId, membershipEpoch: 1 }));
  missions = [mission, second];
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function offer(mission: MissionRefs): Promise<string> {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const asCoordinator = { groupId: mission.groupId, membershipEpoch: 1, coordinatorEpoch: 1 };
  const contract = { ...EXAMPLE_WORK_CONTRACT, inputArtifacts: [], dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(Date.now() + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 50 } };
  await server.harness.expectOk(server.harness.send(coordinator, 'work.authorize', { workItemId, contract }, asCoordinator));
  const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
  await server.harness.expectOk(server.harness.send(coordinator, 'work.offer', { workItemId, candidateAgentIds: [workerActor.principal.id], selectionBasis }, asCoordinator));
  return workItemId;
}

it('docs/sdk.md shows examples/runtime-worker.mjs as it is, in under 40 lines', () => {
  const code = readFileSync(EXAMPLE, 'utf8');
  expect(code.trimEnd().split('\n').length).toBeLessThan(40);
  expect(readFileSync('docs/sdk.md', 'utf8')).toContain(`\`\`\`js\n${code}\`\`\``);
});

it('serves two Missions: the WorkItem each offers is run and submitted; SIGTERM stops it with exit 0', async () => {
  // Node resolves missionweave/client through "exports" to dist/client (npm run build makes it).
  if (!existsSync('dist/client/index.js')) spawnSync('npm', ['run', 'build'], { stdio: 'ignore' });
  writeFileSync(join(directory, 'agent.pem'), workerActor.key.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  writeFileSync(join(directory, 'ca.pem'), server.ca);
  const env = {
    MW_URL: server.url,
    MW_CA_FILE: join(directory, 'ca.pem'),
    MW_AGENT_ID: workerActor.principal.id,
    MW_KEY_ID: workerActor.key.keyId,
    MW_PRIVATE_KEY_FILE: join(directory, 'agent.pem'),
    MW_GROUP_IDS: missions.map((m) => m.groupId).join(','),
    MW_HOME: join(directory, 'home'),
  };
  const child = spawn(process.execPath, [EXAMPLE], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
  try {
    const ready = Date.now();
    while (!lines.some((l) => 'ready' in l)) {
      if (Date.now() - ready > 60_000 || child.exitCode !== null) throw new Error(`the example did not become ready: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const workItems = [await offer(missions[0] as MissionRefs), await offer(missions[1] as MissionRefs)];
    const submitted = async (mission: MissionRefs, workItemId: string) =>
      (await eventsOf(server.db.pool, mission.groupId)).find((e) => e['kind'] === 'work.submitted' && (e['payload'] as { workItemId: string }).workItemId === workItemId);
    const start = Date.now();
    while ((await submitted(missions[0] as MissionRefs, workItems[0] as string)) === undefined || (await submitted(missions[1] as MissionRefs, workItems[1] as string)) === undefined) {
      if (Date.now() - start > 60_000) throw new Error(`not both submitted: ${JSON.stringify(lines)} ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const inB = await submitted(missions[1] as MissionRefs, workItems[1] as string);
    expect((inB?.['payload'] as { artifactHashes: string[] }).artifactHashes).toEqual([sha256ContentHash(`${EXAMPLE_WORK_CONTRACT.goal} (Mission B)`)]);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  expect(stderr).toBe('');
}, 120_000);
