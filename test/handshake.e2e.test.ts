/**
 * HELLO on a real wss server (TLS 1.3, port 0): success and every way it can fail, session
 * replacement fencing, and what happens before authentication.
 */

import { randomBytes } from 'node:crypto';
import { connect as tlsConnect } from 'node:tls';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from './support/harness.js';
import { createMission } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let agent: Actor;

beforeAll(async () => {
  ({ server, agent } = await serverWorld({ agents: { agent: { handle: 'hello' } }, limits: { challengeTtlMs: 300 } }));
});

const open = () => RawClient.open(server.url, server.ca);

describe('HELLO', () => {
  it('authenticates with a signature over the challenge bytes and issues the next Session Epoch', async () => {
    const client = await open();
    const first = await client.hello(agent);
    expect(first).toBeGreaterThan(0);
    const again = await open();
    expect(await again.hello(agent)).toBe(first + 1);
    client.close();
    again.close();
  });

  it('refuses a bad signature, an unknown key and a wrong Agent with the same opaque error', async () => {
    const cases: Actor[] = [
      { ...agent, key: { ...agent.key, keyId: 'urn:missionweave:key:unknown' } },
      { principal: { type: 'agent', id: 'urn:missionweave:agent:impostor' }, key: agent.key },
    ];
    const results: unknown[] = [];
    const tampered = await open();
    expect(await tampered.hello(agent, (sig) => Buffer.from(sig.map((b, i) => (i === 5 ? b ^ 1 : b))))).toBe(0);
    results.push(tampered.lastError(), await tampered.closed);
    for (const actor of cases) {
      const client = await open();
      expect(await client.hello(actor)).toBe(0);
      results.push(client.lastError(), await client.closed);
    }
    for (let i = 0; i < results.length; i += 2) {
      expect((results[i] as unknown as { error: unknown }).error).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE', message: 'signed document rejected', fatal: true });
      expect((results[i + 1] as unknown as { code: number }).code).toBe(4500);
    }
  });

  it('refuses an expired challenge and a response replayed on another connection', async () => {
    const slow = await open();
    const clientNonce = randomBytes(16).toString('base64url');
    slow.send({ frameType: 'HELLO', phase: 'client_init', agentId: agent.principal.id, keyId: agent.key.keyId, clientNonce, supportedVersions: ['0.1'] });
    const challenge = await slow.next((f) => f['phase'] === 'server_challenge');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const { sign } = await import('node:crypto');
    const response = { frameType: 'HELLO', phase: 'client_response', agentId: agent.principal.id, keyId: agent.key.keyId, clientNonce, serverNonce: challenge['serverNonce'], challengeSignature: sign(null, Buffer.from(String(challenge['challenge']), 'base64url'), agent.key.privateKey).toString('base64url') };
    slow.send(response);
    expect((await slow.error()).error).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE' });
    const replay = await open();
    replay.send({ frameType: 'HELLO', phase: 'client_init', agentId: agent.principal.id, keyId: agent.key.keyId, clientNonce, supportedVersions: ['0.1'] });
    await replay.next((f) => f['phase'] === 'server_challenge');
    replay.send(response);
    expect((await replay.error()).error).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE' });
  });

  it('answers any other frame before authentication with AUTH_REQUIRED and closes', async () => {
    const client = await open();
    client.send({ frameType: 'PING', nonce: 'AAAA', sentAt: new Date().toISOString() });
    expect((await client.error()).error).toMatchObject({ code: 'AUTH_REQUIRED', fatal: true });
    expect((await client.closed).code).toBe(4500);
  });

  it('answers a HELLO without a shared version with UNSUPPORTED_VERSION', async () => {
    const client = await open();
    client.send({ frameType: 'HELLO', phase: 'client_init', agentId: agent.principal.id, keyId: agent.key.keyId, clientNonce: 'AAAA', supportedVersions: ['0.2'] });
    expect((await client.error()).error).toMatchObject({ code: 'UNSUPPORTED_VERSION' });
    const other = await open();
    other.ws.send(JSON.stringify({ protocolVersion: '9.9', frameId: 'urn:x:1', frameType: 'HELLO' }));
    expect((await other.error()).error).toMatchObject({ code: 'UNSUPPORTED_VERSION' });
  });

  it('refuses TLS 1.2 clients at the TLS handshake', async () => {
    const url = new URL(server.httpsUrl);
    const outcome = await new Promise<string>((resolve) => {
      const socket = tlsConnect({ host: url.hostname, port: Number(url.port), ca: server.ca, maxVersion: 'TLSv1.2' });
      socket.once('secureConnect', () => resolve(`connected with ${socket.getProtocol()}`));
      socket.once('error', (error) => resolve(`refused: ${error.message}`));
    });
    expect(outcome).toMatch(/^refused/);
  });
});

describe('session replacement', () => {
  it('fences the older session: AUTH_STALE_SESSION, close 4501, and its Commands fail', async () => {
    const owner = await server.harness.human('owner');
    const mission = await createMission(server.harness, owner, agent);
    const old = await open();
    const oldEpoch = await old.hello(agent);
    const fresh = await open();
    const epoch = await fresh.hello(agent);
    expect(epoch).toBe(oldEpoch + 1);
    expect((await old.error('AUTH_STALE_SESSION')).error).toMatchObject({ fatal: true });
    expect((await old.closed).code).toBe(4501);
    // A Command signed under the fenced epoch fails even if it reaches the server another way.
    const stale = await server.harness.authority.submit(server.harness.sign({ ...agent, sessionEpoch: oldEpoch }, 'message.post', { messageId: `urn:uuid:${crypto.randomUUID()}`, conversationId: mission.mainConversationId, content: 'late' }, { groupId: mission.groupId, membershipEpoch: 1 }));
    expect(stale.ok ? 'accepted' : stale.error.code).toBe('AUTH_STALE_SESSION');
    fresh.close();
  });
});
