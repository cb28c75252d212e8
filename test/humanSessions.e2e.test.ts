/**
 * Human sessions over real TLS (docs/human-api.md): a challenge signed with the human's
 * registered key opens a session; an unknown human gets an answer of the same shape; a wrong
 * signature, a reused or forged challenge, an ended or expired session are AUTH_REQUIRED; no
 * number of challenges for a human locks them out; an event stream outlives the request timeout; and a session token never
 * authorizes a Command.
 */

import { beforeAll, expect, it } from 'vitest';
import { canonicalBytes } from '../src/protocol/jcs.js';
import { httpStatusOf } from '../src/protocol/errorCodes.js';
import { signBytes } from '../src/protocol/signing/signDocument.js';
import type { Actor } from './support/harness.js';
import { httpJson, signIn, SseReader } from './support/humanReader.js';
import { createMission } from './support/missions.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let alice: Actor;

beforeAll(async () => {
  // A short request timeout: an event stream must outlive it (it bounds receiving a request only).
  server = await startTestServer({ requestTimeoutMs: 1_000, requestHeadersTimeoutMs: 1_000, streamHeartbeatMs: 200 });
  alice = await server.harness.human('alice');
});

const challenge = (humanId: string, keyId: string) => httpJson(server, 'POST', '/v1/human-sessions/challenge', { body: { humanId, keyId } });

it('opens a session for the signed challenge, once', async () => {
  const issued = await challenge(alice.principal.id, alice.key.keyId);
  expect(issued.status).toBe(200);
  expect(issued.body.transcript).toMatchObject({ type: 'missionweave.human-session.v1', humanId: alice.principal.id, keyId: alice.key.keyId, audience: new URL(server.httpsUrl).host });
  const signature = signBytes(alice.key.privateKey, canonicalBytes(issued.body.transcript));
  const opened = await httpJson(server, 'POST', '/v1/human-sessions', { body: { challengeId: issued.body.challengeId, signature } });
  expect(opened.status).toBe(201);
  expect(opened.body).toMatchObject({ humanId: alice.principal.id, keyId: alice.key.keyId });
  expect(Date.parse(opened.body.expiresAt) - server.harness.clock.millis).toBeGreaterThan(14 * 60_000);
  const me = await httpJson(server, 'GET', '/v1/me', { token: opened.body.token });
  expect(me.body.principal).toEqual(alice.principal);
  const reused = await httpJson(server, 'POST', '/v1/human-sessions', { body: { challengeId: issued.body.challengeId, signature } });
  expect({ status: reused.status, code: reused.body.error.code }).toEqual({ status: httpStatusOf('AUTH_REQUIRED'), code: 'AUTH_REQUIRED' });
});

it('does not tell who is registered, and refuses a wrong signature', async () => {
  const known = await challenge(alice.principal.id, alice.key.keyId);
  const unknown = await challenge('urn:missionweave:human:nobody', 'urn:uuid:00000000-0000-4000-8000-000000000000');
  expect(unknown.status).toBe(known.status);
  expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
  expect(Object.keys(unknown.body.transcript).sort()).toEqual(Object.keys(known.body.transcript).sort());
  const other = await server.harness.human('mallory');
  const wrong = await httpJson(server, 'POST', '/v1/human-sessions', { body: { challengeId: known.body.challengeId, signature: signBytes(other.key.privateKey, canonicalBytes(known.body.transcript)) } });
  expect({ status: wrong.status, code: wrong.body.error.code }).toEqual({ status: httpStatusOf('AUTH_REQUIRED'), code: 'AUTH_REQUIRED' });
  const malformed = await httpJson(server, 'POST', '/v1/human-sessions/challenge', { body: { humanId: alice.principal.id } });
  expect({ status: malformed.status, code: malformed.body.error.code }).toEqual({ status: 400, code: 'PROTOCOL_VIOLATION' });
});

it('does not lock a human out however many challenges others ask for them, and refuses a forged one', async () => {
  const bob = await server.harness.human('bob');
  const answers = [];
  for (let i = 0; i < 20; i++) answers.push(await challenge(bob.principal.id, bob.key.keyId));
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  const { token } = await signIn(server, bob);
  expect((await httpJson(server, 'GET', '/v1/me', { token })).body.principal).toEqual(bob.principal);
  const issued = answers[0]?.body;
  const signature = signBytes(bob.key.privateKey, canonicalBytes(issued.transcript));
  const bytes = Buffer.from(issued.challengeId, 'base64url');
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
  const forged = await httpJson(server, 'POST', '/v1/human-sessions', { body: { challengeId: bytes.toString('base64url'), signature } });
  expect({ status: forged.status, code: forged.body.error.code }).toEqual({ status: httpStatusOf('AUTH_REQUIRED'), code: 'AUTH_REQUIRED' });
  const genuine = await httpJson(server, 'POST', '/v1/human-sessions', { body: { challengeId: issued.challengeId, signature } });
  expect(genuine.status).toBe(201);
});

it('keeps an event stream open past the request timeout, beating', async () => {
  const mission = await createMission(server.harness, alice, await server.harness.agent('coordinator'));
  const { token } = await signIn(server, alice);
  const stream = await SseReader.open(server, `/v1/groups/${encodeURIComponent(mission.groupId)}/stream`, token);
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect({ status: stream.status, ended: stream.ended, beating: stream.comments >= 5, frames: stream.frames.length }).toEqual({ status: 200, ended: false, beating: true, frames: 1 });
  stream.close();
});

it('ends a session on request and when it expires', async () => {
  const ended = await signIn(server, alice);
  expect((await httpJson(server, 'DELETE', '/v1/human-sessions/current', { token: ended.token })).status).toBe(204);
  expect((await httpJson(server, 'GET', '/v1/me', { token: ended.token })).status).toBe(httpStatusOf('AUTH_REQUIRED'));
  const expiring = await signIn(server, alice);
  expect((await httpJson(server, 'GET', '/v1/me', { token: expiring.token })).status).toBe(200);
  server.harness.clock.advance(15 * 60);
  const expired = await httpJson(server, 'GET', '/v1/me', { token: expiring.token });
  expect({ status: expired.status, code: expired.body.error.code }).toEqual({ status: httpStatusOf('AUTH_REQUIRED'), code: 'AUTH_REQUIRED' });
});

it('refuses an unsigned Command even with a session token', async () => {
  const session = await signIn(server, alice);
  const unsigned = { kind: 'message.post', actor: alice.principal, payload: { content: 'hi' } };
  const refused = await httpJson(server, 'POST', '/v1/commands', { token: session.token, body: unsigned });
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(refused.body.error.code).not.toBe('INTERNAL_ERROR');
});
