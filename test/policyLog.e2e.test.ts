/**
 * Refusals from the network reach the Policy Log (§6.4) with their first failing semantic stage:
 * a bad signature in a WebSocket COMMAND frame (verified on a crypto worker), an unknown key over
 * HTTPS and a forged HELLO response each leave exactly one record naming its transport, while
 * the caller only ever sees AUTH_INVALID_SIGNATURE. Each record is read straight from PostgreSQL
 * the moment the refusal arrives, nothing flushed first: it was committed before the answer left.
 */

import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { request } from 'node:https';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { readPolicyLog, type PolicyLogRow } from '../src/store/sql/policyLog.js';
import { insertValidityRecord } from '../src/store/sql/registry.js';
import type { Actor } from './support/harness.js';
import type { MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let agent: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ server, owner, agent, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { agent: { handle: 'worker' } },
    mission: { owner: 'owner', coordinator: 'agent' },
  }));
});

/** The Policy Log as PostgreSQL holds it now: no flush, so only what was committed. */
function records(): Promise<PolicyLogRow[]> {
  return readPolicyLog(server.db.pool, { limit: 10_000, keep: 'oldest' });
}

async function newRecords(before: readonly PolicyLogRow[]): Promise<PolicyLogRow[]> {
  const seen = new Set(before.map((r) => r.entryId));
  return (await records()).filter((r) => !seen.has(r.entryId));
}

function postCommand(body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/v1/commands', server.httpsUrl), { method: 'POST', ca: server.ca, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function message(actor: Actor, content: string) {
  return server.harness.sign(actor, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content }, { groupId: mission.groupId, membershipEpoch: 1 });
}

describe('refusals from the network', () => {
  it('records a tampered COMMAND over wss once, at stage signature', async () => {
    const client = await RawClient.open(server.url, server.ca);
    agent.sessionEpoch = await client.hello(agent);
    const before = await records();
    const command = message(agent, 'as signed');
    const tampered = { ...command, payload: { ...(command['payload'] as object), content: 'not as signed' } };
    client.send({ frameType: 'COMMAND', command: tampered });
    const error = await client.error();
    expect(error['error']).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE', message: 'signed document rejected' });
    client.send({ frameType: 'COMMAND', command: message(agent, 'accepted') });
    expect((await client.next((f) => f.frameType === 'EVENT' || f.frameType === 'ERROR')).frameType).toBe('EVENT');
    const written = await newRecords(before);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      stage: 'signature',
      code: 'AUTH_INVALID_SIGNATURE',
      transport: 'wss',
      claimedActorId: agent.principal.id,
      claimedKeyId: agent.key.keyId,
      claimedActionId: command['actionId'],
      claimedGroupId: mission.groupId,
      signingHash: null,
    });
    expect(written[0]?.address).toMatch(/127\.0\.0\.1/);
    client.close();
  });

  it('records a Command under an unknown key over HTTPS once, at stage key-resolution', async () => {
    const before = await records();
    const { privateKey } = generateKeyPairSync('ed25519');
    const impostor: Actor = { principal: owner.principal, key: { keyId: `urn:uuid:${randomUUID()}`, privateKey } };
    const response = await postCommand(JSON.stringify(message(impostor, 'who am I')));
    expect(response.status).toBe(401);
    expect(JSON.parse(response.text).error).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE', message: 'signed document rejected' });
    const written = await newRecords(before);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ stage: 'key-resolution', code: 'AUTH_INVALID_SIGNATURE', transport: 'https', claimedKeyId: impostor.key.keyId, claimedActorId: owner.principal.id });
  });

  it('refuses a HELLO whose key was revoked while its session opened, once the open brought the Registry up to date', async () => {
    const late = await server.harness.agent('revoked-during-hello');
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the key's first valid second
    // The delivery poll brings this node's Registry up to date once a second (src/delivery/
    // notifier.ts): held off here, so that only the session's own transaction can. A poll between
    // the revocation and the HELLO made the refusal the plain `key-not-valid-now` (once, on Citus).
    const authority = server.harness.authority as { refreshRegistry: () => Promise<boolean> };
    const refresh = authority.refreshRegistry;
    authority.refreshRegistry = () => Promise.resolve(false);
    onTestFinished(() => void (authority.refreshRegistry = refresh));
    // Revoked in the database without the NOTIFY a node would send: this node's Registry copy is
    // stale until the session's own transaction brings it up to the database's revision.
    const revokedAt = `${new Date().toISOString().slice(0, 19)}Z`;
    const db = server.db.pool;
    const { rows } = await db.query<{ registry_revision: number }>('update organization_state set registry_revision = registry_revision + 1 returning registry_revision');
    const last = await db.query<{ sequence: number }>('select max(sequence)::int as sequence from key_validity_records where key_id = $1', [late.key.keyId]);
    await insertValidityRecord(db, late.key.keyId, { sequence: (last.rows[0]?.sequence ?? 0) + 1, recordedAt: revokedAt, revokedAt }, rows[0]?.registry_revision as number);
    const before = await records();
    const client = await RawClient.open(server.url, server.ca);
    expect(await client.hello(late)).toBe(0);
    expect(client.lastError()?.['error']).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE' });
    const written = await newRecords(before);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ stage: 'key-resolution', reason: 'after-session-open-key-not-valid-now', transport: 'hello', claimedActorId: late.principal.id, claimedKeyId: late.key.keyId });
    client.close();
  });

  it('records a forged HELLO response once, at stage signature', async () => {
    const before = await records();
    const client = await RawClient.open(server.url, server.ca);
    const epoch = await client.hello(agent, (signature) => {
      const forged = Buffer.from(signature);
      forged[0] = (forged[0] ?? 0) ^ 1;
      return forged;
    });
    expect(epoch).toBe(0);
    expect(client.lastError()?.['error']).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE' });
    const written = await newRecords(before);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ stage: 'signature', reason: 'signature-mismatch', transport: 'hello', claimedActorId: agent.principal.id, claimedKeyId: agent.key.keyId });
    client.close();
  });
});
