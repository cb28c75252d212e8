/**
 * The Authorization Service over real wss/HTTPS and PostgreSQL (§12): a Worker that owns and
 * started a WorkItem asks through its live Session for a capability token; a tool host verifies
 * it offline (Registry key, signature, expiry, binding) and online (status); a rotation revokes
 * the old token; a checkpoint (the lease released) revokes the new one; a forged, tampered or
 * stranger's request is refused; the approval gate withholds the token (APPROVAL_REQUIRED).
 * A tool host charges a call to the token (once the ledger's kind is registered: a second call
 * beyond the token's ceiling is BUDGET_EXCEEDED). Then the scan: no token string appears in any Event, receipt, stored row or captured log line.
 */

import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_REDACTION } from '../src/app/authorization/logRedaction.js';
import { MissionWeaveAgent } from '../src/client/agent.js';
import { CapabilityClient, idempotencyKey } from '../src/client/capabilities.js';
import { loadRegistry } from '../src/client/eventVerifier.js';
import { chargeCapability, verifyCapabilityOffline, verifyCapabilityOnline } from '../src/client/toolVerifier.js';
import { coreRegistry } from './support/coreDecider.js';
import type { KeyRegistry } from '../src/protocol/signing/keyRegistry.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { eventsOf, type MissionRefs } from './support/missions.js';
import { EXAMPLE_WORK_CONTRACT, PAYLOAD_EXAMPLES } from './support/payloadExamples.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

const coreKinds = coreRegistry();

const SELECTION = (PAYLOAD_EXAMPLES['work.offer'] as { selectionBasis: JsonObject }).selectionBasis;
const STAGING_DB = 'urn:missionweave:resource:billing-db-staging';
const GRANT = 'ext.missionweave.core.capability_grant';
const USAGE_RECORD = 'ext.missionweaveprotocol.core.resource_usage_record';

let server: TestServer;
let owner: Actor;
let coordinator: Actor;
let worker: Actor;
let mission: MissionRefs;
let agent: MissionWeaveAgent;
let registry: KeyRegistry;
const logLines: string[] = [];
const receipts: string[] = [];
const tokens: string[] = [];

beforeAll(async () => {
  // Every log line the node writes, at the most verbose level, captured for the scan.
  const sink = new Writable({ write: (chunk: Buffer, _encoding, done) => (logLines.push(chunk.toString('utf8')), done()) });
  ({ server, owner, coordinator, worker, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {}, worker: ['acme.sql-migration@1.5.0'] },
    mission: { owner: 'owner', coordinator: 'coordinator', payload: { permissions: ['db.read', 'db.migrate'], budget: { currency: 'EUR', financialLimit: 100, toolCallLimit: 100, modelTokenLimit: 100_000 } }, members: { worker: ['worker'] } },
    logger: pino({ level: 'trace', redact: LOG_REDACTION }, sink),
  }));
  agent = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: worker.principal.id, keyId: worker.key.keyId, privateKey: worker.key.privateKey });
  await agent.connect();
  // The tool host's Registry snapshot: the Organization's export, as `registry export` writes it.
  registry = loadRegistry((await server.harness.authority.registryExport()).text);
});

afterAll(() => agent?.close());

const endpoint = () => ({ origin: new URL(server.httpsUrl), ca: server.ca, timeoutMs: 5000 });

/** A WorkItem authorized, offered to the worker, accepted and started by its SDK Agent. */
async function startedWork(contract: object = {}): Promise<{ workItemId: string; leaseId: string }> {
  const workItemId = `urn:missionweave:work-item:${randomUUID()}`;
  // Each WorkItem its own goal: four alike in one Group would be duplicate decomposition (§20).
  const full = { ...EXAMPLE_WORK_CONTRACT, goal: `${EXAMPLE_WORK_CONTRACT.goal} (${workItemId})`, dependencyWorkItemIds: [], deadline: new Date(server.harness.clock.millis + 86_400_000).toISOString(), executionApproval: 'not_required', budget: { toolCallLimit: 2, modelTokenLimit: 1000 }, ...contract };
  const asCoordinator = { groupId: mission.groupId, membershipEpoch: 1, coordinatorEpoch: 1 };
  for (const [kind, payload] of [
    ['work.authorize', { workItemId, contract: full }],
    ['work.offer', { workItemId, candidateAgentIds: [worker.principal.id], selectionBasis: SELECTION }],
  ] as const) {
    const sent = await server.harness.send(coordinator, kind, payload as JsonObject, asCoordinator);
    expect(sent.ok, JSON.stringify(sent)).toBe(true);
  }
  await agent.command('work.accept_offer', { workItemId }, { groupId: mission.groupId, membershipEpoch: 1 });
  if (full.executionApproval !== 'not_required' || (full as { sideEffectRisk?: string }).sideEffectRisk === 'destructive') return { workItemId, leaseId: 'urn:missionweave:lease:none' };
  const started = await agent.command('work.start', { workItemId, ownershipEpoch: 1 }, { groupId: mission.groupId, membershipEpoch: 1 });
  return { workItemId, leaseId: (started['payload'] as { executionLease: { leaseId: string } }).executionLease.leaseId };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    return String((error as { code?: string }).code);
  }
}

describe(`${GRANT} over HTTPS (§12)`, () => {
  it('issues a token bound to the Session, verifies it offline and online, rotates it (the old one revoked), and a checkpoint revokes the new one', async () => {
    const { workItemId, leaseId } = await startedWork();
    const client = agent.capabilities();
    const request = { groupId: mission.groupId, workItemId, ownershipEpoch: 1, executionLeaseId: leaseId, limits: { toolCalls: 1 } };
    const first = await client.request(request);
    tokens.push(first.token);
    expect(first.token).toMatch(/^mwcap1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    expect(first.claims).toMatchObject({ agentId: worker.principal.id, sessionEpoch: agent.sessionEpoch, workItemId, ownershipEpoch: 1, executionLeaseId: leaseId, limits: { toolCalls: 1 }, tools: ['acme.sql-migration'] });

    const now = server.harness.clock.millis;
    const expect1 = { agentId: worker.principal.id, workItemId, tool: 'acme.sql-migration', resource: STAGING_DB, operation: 'db.migrate' };
    expect(verifyCapabilityOffline(first.token, registry, expect1, now)).toMatchObject({ ok: true });
    expect(verifyCapabilityOffline(first.token, registry, { ...expect1, operation: 'db.drop' }, now)).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(verifyCapabilityOffline(first.token, registry, expect1, Date.parse(first.claims.expiresAt))).toMatchObject({ ok: false, reason: 'expired' });
    expect(await verifyCapabilityOnline(first.token, registry, endpoint(), expect1, now)).toMatchObject({ ok: true });

    // Rotation: a new token under the same lease supersedes the first.
    const second = await client.request({ ...request, limits: { toolCalls: 2 } });
    tokens.push(second.token);
    expect(second.claims.tokenId).not.toBe(first.claims.tokenId);
    expect(await verifyCapabilityOnline(first.token, registry, endpoint(), expect1, now)).toMatchObject({ ok: false, reason: 'revoked' });
    expect(await verifyCapabilityOnline(second.token, registry, endpoint(), expect1, now)).toMatchObject({ ok: true });

    // The §16 idempotency key: stable for one logical operation, distinct for another.
    expect(idempotencyKey(second.claims, 'migrate-1')).toBe(idempotencyKey(first.claims, 'migrate-1'));
    expect(idempotencyKey(second.claims, 'migrate-2')).not.toBe(idempotencyKey(second.claims, 'migrate-1'));

    // A checkpoint releases the Execution Lease: the token is revoked with no write of its own.
    await agent.command('work.checkpoint', { workItemId, ownershipEpoch: 1, executionLeaseId: leaseId, checkpoint: { phase: 'half', createdAt: new Date(server.harness.clock.millis).toISOString() }, resumeWithinSeconds: 600 }, { groupId: mission.groupId, membershipEpoch: 1 });
    expect(await verifyCapabilityOnline(second.token, registry, endpoint(), expect1, now)).toMatchObject({ ok: false, reason: 'revoked' });
    expect(await refusal(client.request(request))).toBe('INVALID_STATE_TRANSITION');
  });

  it('refuses a tampered or forged token, a request without a live Session, a stale lease, a ceiling over budget', async () => {
    const { workItemId, leaseId } = await startedWork();
    const client = agent.capabilities();
    const issued = await client.request({ groupId: mission.groupId, workItemId, ownershipEpoch: 1, executionLeaseId: leaseId });
    tokens.push(issued.token);
    const [prefix, claims, signature] = issued.token.split('.') as [string, string, string];
    const tampered = `${prefix}.${Buffer.from(Buffer.from(claims, 'base64url').toString('utf8').replace(workItemId, `${workItemId}-other`)).toString('base64url')}.${signature}`;
    const now = server.harness.clock.millis;
    expect(verifyCapabilityOffline(tampered, registry, {}, now)).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(await verifyCapabilityOnline(`${prefix}.${claims}.${'A'.repeat(86)}`, registry, endpoint(), {}, now)).toMatchObject({ ok: false, reason: 'bad-signature' });
    const stranger = new CapabilityClient(endpoint(), () => 'not-a-session-token');
    expect(await refusal(stranger.request({ groupId: mission.groupId, workItemId, ownershipEpoch: 1, executionLeaseId: leaseId }))).toBe('AUTH_REQUIRED');
    expect(await refusal(client.request({ groupId: mission.groupId, workItemId, ownershipEpoch: 1, executionLeaseId: 'urn:missionweave:lease:old' }))).toBe('WORK_LEASE_EXPIRED');
    expect(await refusal(client.request({ groupId: mission.groupId, workItemId, ownershipEpoch: 1, executionLeaseId: leaseId, limits: { toolCalls: 3 } }))).toBe('BUDGET_EXCEEDED');
    expect(await refusal(client.request({ groupId: mission.groupId, workItemId, ownershipEpoch: 2, executionLeaseId: leaseId }))).toBe('WORK_STALE_OWNERSHIP');
  });

  it('withholds work.start and the token of policy-gated (destructive) work until a human approves it (APPROVAL_REQUIRED)', async () => {
    const { workItemId } = await startedWork({ sideEffectRisk: 'destructive' });
    expect(await refusal(agent.command('work.start', { workItemId, ownershipEpoch: 1 }, { groupId: mission.groupId, membershipEpoch: 1 }))).toBe('APPROVAL_REQUIRED');
    await server.harness.expectOk(server.harness.send(owner, 'approval.grant_execution', { approvalId: `urn:missionweave:approval:${randomUUID()}`, workItemId, ownershipEpoch: 1, operations: ['db.migrate'] }, { groupId: mission.groupId, membershipEpoch: 1 }));
    const started = await agent.command('work.start', { workItemId, ownershipEpoch: 1 }, { groupId: mission.groupId, membershipEpoch: 1 });
    const leaseId = (started['payload'] as { executionLease: { leaseId: string } }).executionLease.leaseId;
    const issued = await agent.capabilities().request({ groupId: mission.groupId, workItemId, ownershipEpoch: 1, executionLeaseId: leaseId });
    tokens.push(issued.token);
    expect(issued.claims.resources).toEqual([{ resource: STAGING_DB, operations: ['db.migrate'] }]);
    receipts.push(JSON.stringify(started));
  });

  it('refuses a charge with a forged token or a malformed body, appending nothing', async () => {
    const { workItemId, leaseId } = await startedWork();
    const issued = await agent.capabilities().request({ groupId: mission.groupId, workItemId, ownershipEpoch: 1, executionLeaseId: leaseId, limits: { toolCalls: 1 } });
    tokens.push(issued.token);
    const [prefix, claims] = issued.token.split('.') as [string, string];
    expect(await refusal(chargeCapability(`${prefix}.${claims}.${'A'.repeat(86)}`, { toolCalls: 1 }, 'call-1', endpoint()))).toBe('AUTH_FORBIDDEN');
    expect(await refusal(chargeCapability(issued.token, { toolCalls: 1 }, 'not an id!', endpoint()))).toBe('SCHEMA_VALIDATION_FAILED');
  });

  // The charge itself is recorded by `ext.missionweaveprotocol.core.resource_usage_record`, whose
  // decider is another part of issue 12: this case runs once that kind is registered.
  it.skipIf(coreKinds.kind(USAGE_RECORD) === undefined)('charges a tool call to the token; a second call beyond its one-call ceiling is BUDGET_EXCEEDED; a retried operation is one charge', async () => {
    const { workItemId, leaseId } = await startedWork();
    const issued = await agent.capabilities().request({ groupId: mission.groupId, workItemId, ownershipEpoch: 1, executionLeaseId: leaseId, limits: { toolCalls: 1 } });
    tokens.push(issued.token);
    await chargeCapability(issued.token, { toolCalls: 1 }, 'call-1', endpoint());
    await chargeCapability(issued.token, { toolCalls: 1 }, 'call-1', endpoint()).catch(() => undefined);
    expect(await refusal(chargeCapability(issued.token, { toolCalls: 1 }, 'call-2', endpoint()))).toBe('BUDGET_EXCEEDED');
    const recorded = (await eventsOf(server.db.pool, mission.groupId)).filter((e) => e['kind'] === `${USAGE_RECORD}ed` && (e['payload'] as JsonObject)['workItemId'] === workItemId);
    expect(recorded).toHaveLength(1);
    expect((recorded[0]?.['payload'] as JsonObject)['capabilityTokenId']).toBe(issued.claims.tokenId);
  });

  it('the scan: no token appears in any Event, stored row or captured log line', async () => {
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    // Every row of every table, whatever a later migration adds.
    const tables = await server.db.pool.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`);
    const dumps: string[] = [];
    for (const { name } of tables.rows) {
      const rows = await server.db.pool.query<{ dump: string | null }>(`select string_agg(to_jsonb(t)::text, E'\\n') as dump from "${name}" t`);
      dumps.push(rows.rows[0]?.dump ?? '');
    }
    const stored = dumps.join('\n');
    // Each grant is a recorded fact: the Authority service's Command, its signed Event.
    const granted = (await eventsOf(server.db.pool, mission.groupId)).filter((e) => e['kind'] === `${GRANT}ed`);
    expect(granted).toHaveLength(tokens.length);
    for (const event of granted) expect(event['actor']).toEqual(server.harness.authority.settings.services.authority);
    expect(await server.harness.send(worker, GRANT, { workItemId: 'urn:x:w', agentId: worker.principal.id, sessionEpoch: 1, ownershipEpoch: 1, executionLeaseId: 'urn:x:l' }, { groupId: mission.groupId, membershipEpoch: 1, sessionEpoch: agent.sessionEpoch })).toMatchObject({ ok: false, error: { code: 'AUTH_FORBIDDEN' } });
    const logs = logLines.join('');
    expect(logs).toContain('capability token issued');
    for (const token of tokens) {
      const signature = token.split('.')[2] as string;
      for (const [where, text] of [['stored rows', stored], ['log lines', logs], ['receipts', receipts.join('\n')]] as const) {
        expect(text.includes(token), `a token in ${where}`).toBe(false);
        expect(text.includes(signature), `a token signature in ${where}`).toBe(false);
      }
    }
  });
});
