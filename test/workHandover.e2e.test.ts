/**
 * The "Done when" scenario, run as a README reader would run it: `node
 * examples/work-handover.mjs` against a real Group Authority over wss, one Coordinator and two
 * Worker processes written with `missionweave/client`. Worker A is paused for real (SIGSTOP)
 * past its Execution Lease; the Authority closes the lease on its own clock; the Coordinator
 * re-offers to Worker B, which publishes its result as an Artifact, completes under a higher
 * Ownership Epoch and has its result accepted; A resumes and its late publication and submission
 * are refused. Each fact is read back from the Group's Events, not only from what the example
 * prints (the refusal, which appends nothing, is what A's SDK was answered, and the absence of
 * any Event of A after the closure).
 */

import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthorityReactor } from '../src/app/reactor/authorityReactor.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { startTestServer, type TestServer } from './support/server.js';

const LEASE_SECONDS = 2;
let server: TestServer;
let mission: MissionRefs;
const actors: Record<'coordinator' | 'A' | 'B', Actor> = {} as never;

type Line = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON lines of the example, read loosely

beforeAll(async () => {
  server = await startTestServer();
  // The node runs as `serve` does: its Authority reactor closes expired leases on its own clock.
  const reactor = AuthorityReactor.start({ authority: server.harness.authority, pool: server.db.pool, logger: pino({ level: 'silent' }) });
  afterAll(() => reactor.close());
  const owner = await server.harness.human('owner');
  actors.coordinator = await server.harness.agent('coordinator');
  actors.A = await server.harness.agent('worker-a');
  actors.B = await server.harness.agent('worker-b');
  mission = await createMission(server.harness, owner, actors.coordinator);
});

function runExample(env: Record<string, string>): Promise<{ code: number | null; lines: Line[]; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['examples/work-handover.mjs'], { env: { ...process.env, ...env }, timeout: 150_000 }, (error, stdout, stderr) => {
      const lines = stdout.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Line);
      resolve({ code: error === null ? 0 : (error.code as number | null), lines, stderr });
    });
  });
}

/** Lease-shaped members of an Event payload (wherever the Authority put the closed lease). */
function leasesIn(payload: JsonObject): JsonObject[] {
  return Object.values(payload)
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter((value): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as JsonObject)['leaseType'] === 'string');
}

const actorOf = (event: JsonObject) => (event['actor'] as { type: string; id: string });
const workItemIn = (event: JsonObject) => (event['payload'] as { workItem?: { state: string; owner?: { agentId: string; ownershipEpoch: number } } }).workItem;

describe('examples/work-handover.mjs', () => {
  it("a paused Worker's late submission is refused after its lease expired; a second Worker completes under a higher Ownership Epoch", async () => {
    const build = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '--outDir', 'dist', '--rootDir', 'src', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2023', '--lib', 'es2023,es2024.string', '--types', 'node', '--strict', '--skipLibCheck', '--sourceMap', 'src/client/index.ts'], { encoding: 'utf8' });
    expect(existsSync('dist/client/index.js'), build.stdout).toBe(true);
    const directory = mkdtempSync(join(tmpdir(), 'mw-handover-'));
    writeFileSync(join(directory, 'ca.pem'), server.ca);
    const env: Record<string, string> = { MW_URL: server.url, MW_CA_FILE: join(directory, 'ca.pem'), MW_GROUP_ID: mission.groupId, MW_LEASE_SECONDS: String(LEASE_SECONDS) };
    for (const [role, actor] of [['COORDINATOR', actors.coordinator], ['WORKER_A', actors.A], ['WORKER_B', actors.B]] as const) {
      const file = join(directory, `${role}.pem`);
      writeFileSync(file, actor.key.privateKey.export({ format: 'pem', type: 'pkcs8' }));
      Object.assign(env, { [`MW_${role}_AGENT_ID`]: actor.principal.id, [`MW_${role}_KEY_ID`]: actor.key.keyId, [`MW_${role}_PRIVATE_KEY_FILE`]: file });
    }

    const run = await runExample(env);
    expect(run.code, `${run.stderr}\n${JSON.stringify(run.lines, null, 1)}`).toBe(0);
    const done = run.lines.at(-1)?.['done'] as { workItemId: string; ownershipEpochs: { A: number; B: number } };
    expect(done).toBeDefined();
    const { workItemId } = done;

    // A was really stopped (Linux reports `T` for a stopped process).
    const paused = run.lines.find((l) => 'paused' in l)?.['paused'];
    if (process.platform === 'linux') expect(paused?.['processState']).toBe('T');

    const events = (await eventsOf(server.db.pool, mission.groupId)).filter((e) => e['workItemId'] === workItemId || (e['payload'] as JsonObject)['workItemId'] === workItemId);
    const by = (kind: string, actor: Actor) => events.filter((e) => e['kind'] === kind && actorOf(e).id === actor.principal.id);
    const seq = (e: JsonObject | undefined) => Number(e?.['sequence']);

    // A accepted and started under epoch eA.
    const [acceptedA] = by('work.offer.accepted', actors.A);
    const [startedA] = by('work.started', actors.A);
    const eA = Number((acceptedA?.['payload'] as JsonObject)['ownershipEpoch']);
    const leaseA = (startedA?.['payload'] as { executionLease: { leaseId: string } }).executionLease.leaseId;
    expect(eA).toBe(done.ownershipEpochs.A);

    // The Authority, on its own clock, closed A's lease: a service-signed Event carrying it closed, at or after its last expiry.
    const renewalsA = by('work.progressed', actors.A);
    expect(renewalsA.length).toBeGreaterThanOrEqual(1);
    const lastExpiry = Math.max(...[startedA, ...renewalsA].map((e) => Date.parse(String((e?.['payload'] as JsonObject)['executionLeaseExpiresAt']))));
    const closure = events.find((e) => actorOf(e).type === 'service' && seq(e) > seq(startedA) && leasesIn(e['payload'] as JsonObject).some((l) => l['leaseId'] === leaseA && l['state'] !== 'active'));
    expect(closure, JSON.stringify(events.map((e) => [e['sequence'], e['kind'], actorOf(e).type]))).toBeDefined();
    expect(Date.parse(String(closure?.['occurredAt']))).toBeGreaterThanOrEqual(lastExpiry);
    // Nothing from A after the closure: every late Command of its (renewal, submission) was refused.
    expect(events.filter((e) => actorOf(e).id === actors.A.principal.id && seq(e) > seq(closure))).toEqual([]);

    // The Coordinator re-offered to B after the closure; B won under a higher epoch, submitted, and the result was accepted.
    const reOffer = events.find((e) => e['kind'] === 'work.offer.created' && seq(e) > seq(closure));
    expect((reOffer?.['payload'] as JsonObject)['candidateAgentIds']).toEqual([actors.B.principal.id]);
    const [acceptedB] = by('work.offer.accepted', actors.B);
    const eB = Number((acceptedB?.['payload'] as JsonObject)['ownershipEpoch']);
    expect(eB).toBeGreaterThan(eA);
    const [startedB] = by('work.started', actors.B);
    const leaseB = (startedB?.['payload'] as { executionLease: { leaseId: string } }).executionLease.leaseId;
    const renewalsB = by('work.progressed', actors.B);
    expect(renewalsB.length).toBeGreaterThanOrEqual(1);
    for (const renewal of renewalsB) expect((renewal['payload'] as { executionLease: { leaseId: string } }).executionLease.leaseId).toBe(leaseB);
    const [submittedB] = by('work.submitted', actors.B);
    expect((submittedB?.['payload'] as JsonObject)['ownershipEpoch']).toBe(eB);
    // B published its result under its own lease before submitting it (only published Artifacts may be submitted, §13.1).
    const publishedB = by('artifact.published', actors.B).map((e) => e['payload'] as { artifact: { contentHash: string; producer: { agentId: string } }; ownershipEpoch: number; executionLeaseId: string });
    expect(publishedB).toHaveLength(1);
    expect(publishedB[0]).toMatchObject({ ownershipEpoch: eB, executionLeaseId: leaseB, artifact: { producer: { agentId: actors.B.principal.id } } });
    expect((submittedB?.['payload'] as JsonObject)['artifactHashes']).toEqual([publishedB[0]?.artifact.contentHash]);
    expect(seq(submittedB)).toBeGreaterThan(Math.max(...renewalsB.map(seq)));
    const [resultAccepted] = by('work.result.accepted', actors.coordinator);
    expect(seq(resultAccepted)).toBeGreaterThan(seq(submittedB));
    expect(workItemIn(resultAccepted as JsonObject)).toMatchObject({ state: 'verified', owner: { agentId: actors.B.principal.id, ownershipEpoch: eB } });
    expect(workItemIn(events.at(-1) as JsonObject)?.state).toBe('verified');

    // A's late publication and submission: both refused, never an Event.
    expect(by('work.submitted', actors.A)).toEqual([]);
    expect(by('artifact.published', actors.A)).toEqual([]);
    expect(run.lines.find((l) => l['worker'] === 'A' && 'publishRefused' in l)?.['publishRefused']).toBeDefined();
    const refused = run.lines.find((l) => l['worker'] === 'A' && 'submitRefused' in l)?.['submitRefused'] as { code: string; ownershipEpoch: number } | undefined;
    expect(['WORK_LEASE_EXPIRED', 'WORK_STALE_OWNERSHIP']).toContain(refused?.code);
    expect(refused?.ownershipEpoch).toBe(eA);
    const lost = run.lines.find((l) => l['worker'] === 'A' && 'leaseLost' in l)?.['leaseLost'];
    expect(['expired', 'refused', 'fenced']).toContain(lost?.['reason']);
  }, 180_000);
});
