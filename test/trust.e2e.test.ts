/**
 * Trust a third party can check: `GET /v1/registry` publishes the Registry's public key
 * bindings to any live session, an Agent's or a human's, signed by the Registry service so that
 * the Organization's published key alone checks them (and a changed copy fails); the SDK
 * verifies every Event against it before delivery (a stored
 * Event tampered in PostgreSQL is refused with a typed error, never delivered, never skipped),
 * reads the Registry again for a key it does not know yet, signs with a pluggable Signer, and
 * sends Commands signed elsewhere byte for byte. Real wss, TLS 1.3 and PostgreSQL.
 */

import { createPublicKey, randomUUID, sign, verify } from 'node:crypto';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canonicalize,
  EventVerificationError,
  keySigner,
  MissionWeaveAgent,
  MissionWeaveError,
  sha256ContentHash,
  signingHash,
  signWith,
  type AgentError,
  type GroupEvent,
  type MissionWeaveAgentOptions,
  verifyRegistrySnapshot,
} from '../src/client/index.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { KeyRegistry, RegistryProblem } from '../src/protocol/signing/keyRegistry.js';
import { generatePrivateKey, publicKeyBase64url, signDocument } from '../src/protocol/signing/signDocument.js';
import { verifySignedDocument } from '../src/protocol/signing/verifySignedDocument.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Actor } from './support/harness.js';
import { signIn } from './support/humanReader.js';
import { createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let coordinator: Actor;
const running: MissionWeaveAgent[] = [];

beforeAll(async () => {
  ({ server, owner, coordinator } = await serverWorld({ humans: { owner: 'owner' }, agents: { coordinator: {} } }));
});

afterAll(async () => {
  await Promise.all(running.map((agent) => agent.close()));
});

function sdkAgent(actor: Actor, options: Partial<MissionWeaveAgentOptions> = {}): MissionWeaveAgent {
  const base = options.signer === undefined ? { keyId: actor.key.keyId, privateKey: actor.key.privateKey } : {};
  const agent = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: actor.principal.id, reconnect: { initialDelayMs: 50, maxDelayMs: 500 }, ...base, ...options });
  running.push(agent);
  return agent;
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function missionWithPosts(count: number): Promise<MissionRefs> {
  const mission = await createMission(server.harness, owner, coordinator);
  for (let i = 0; i < count; i++) {
    await server.harness.expectOk(server.harness.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: `post ${i}` }, { groupId: mission.groupId, membershipEpoch: 1 }));
  }
  return mission;
}

function getRegistry(token?: string): Promise<{ status: number; revision: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
    const req = request(new URL('/v1/registry', server.httpsUrl), { method: 'GET', ca: server.ca, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, revision: res.headers['missionweave-registry-revision'] as string | undefined, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Collects what an Agent delivers and reports. */
function observe(agent: MissionWeaveAgent): { delivered: GroupEvent[]; errors: AgentError[] } {
  const seen = { delivered: [] as GroupEvent[], errors: [] as AgentError[] };
  agent.onEvent((event) => void seen.delivered.push(event));
  agent.onError((error) => void seen.errors.push(error));
  return seen;
}

describe('GET /v1/registry', () => {
  it('needs a live session: 401 AUTH_REQUIRED without one or with a made-up token', async () => {
    for (const token of [undefined, 'not-a-session']) {
      const answer = await getRegistry(token);
      expect(answer.status).toBe(401);
      expect((JSON.parse(answer.text) as { error: { code: string } }).error.code).toBe('AUTH_REQUIRED');
    }
  });

  it('serves every binding with its validity, public keys only, loadable as stage-4 evidence that verifies a Group', async () => {
    const mission = await missionWithPosts(2);
    const raw = await RawClient.open(server.url, server.ca);
    await raw.hello(coordinator);
    const answer = await getRegistry(raw.sessionToken);
    raw.ws.close();
    expect(answer.status).toBe(200);
    const document = JSON.parse(answer.text) as { registry: JsonObject & { bindings: JsonObject[] }; snapshot: { revision: number } };
    expect(answer.text).toBe(canonicalize(document));
    expect(answer.revision).toBe(String(document.snapshot.revision));
    expect(document.snapshot.revision).toBe(server.harness.authority.registry.current.revision);
    expect(Object.keys(document.registry).sort()).toEqual(['bindings', 'organizationId']);
    const keyIds = document.registry.bindings.map((b) => b['keyId']);
    for (const actor of [owner, coordinator, server.harness.registry, server.harness.authorityActor]) expect(keyIds).toContain(actor.key.keyId);
    for (const binding of document.registry.bindings) expect(Object.keys(binding).sort()).toEqual(['algorithm', 'keyId', 'principal', 'publicKey', 'validFrom', 'validityHistory']);

    const registry = KeyRegistry.fromEvidence(document.registry);
    for (const event of await eventsOf(server.db.pool, mission.groupId)) {
      const result = verifySignedDocument('event', Buffer.from(JSON.stringify(event)), registry, schemaRegistry());
      expect(result.ok && result.verified.principal).toEqual(server.harness.settings.services.authority);
    }
  });

  it('serves a human reader’s session as it serves an Agent’s: any live session reads it', async () => {
    const { token } = await signIn(server, owner);
    const answer = await getRegistry(token);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.revision).toBe(String(server.harness.authority.registry.current.revision));
  });
});

describe('the signed Registry snapshot', () => {
  it('is signed by the Registry service: a third party holding only the Organization’s published key checks the bytes served', async () => {
    const { token } = await signIn(server, owner);
    const answer = await getRegistry(token);
    const published = { keyId: server.harness.registry.key.keyId, publicKey: publicKeyBase64url(server.harness.registry.key.privateKey) };

    // node:crypto and RFC 8785 alone: the signature covers the JCS bytes of everything but itself.
    const { signature, ...signed } = JSON.parse(answer.text) as { signature: { algorithm: string; keyId: string; createdAt: string; value: string }; snapshot: { revision: number; createdAt: string; createdBy: unknown } };
    expect(signature).toMatchObject({ algorithm: 'Ed25519', keyId: published.keyId, createdAt: signed.snapshot.createdAt });
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: published.publicKey }, format: 'jwk' });
    expect(verify(null, Buffer.from(canonicalize(signed), 'utf8'), key, Buffer.from(signature.value, 'base64url'))).toBe(true);
    expect(signed.snapshot).toMatchObject({ revision: server.harness.authority.registry.current.revision, createdBy: server.harness.registry.principal });
    expect(answer.revision).toBe(String(signed.snapshot.revision));

    // The SDK's check, with the same published key and bytes.
    const checked = verifyRegistrySnapshot(answer.text, published);
    expect(checked.revision).toBe(signed.snapshot.revision);
    expect(checked.registry.resolve(server.harness.settings.authorityKey.keyId)?.principal).toEqual(server.harness.settings.services.authority);
  });

  it('fails once anything in it is changed, or under any key but the published one', async () => {
    const answer = await getRegistry((await signIn(server, owner)).token);
    const published = { keyId: server.harness.registry.key.keyId, publicKey: publicKeyBase64url(server.harness.registry.key.privateKey) };
    const document = JSON.parse(answer.text) as { registry: { bindings: JsonObject[] }; snapshot: JsonObject; signature: JsonObject };
    const tampered: Record<string, unknown> = {
      'a binding dropped': { ...document, registry: { ...document.registry, bindings: document.registry.bindings.slice(1) } },
      'another revision': { ...document, snapshot: { ...document.snapshot, revision: Number(document.snapshot['revision']) + 1 } },
      'another context generator': { ...document, snapshot: { ...document.snapshot, contextGenerator: coordinator.principal } },
      'a member added beside': { ...document, extra: true },
    };
    for (const [change, copy] of Object.entries(tampered)) {
      expect(() => verifyRegistrySnapshot(JSON.stringify(copy), published), change).toThrow(RegistryProblem);
    }
    expect(() => verifyRegistrySnapshot(JSON.stringify(tampered['another revision']), published)).toThrow(expect.objectContaining({ reason: 'registry-snapshot-signature-mismatch' }));
    const otherKey = publicKeyBase64url(generatePrivateKey());
    expect(() => verifyRegistrySnapshot(answer.text, { ...published, publicKey: otherKey })).toThrow(expect.objectContaining({ reason: 'registry-snapshot-signature-mismatch' }));
    expect(() => verifyRegistrySnapshot(answer.text, { ...published, keyId: 'urn:uuid:another-key' })).toThrow(expect.objectContaining({ reason: 'registry-snapshot-key-not-published' }));
  });

  it('is what an SDK Agent given the published key verifies Events against; under another key every Event fails stage 4', async () => {
    const mission = await missionWithPosts(1);
    const published = { keyId: server.harness.registry.key.keyId, publicKey: publicKeyBase64url(server.harness.registry.key.privateKey) };
    const agent = sdkAgent(coordinator, { registryKey: published });
    const seen = observe(agent);
    await agent.connect();
    await agent.subscribe(mission.groupId);
    await until(() => seen.delivered.length === 2);
    expect(seen.errors).toEqual([]);

    const misled = sdkAgent(coordinator, { registryKey: { ...published, publicKey: publicKeyBase64url(generatePrivateKey()) } });
    const refused = observe(misled);
    await misled.connect();
    await misled.subscribe(mission.groupId);
    await until(() => refused.errors.length > 0);
    expect(refused.delivered).toEqual([]);
    expect(refused.errors[0]).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE', details: { stage: 'key-resolution', reason: 'registry-snapshot-signature-mismatch', sequence: 1 } });
  });
});

describe('Event verification in the SDK', () => {
  it('verifies Events by default and delivers every one of them, in order', async () => {
    const mission = await missionWithPosts(3);
    const agent = sdkAgent(coordinator);
    const seen = observe(agent);
    await agent.connect();
    await agent.subscribe(mission.groupId);
    await until(() => seen.delivered.length === 4);
    expect(seen.delivered.map((e) => e.sequence)).toEqual([1, 2, 3, 4]);
    expect(seen.errors).toEqual([]);
  });

  it('refuses an Event tampered in the store with a typed error: not delivered, and nothing after it either', async () => {
    const mission = await missionWithPosts(4);
    const forged = 3;
    await server.db.pool.query("update events set document = replace(document, '\"post 1\"', '\"post 1 (edited)\"') where group_id = $1 and sequence = $2", [mission.groupId, forged]);
    const agent = sdkAgent(coordinator);
    const seen = observe(agent);
    await agent.connect();
    await agent.subscribe(mission.groupId);
    // Without verification all five arrive; with it, the first two and then the error.
    await until(() => seen.errors.length > 0 || seen.delivered.length === 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.delivered.map((e) => e.sequence)).toEqual([1, 2]);
    const error = seen.errors[0] as MissionWeaveError;
    expect(error).toBeInstanceOf(MissionWeaveError);
    expect(error).toBeInstanceOf(EventVerificationError);
    expect(error).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE', groupId: mission.groupId, retryable: false, details: { stage: 'signature', reason: 'signature-mismatch', sequence: forged } });
    expect(agent.cursor(mission.groupId)).toBe(forged - 1);
  });

  it('reads the Registry again for a key enrolled after it was fetched, then delivers', async () => {
    const mission = await missionWithPosts(1);
    const agent = sdkAgent(coordinator);
    const seen = observe(agent);
    await agent.connect();
    await agent.subscribe(mission.groupId);
    await until(() => seen.delivered.length === 2);

    // A new Group Authority key, bound after the SDK cached the Registry, re-signs Event 2.
    const privateKey = generatePrivateKey();
    const keyId = `urn:uuid:${randomUUID()}`;
    await server.harness.authority.enrolKey({ keyId, principal: server.harness.settings.services.authority, algorithm: 'Ed25519', publicKey: publicKeyBase64url(privateKey), validFrom: '2020-01-01T00:00:00Z', validityHistory: [] });
    const [, second] = await eventsOf(server.db.pool, mission.groupId);
    const resigned = signDocument('event', second as JsonObject, { keyId, privateKey });
    await server.db.pool.query('update events set document = $3 where group_id = $1 and sequence = $2', [mission.groupId, 2, JSON.stringify(resigned)]);

    const again = sdkAgent(coordinator);
    const replayed = observe(again);
    await again.connect();
    await again.subscribe(mission.groupId);
    await until(() => replayed.delivered.length === 2);
    expect(replayed.delivered[1]?.signature.keyId).toBe(keyId);
    expect(replayed.errors).toEqual([]);
  });

  it('refuses every Event under a pinned Registry that lacks the Group Authority key, and delivers with the opt-out', async () => {
    const mission = await missionWithPosts(1);
    const snapshot = server.harness.authority.registry.current.registry.evidence();
    const pinned = { ...snapshot, bindings: snapshot.bindings.filter((b) => b.keyId !== server.harness.settings.authorityKey.keyId) };
    const agent = sdkAgent(coordinator, { registry: pinned });
    const seen = observe(agent);
    await agent.connect();
    await agent.subscribe(mission.groupId);
    await until(() => seen.errors.length > 0);
    expect(seen.delivered).toEqual([]);
    expect(seen.errors[0]).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE', details: { stage: 'key-resolution', reason: 'unknown-key', sequence: 1 } });

    expect(() => sdkAgent(coordinator, { registry: { ...snapshot, bindings: snapshot.bindings.map((b) => ({ ...b, publicKey: 'AAAA' })) } })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));

    const trusting = sdkAgent(coordinator, { verifyEvents: false });
    const unchecked = observe(trusting);
    await trusting.connect();
    await trusting.subscribe(mission.groupId);
    await until(() => unchecked.delivered.length === 2);
  });
});

describe('signing with the SDK', () => {
  it('takes a pluggable Signer for HELLO and for Commands', async () => {
    const mission = await missionWithPosts(0);
    const local = keySigner(coordinator.key.keyId, coordinator.key.privateKey);
    const signed: Uint8Array[] = [];
    const agent = sdkAgent(coordinator, {
      signer: {
        keyId: coordinator.key.keyId,
        sign: async (bytes) => {
          signed.push(bytes);
          await new Promise((resolve) => setTimeout(resolve, 5));
          return local.sign(bytes);
        },
      },
    });
    await agent.connect();
    expect(signed).toHaveLength(1);
    const event = await agent.command('message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: 'signed by a KMS' }, { groupId: mission.groupId, membershipEpoch: 1 });
    expect(event.kind).toBe('message.posted');
    expect(signed).toHaveLength(2);
    expect(event.commandHash).toBe(sha256ContentHash(signed[1] as Uint8Array));
  });

  it('refuses a signer that returns something other than a 64-byte signature', async () => {
    const agent = sdkAgent(coordinator, { signer: { keyId: coordinator.key.keyId, sign: () => new Uint8Array(10) } });
    await expect(agent.connect()).rejects.toMatchObject({ code: 'CONNECTION_FAILED' });
  });

  it('sends a Command signed elsewhere byte for byte and resolves with its Event', async () => {
    const mission = await missionWithPosts(0);
    const agent = sdkAgent(coordinator);
    await agent.connect();
    const received: string[] = [];
    const registry = server.listener.sessions as unknown as { byAgent: Map<string, Set<{ ws: { on(event: 'message', listener: (data: Buffer) => void): void } }>> };
    for (const connection of registry.byAgent.get(coordinator.principal.id) ?? []) connection.ws.on('message', (data) => received.push(data.toString('utf8')));

    const unsigned = {
      protocolVersion: '0.1',
      actionId: `urn:uuid:${randomUUID()}`,
      actor: coordinator.principal,
      kind: 'message.post',
      groupId: mission.groupId,
      sessionEpoch: agent.sessionEpoch,
      membershipEpoch: 1,
      correlationId: `urn:uuid:${randomUUID()}`,
      issuedAt: new Date(server.harness.clock.millis).toISOString(),
      payload: { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: 'signed in another process' },
    };
    const elsewhere = { keyId: coordinator.key.keyId, sign: (bytes: Uint8Array) => sign(null, bytes, coordinator.key.privateKey) };
    const { document, signingHash: hash } = await signWith('command', unsigned, elsewhere);
    const text = JSON.stringify(document, null, 1);
    expect(signingHash(document)).toBe(hash);

    const event = await agent.sendSigned(text);
    expect(event).toMatchObject({ kind: 'message.posted', cause: { type: 'command', id: unsigned.actionId }, commandHash: hash });
    expect(received.some((frame) => frame.includes(`"command":${text}}`))).toBe(true);
    expect(canonicalize(JSON.parse(text))).toBe(canonicalize(document));
  });

  it('refuses to send a Command signed as another Principal', async () => {
    const agent = sdkAgent(coordinator);
    await agent.connect();
    const other = { ...server.harness.sign(owner, 'message.post', { content: 'x' }, { groupId: 'urn:missionweave:group:x', membershipEpoch: 1 }) };
    await expect(agent.sendSigned(other)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
