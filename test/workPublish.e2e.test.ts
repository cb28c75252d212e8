/**
 * A Worker written with the SDK publishes its results before it submits them (§13.1, §7.3):
 * `execution.publishArtifact` uploads bytes or a file to the Artifact store over HTTPS, signs a
 * complete manifest as this Agent with its Agent Card version, and sends `artifact.publish`
 * under the current Ownership Epoch and Execution Lease; `execution.submit` then submits exactly
 * what was published. Read back from the Group's Events and the store, over real wss and TLS.
 * The refusals: a manifest naming another card version publishes nothing, a hash that was never
 * published cannot be submitted, and a publication under a lease the Authority's clock has
 * expired is refused and tells the execution its lease is lost.
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadArtifact, MissionWeaveAgent, MissionWeaveWorker, type WorkExecution, type WorkOffer } from '../src/client/index.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { WORKER_CAPABILITIES } from './support/publishedWork.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let mission: MissionRefs;
let coordinator: Actor;
let workerActor: Actor;
let agent: MissionWeaveAgent;
let worker: MissionWeaveWorker;
const dir = mkdtempSync(join(tmpdir(), 'mw-publish-'));

async function until<T>(check: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`${what} not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  ({ server, coordinator, workerActor, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {}, workerActor: { handle: 'worker', capabilities: WORKER_CAPABILITIES } },
    mission: { owner: 'owner', coordinator: 'coordinator', members: { workerActor: ['worker'] } },
  }));
  agent = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: workerActor.principal.id, keyId: workerActor.key.keyId, privateKey: workerActor.key.privateKey });
  worker = new MissionWeaveWorker(agent, { executionLeaseSeconds: 120 });
  await agent.connect();
  await agent.subscribe(mission.groupId);
  await until(() => worker.epochs.facts(mission.groupId)?.membershipEpoch, "the Worker's Membership Epoch");
});

afterAll(async () => {
  worker?.close();
  await agent?.close();
});

/** A WorkItem authorized and offered to the Worker by the Coordinator; the offer as the Worker's `run` takes it. */
async function offered(): Promise<WorkOffer> {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const asCoordinator = { groupId: mission.groupId, membershipEpoch: 1, coordinatorEpoch: 1 };
  const contract = { ...EXAMPLE_WORK_CONTRACT, inputArtifacts: [], dependencyWorkItemIds: [], executionApproval: 'not_required', deadline: new Date(Date.now() + 86_400_000).toISOString(), budget: { currency: 'EUR', financialLimit: 50 } };
  await server.harness.expectOk(server.harness.send(coordinator, 'work.authorize', { workItemId, contract }, asCoordinator));
  const selectionBasis = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
  await server.harness.expectOk(server.harness.send(coordinator, 'work.offer', { workItemId, candidateAgentIds: [workerActor.principal.id], selectionBasis }, asCoordinator));
  return { groupId: mission.groupId, workItemId } as WorkOffer;
}

const criteria = (execution: WorkExecution) => execution.workItem.contract.acceptanceCriteria.map((c) => c.criterionId);
const payloadsOf = async (kind: string, workItemId: string) => (await eventsOf(server.db.pool, mission.groupId)).filter((e) => e['kind'] === kind && (e['payload'] as JsonObject)['workItemId'] === workItemId).map((e) => e['payload'] as JsonObject);

describe('WorkExecution.publishArtifact', () => {
  it('uploads bytes and a file, publishes their signed manifests under the lease, and submits exactly those', async () => {
    const bytes = randomBytes(4096);
    const file = join(dir, 'rollback.sql');
    writeFileSync(file, 'ALTER TABLE invoices DROP COLUMN ledger_id;\n');
    const offer = await offered();
    const result = await worker.run(offer, async (execution) => {
      const script = await execution.publishArtifact({ bytes }, { mediaType: 'application/sql', schemaUri: 'urn:missionweave:schema:sql-migration' });
      const rollback = await execution.publishArtifact({ path: file }, { mediaType: 'application/sql', schemaUri: 'urn:missionweave:schema:sql-migration', sourceArtifactHashes: [script.contentHash], classification: 'confidential' });
      expect(execution.publishedArtifactHashes).toEqual([script.contentHash, rollback.contentHash]);
      const evidence = await execution.evidence({ type: 'deterministic_test', criterionIds: criteria(execution), method: 'Applied and rolled back.', result: 'passed', artifactHashes: [...execution.publishedArtifactHashes] });
      const submitted = await execution.submit({ evidence: [evidence] });
      return { script, rollback, submitted, leaseId: execution.leaseId, ownershipEpoch: execution.ownershipEpoch };
    });
    const { script, rollback } = result;

    const published = await payloadsOf('artifact.published', offer.workItemId);
    expect(published.map((p) => (p['artifact'] as JsonObject)['contentHash'])).toEqual([script.contentHash, rollback.contentHash]);
    for (const p of published) {
      expect(p).toMatchObject({ ownershipEpoch: result.ownershipEpoch, executionLeaseId: result.leaseId });
      const manifest = p['artifact'] as JsonObject;
      expect(schemaRegistry().validateObject('artifact', manifest)).toEqual({ ok: true });
      expect(manifest).toMatchObject({
        producer: { agentId: workerActor.principal.id, agentCardVersion: 1 },
        missionId: mission.missionId,
        groupId: mission.groupId,
        workItemId: offer.workItemId,
        signature: { keyId: workerActor.key.keyId },
      });
    }
    expect(published[1]?.['artifact']).toMatchObject({ sizeBytes: readFileSync(file).length, sourceArtifactHashes: [script.contentHash], classification: 'confidential' });

    const [submission] = await payloadsOf('work.submitted', offer.workItemId);
    expect(submission?.['artifactHashes']).toEqual([script.contentHash, rollback.contentHash]);
    const copy = join(dir, 'script.copy');
    await downloadArtifact(agent.artifactEndpoint(), script.contentHash, copy);
    expect(readFileSync(copy).equals(bytes)).toBe(true);
  });

  it('a manifest naming a card version other than the registered one publishes nothing; an unpublished hash is not submitted', async () => {
    const offer = await offered();
    await worker.run(offer, async (execution) => {
      const refused = await execution.publishArtifact({ bytes: randomBytes(64) }, { mediaType: 'text/plain', schemaUri: 'urn:missionweave:schema:text', producer: { agentCardVersion: 2 } }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'INVALID_COMMAND' });
      expect(execution.publishedArtifactHashes).toEqual([]);
      const made = `sha256:${'ab'.repeat(32)}`;
      const evidence = await execution.evidence({ type: 'deterministic_test', criterionIds: criteria(execution), method: 'Claimed a result.', result: 'passed' });
      await expect(execution.submit({ artifactHashes: [made], evidence: [evidence] })).rejects.toMatchObject({ code: 'INVALID_COMMAND' });
      // Still the owner under the same lease: nothing was changed by either refusal.
      expect(execution.leaseStatus).toBe('keeping');
      await execution.fail('gave up');
    });
    expect(await payloadsOf('artifact.published', offer.workItemId)).toEqual([]);
    expect(await payloadsOf('work.submitted', offer.workItemId)).toEqual([]);
  });

  // Last: it moves the Authority's clock past the lease for the rest of the file.
  it('a publication after the Execution Lease expired on the Authority’s clock is refused and the lease known lost', async () => {
    const offer = await offered();
    const execution = await worker.start(await worker.accept(offer), { executionLeaseSeconds: 20 });
    server.harness.clock.advance(30);
    const refused = await execution.publishArtifact({ bytes: randomBytes(64) }, { mediaType: 'text/plain', schemaUri: 'urn:missionweave:schema:text' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'WORK_LEASE_EXPIRED' });
    expect(execution.signal.reason).toMatchObject({ reason: 'refused', cause: { code: 'WORK_LEASE_EXPIRED' } });
    expect(execution.publishedArtifactHashes).toEqual([]);
    expect(await payloadsOf('artifact.published', offer.workItemId)).toEqual([]);
  });
});
