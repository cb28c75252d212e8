/**
 * The side-effect scenario over real wss/HTTPS and PostgreSQL (§12, §13.1, §7.3): a human
 * MissionOwner's Mission with a budget; a Coordinator (SDK Agent) authorizes two WorkItems whose
 * contracts grant exactly one tool call each; two Workers (SDK Agents) accept, start and ask the
 * Authorization Service for capability tokens; a tool host verifies each offline and online and
 * charges one call — the second call on a spent token is BUDGET_EXCEEDED, a retried first call is
 * one charge. Payment work waits for a human's `approval.grant_execution` (APPROVAL_REQUIRED).
 * Each Worker uploads, publishes and submits its Artifact; the Coordinator accepts both and
 * submits exactly the published set; the MissionOwner approves exactly that set with a signed
 * Approval that PostgreSQL keeps verifiable. Then the scan: no capability token (nor its
 * signature), no session token and no private key appears in any Event, receipt, Message,
 * Context Package, Artifact, stored row or captured log line.
 */

import { createHash, createPublicKey, randomUUID, verify, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_REDACTION } from '../src/app/authorization/logRedaction.js';
import { AuthorityReactor } from '../src/app/reactor/authorityReactor.js';
import { MissionWeaveAgent } from '../src/client/agent.js';
import { buildArtifactManifest, downloadArtifact, uploadArtifact } from '../src/client/artifacts.js';
import type { CapabilityToken } from '../src/client/capabilities.js';
import { loadRegistry } from '../src/client/eventVerifier.js';
import { keySigner, signingBytes } from '../src/client/signer.js';
import { chargeCapability, verifyCapabilityOffline, verifyCapabilityOnline } from '../src/client/toolVerifier.js';
import { decodeBase64url } from '../src/protocol/base64url.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import type { KeyRegistry } from '../src/protocol/signing/keyRegistry.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { count, createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import { WORKER_CAPABILITIES, workEvidence } from './support/publishedWork.js';
import { startTestServer, type TestServer } from './support/server.js';

const SELECTION = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
const TOOL = 'acme.sql-migration';
const STAGING_DB = 'urn:missionweave:resource:billing-db-staging';
const PAYMENTS = 'urn:missionweave:resource:payments';
const RECORDED = 'ext.missionweaveprotocol.core.resource_usage_recorded';

let server: TestServer;
let owner: Actor;
let coordinatorActor: Actor;
let coordinator: MissionWeaveAgent;
let mission: MissionRefs;
let registry: KeyRegistry;
/** Issues the Context Packages (§7.2, §13.3) of the late-joining Workers, on demand. */
let reactor: AuthorityReactor;
const workers: { actor: Actor; agent: MissionWeaveAgent }[] = [];
const logLines: string[] = [];
/** Everything the clients were answered: Command receipts, token grants' claims, charge answers. */
const receipts: string[] = [];
const tokens: CapabilityToken[] = [];
const dir = mkdtempSync(join(tmpdir(), 'mw-side-effects-'));

const asMember = () => ({ groupId: mission.groupId, membershipEpoch: 1 });
const asCoordinator = () => ({ ...asMember(), coordinatorEpoch: 1 });
const toolHost = () => ({ origin: new URL(server.httpsUrl), ca: server.ca, timeoutMs: 5000 });

function connect(actor: Actor): Promise<MissionWeaveAgent> {
  const agent = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: actor.principal.id, keyId: actor.key.keyId, privateKey: actor.key.privateKey });
  return agent.connect().then(() => agent);
}

/** Sends through an SDK Agent over wss and keeps the receipt for the scan. */
async function command(agent: MissionWeaveAgent, kind: string, payload: Record<string, unknown>, options: { groupId: string; membershipEpoch: number; coordinatorEpoch?: number }): Promise<JsonObject> {
  const event = (await agent.command(kind, payload, options)) as unknown as JsonObject;
  receipts.push(JSON.stringify(event));
  return event;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    return String((error as { code?: string }).code);
  }
}

beforeAll(async () => {
  // Every line the node logs, at its most verbose, with the production redaction: scanned at the end.
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (logLines.push(chunk.toString('utf8')), done()) });
  const logger = pino({ level: 'trace', redact: LOG_REDACTION }, sink);
  server = await startTestServer({}, { logger, contextGenerator: true });
  reactor = AuthorityReactor.start({ authority: server.harness.authority, pool: server.db.pool, logger, periodMs: 3_600_000 });
  owner = await server.harness.human('owner');
  coordinatorActor = await server.harness.agent('coordinator');
  mission = await createMission(server.harness, owner, coordinatorActor, {
    permissions: ['db.read', 'db.migrate', 'payment.create'],
    budget: { currency: 'EUR', financialLimit: 100, toolCallLimit: 10, modelTokenLimit: 100_000 },
  });
  coordinator = await connect(coordinatorActor);
  for (const handle of ['worker-a', 'worker-b']) {
    const actor = await server.harness.agent(handle, WORKER_CAPABILITIES);
    await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...actor.principal }, roles: ['worker'] }, asMember()));
    workers.push({ actor, agent: await connect(actor) });
  }
  // The tool host's Registry snapshot, as `registry export` writes it.
  registry = loadRegistry((await server.harness.authority.registryExport()).text);
});

afterAll(async () => {
  await reactor?.close();
  for (const { agent } of workers) await agent.close();
  await coordinator?.close();
});

/** A WorkItem granting one tool call and 5 EUR, authorized by the Coordinator and offered to `worker`, accepted over wss. */
async function offeredWork(worker: (typeof workers)[number], contract: object = {}): Promise<string> {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  const full = {
    ...EXAMPLE_WORK_CONTRACT,
    dependencyWorkItemIds: [],
    deadline: new Date(server.harness.clock.millis + 86_400_000).toISOString(),
    executionApproval: 'not_required',
    budget: { currency: 'EUR', financialLimit: 5, toolCallLimit: 1 },
    ...contract,
  };
  await command(coordinator, 'work.authorize', { workItemId, contract: full }, asCoordinator());
  await command(coordinator, 'work.offer', { workItemId, candidateAgentIds: [worker.actor.principal.id], selectionBasis: SELECTION }, asCoordinator());
  await command(worker.agent, 'work.accept_offer', { workItemId, ownershipLeaseSeconds: 900 }, asMember());
  return workItemId;
}

async function start(worker: (typeof workers)[number], workItemId: string): Promise<string> {
  const started = await command(worker.agent, 'work.start', { workItemId, ownershipEpoch: 1, executionLeaseSeconds: 900 }, asMember());
  return (started['payload'] as { executionLease: { leaseId: string } }).executionLease.leaseId;
}

interface Work {
  readonly worker: (typeof workers)[number];
  readonly workItemId: string;
  readonly leaseId: string;
  readonly content: Buffer;
  hash?: string;
}
const works: Work[] = [];

describe('the side-effect scenario over wss (§12, §13.1, §7.3)', () => {
  it('each Worker gets a one-call token; the tool host verifies it, charges one call; a second call is BUDGET_EXCEEDED; a retry is one charge', async () => {
    for (const worker of workers) {
      const workItemId = await offeredWork(worker);
      const leaseId = await start(worker, workItemId);
      works.push({ worker, workItemId, leaseId, content: Buffer.from(`migration by ${worker.actor.principal.id} ${randomUUID()}\n`) });
    }
    for (const work of works) {
      const issued = await work.worker.agent.capabilities().request({ groupId: mission.groupId, workItemId: work.workItemId, ownershipEpoch: 1, executionLeaseId: work.leaseId });
      tokens.push(issued);
      receipts.push(JSON.stringify(issued.claims));
      expect(issued.claims).toMatchObject({ agentId: work.worker.actor.principal.id, sessionEpoch: work.worker.agent.sessionEpoch, workItemId: work.workItemId, ownershipEpoch: 1, executionLeaseId: work.leaseId, tools: [TOOL], limits: { toolCalls: 1 } });

      // The tool host: offline (signature, binding, expiry), then online (revocation).
      const expected = { agentId: work.worker.actor.principal.id, workItemId: work.workItemId, tool: TOOL, resource: STAGING_DB, operation: 'db.migrate' };
      const now = server.harness.clock.millis;
      expect(verifyCapabilityOffline(issued.token, registry, expected, now)).toMatchObject({ ok: true });
      expect(verifyCapabilityOffline(issued.token, registry, { ...expected, agentId: workers.find((w) => w !== work.worker)?.actor.principal.id }, now)).toMatchObject({ ok: false, reason: 'mismatch' });
      expect(await verifyCapabilityOnline(issued.token, registry, toolHost(), expected, now)).toMatchObject({ ok: true });

      const before = await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId]);
      const charge = { toolCalls: 1, financialMicrounits: 250_000 };
      receipts.push(JSON.stringify(await chargeCapability(issued.token, charge, 'migrate-1', toolHost())));
      // The same operation again (a tool host's retry after a lost answer) gets the first answer and
      // is the same charge; another charge reusing the operation ID collides.
      expect(await chargeCapability(issued.token, charge, 'migrate-1', toolHost())).toMatchObject({ tokenId: issued.claims.tokenId });
      expect(await refusal(chargeCapability(issued.token, { toolCalls: 1 }, 'migrate-1', toolHost()))).toBe('ACTION_ID_COLLISION');
      const afterFirst = await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId]);
      expect(await refusal(chargeCapability(issued.token, charge, 'migrate-2', toolHost()))).toBe('BUDGET_EXCEEDED');
      expect(await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId])).toBe(afterFirst);

      const recorded = (await eventsOf(server.db.pool, mission.groupId)).filter((e) => e['kind'] === RECORDED && (e['payload'] as JsonObject)['workItemId'] === work.workItemId);
      expect(recorded).toHaveLength(1);
      expect(afterFirst - before).toBe(1);
      expect(recorded[0]?.['payload']).toMatchObject({ capabilityTokenId: issued.claims.tokenId });
    }
  });

  it('payment work gets no start, so no lease and no token, until a human grants its execution (APPROVAL_REQUIRED); cancelling it revokes the token', async () => {
    const [worker] = workers as [(typeof workers)[number]];
    const payment = { allowedResources: [{ resource: PAYMENTS, operations: ['payment.create'] }], budget: { currency: 'EUR', financialLimit: 5, toolCallLimit: 1 } };
    const workItemId = await offeredWork(worker, payment);
    expect(await refusal(worker.agent.command('work.start', { workItemId, ownershipEpoch: 1 }, asMember()))).toBe('APPROVAL_REQUIRED');
    expect(await refusal(worker.agent.capabilities().request({ groupId: mission.groupId, workItemId, ownershipEpoch: 1, executionLeaseId: `urn:missionweave:lease:${randomUUID()}` }))).toBe('INVALID_STATE_TRANSITION');
    // An Agent cannot approve it: only an authorized human.
    const grant = { approvalId: `urn:missionweave:approval:${randomUUID()}`, workItemId, ownershipEpoch: 1, operations: ['payment.create'], resources: [PAYMENTS] };
    expect(await refusal(command(coordinator, 'approval.grant_execution', grant, asCoordinator()))).toBe('AUTH_FORBIDDEN');
    await server.harness.expectOk(server.harness.send(owner, 'approval.grant_execution', grant, asMember()));
    const leaseId = await start(worker, workItemId);
    const issued = await worker.agent.capabilities().request({ groupId: mission.groupId, workItemId, ownershipEpoch: 1, executionLeaseId: leaseId });
    tokens.push(issued);
    expect(issued.claims.resources).toEqual([{ resource: PAYMENTS, operations: ['payment.create'] }]);
    expect(verifyCapabilityOffline(issued.token, registry, { workItemId, resource: PAYMENTS, operation: 'payment.create' }, server.harness.clock.millis)).toMatchObject({ ok: true });
    // The payment is not part of the result: the Coordinator cancels it, which revokes the token.
    await command(coordinator, 'work.cancel', { workItemId, reason: 'The invoice was settled elsewhere.' }, asCoordinator());
    expect(await verifyCapabilityOnline(issued.token, registry, toolHost(), { workItemId }, server.harness.clock.millis)).toMatchObject({ ok: false, reason: 'revoked' });
  });

  it('each Worker uploads, publishes and submits its Artifact; the MissionOwner approves exactly the published set', async () => {
    expect(works).toHaveLength(2);
    for (const work of works) {
      const { agent, actor } = work.worker;
      const uploaded = await uploadArtifact(agent.artifactEndpoint(), { bytes: work.content });
      work.hash = uploaded.contentHash;
      const manifest = await buildArtifactManifest({
        contentHash: uploaded.contentHash,
        sizeBytes: uploaded.sizeBytes,
        mediaType: 'application/sql',
        schemaUri: 'urn:missionweave:schema:sql-migration',
        producer: { agentId: actor.principal.id, agentCardVersion: 1, capabilities: [{ id: TOOL, version: '1.5.0' }] },
        missionId: mission.missionId,
        groupId: mission.groupId,
        workItemId: work.workItemId,
        classification: 'internal',
      }, keySigner(actor.key.keyId, actor.key.privateKey), server.httpsUrl);
      await command(agent, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: `publishing ${uploaded.contentHash}` }, asMember());
      await command(agent, 'artifact.publish', { artifact: manifest.document as unknown as JsonObject, ownershipEpoch: 1, executionLeaseId: work.leaseId }, asMember());
      const active = { m: mission, workItemId: work.workItemId, worker: actor, executionLeaseId: work.leaseId };
      const evidence = workEvidence(server.harness, active, actor, 'deterministic_test', [uploaded.contentHash]);
      await command(agent, 'work.submit', { workItemId: work.workItemId, ownershipEpoch: 1, executionLeaseId: work.leaseId, artifactHashes: [uploaded.contentHash], evidence: [evidence] }, asMember());
      const review = workEvidence(server.harness, active, coordinatorActor, 'reviewer_assessment', [uploaded.contentHash]);
      await command(coordinator, 'work.accept_result', { workItemId: work.workItemId, evidence: [review] }, asCoordinator());
    }
    const published = works.map((w) => w.hash as string).sort();

    // Stored in the Artifact store but never published in this Mission: not submittable, not approvable.
    const stray = await uploadArtifact(coordinator.artifactEndpoint(), { bytes: Buffer.from(`never published ${randomUUID()}`) });
    expect(await refusal(coordinator.command('mission.submit_for_approval', { artifactHashes: [...published, stray.contentHash] }, asCoordinator()))).toBe('INVALID_COMMAND');
    const submitted = await command(coordinator, 'mission.submit_for_approval', { artifactHashes: published }, asCoordinator());
    const revision = (submitted['payload'] as { missionRevision: number }).missionRevision;
    expect(submitted['payload']).toMatchObject({ artifactHashes: published });

    const approvalOf = (artifactHashes: string[]) => signDocument('approval', {
      approvalId: `urn:uuid:${randomUUID()}`, kind: 'mission_final', decision: 'approved', missionId: mission.missionId, groupId: mission.groupId, missionRevision: revision,
      artifactHashes, acceptancePolicyVersion: '1.0.0', approver: owner.principal, comments: 'Ship it.', conditions: [], occurredAt: new Date(server.harness.clock.millis).toISOString(),
    }, owner.key) as unknown as JsonObject;
    const approve = (approval: JsonObject) => server.harness.send(owner, 'mission.approve', { approvalId: String(approval['approvalId']), missionRevision: revision, artifactHashes: approval['artifactHashes'] as JsonObject, acceptancePolicyVersion: '1.0.0', comments: 'Ship it.', approval }, asMember());
    const withStray = await approve(approvalOf([...published, stray.contentHash]));
    expect(withStray.ok ? 'accepted' : withStray.error.code).toBe('INVALID_COMMAND');
    const beforeApproval = await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId]);
    await server.harness.expectOk(approve(approvalOf(published)));
    expect(await count(server.db.pool, 'events', 'group_id = $1', [mission.groupId])).toBe(beforeApproval + 1);

    // What PostgreSQL keeps: the Approval names exactly the published hashes and verifies under the human's key.
    const approved = (await eventsOf(server.db.pool, mission.groupId)).filter((e) => e['kind'] === 'mission.approved');
    expect(approved).toHaveLength(1);
    const stored = (approved[0]?.['payload'] as { approval: JsonObject & { artifactHashes: string[]; signature: { keyId: string; value: string } } }).approval;
    expect([...stored.artifactHashes].sort()).toEqual(published);
    expect(stored.approver).toEqual(owner.principal);
    expect(stored.signature.keyId).toBe(owner.key.keyId);
    const ownerPublic = createPublicKey(owner.key.privateKey);
    expect(verify(null, signingBytes(stored as unknown as Record<string, unknown>), ownerPublic, decodeBase64url(stored.signature.value) as Buffer)).toBe(true);
    expect(verify(null, signingBytes({ ...stored, artifactHashes: [published[0]] } as unknown as Record<string, unknown>), ownerPublic, decodeBase64url(stored.signature.value) as Buffer)).toBe(false);

    // Each approved Artifact downloads and hashes to its name.
    for (const work of works) {
      const destination = join(dir, `${randomUUID()}.sql`);
      await downloadArtifact(work.worker.agent.artifactEndpoint(), work.hash as string, destination);
      const bytes = readFileSync(destination);
      expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(work.hash);
      expect(bytes.equals(work.content)).toBe(true);
    }
  });
});

/** Text forms a private key could leak in: the raw seed (base64url, base64, hex), PKCS#8 DER (base64) and PEM body lines. */
function privateKeyForms(key: KeyObject): string[] {
  const der = key.export({ format: 'der', type: 'pkcs8' });
  const seed = der.subarray(der.length - 32);
  const pem = String(key.export({ format: 'pem', type: 'pkcs8' })).split('\n').filter((line) => line !== '' && !line.startsWith('-----'));
  return [seed.toString('base64url'), seed.toString('base64').replace(/=+$/, ''), seed.toString('hex'), der.toString('base64').replace(/=+$/, ''), ...pem];
}

describe('the secrets scan after the scenario (§12 "tokens and secrets never appear")', () => {
  it('finds no capability token, token signature, session token or private key in Events, receipts, Messages, Context Packages, Artifacts, stored rows or logs', async () => {
    expect(tokens.length).toBeGreaterThanOrEqual(3);
    // The Workers joined late: each gets its Context Package, read and verified through the SDK.
    await reactor.sweepNow();
    for (const { agent } of workers) receipts.push(JSON.stringify((await agent.contextPackages().awaitLatest(mission.groupId, { missionId: mission.missionId, waitMs: 5_000 })).document));
    expect(await count(server.db.pool, 'context_packages', 'group_id = $1', [mission.groupId])).toBeGreaterThanOrEqual(2);
    const secrets: [string, string][] = [];
    for (const { token } of tokens) secrets.push(['a capability token', token], ['a capability token signature', token.split('.')[2] as string]);
    for (const agent of [coordinator, ...workers.map((w) => w.agent)]) secrets.push(['a session token', agent.artifactEndpoint().sessionToken]);
    const keyed: [string, KeyObject][] = [['the owner', owner.key.privateKey], ['the coordinator', coordinatorActor.key.privateKey], ...workers.map((w, i): [string, KeyObject] => [`worker ${i}`, w.actor.key.privateKey]), ['the Authority', server.harness.settings.authorityKey.privateKey], ...(server.harness.settings.contextGenerator === undefined ? [] : [['the context generator', server.harness.settings.contextGenerator.key.privateKey] as [string, KeyObject]])];
    for (const [who, key] of keyed) for (const form of privateKeyForms(key)) secrets.push([`${who}'s private key`, form]);
    for (const [, secret] of secrets) expect(secret.length).toBeGreaterThanOrEqual(16);

    // Every row of every table, whatever a migration added, as text (bytea as hex, so Artifact bytes are read below).
    const tables = await server.db.pool.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`);
    expect(tables.rows.map((t) => t.name)).toEqual(expect.arrayContaining(['events', 'context_packages', 'artifact_chunks', 'aggregates']));
    const dumps: string[] = [];
    for (const { name } of tables.rows) {
      const rows = await server.db.pool.query<{ dump: string | null }>(`select string_agg(to_jsonb(t)::text, E'\\n') as dump from "${name}" t`);
      dumps.push(rows.rows[0]?.dump ?? '');
    }
    // Artifact contents as their bytes, and the Context Packages the Group made (the workers joined late).
    const contents = await server.db.pool.query<{ data: Buffer }>('select data from artifact_chunks order by content_hash, chunk_index');
    const artifactText = contents.rows.map((r) => r.data.toString('utf8')).join('\n');
    expect(contents.rows.length).toBeGreaterThanOrEqual(3);
    const events = (await eventsOf(server.db.pool, mission.groupId)).map((e) => JSON.stringify(e)).join('\n');
    expect(events).toContain('"artifact.published"');
    expect(events).toContain(`"${RECORDED}"`);
    const logs = logLines.join('');
    expect(logs).toContain('capability token issued');

    const places: [string, string][] = [['stored rows', dumps.join('\n')], ['Events', events], ['receipts', receipts.join('\n')], ['Artifact contents', artifactText], ['log lines', logs]];
    const found = secrets.flatMap(([what, secret]) => places.filter(([, text]) => text.includes(secret)).map(([where]) => `${what} in ${where}`));
    expect(found).toEqual([]);
  });
});
