/**
 * The Artifact store over real TLS (§13.1), through the SDK: a file is uploaded in chunks and
 * downloaded with its hash verified; requests without a live session, from Agents that read no
 * publishing Group, of content that does not match its name, or declared too large are refused
 * with their §19 code and the status the catalogue gives it; a corrupted stored chunk never
 * reaches a destination file. Published Artifacts are seeded as `artifact` aggregate rows at the
 * store level (support/artifacts.ts), except where Mission isolation is shown (§13.3): there
 * Workers of two Missions publish through the pipeline, and one Mission's bytes reach the other
 * only by an explicit reuse its Event records.
 */

import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactUri, buildArtifactManifest, downloadArtifact, uploadArtifact, type ArtifactEndpoint } from '../src/client/artifacts.js';
import { keySigner, signingBytes } from '../src/client/signer.js';
import { decodeBase64url } from '../src/protocol/base64url.js';
import { httpStatusOf, type ErrorCode } from '../src/protocol/errorCodes.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import type { MissionWeaveArtifactManifest } from '../src/protocol/schemas/payloadTypes.js';
import { DEFAULT_ARTIFACT_LIMITS } from '../src/app/artifacts/artifactLimits.js';
import { contentHashOf, seedPublishedArtifact } from './support/artifacts.js';
import type { Actor } from './support/harness.js';
import { createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { activeWork, publish, signedManifest, WORKER_CAPABILITIES } from './support/publishedWork.js';
import { RawClient } from './support/rawClient.js';
import { testCertificate, type TestServer } from './support/server.js';
import { GroupAccess } from '../src/app/groupAccess.js';
import { startListener, type RunningListener } from '../src/transport/listener.js';
import pino from 'pino';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let mission: MissionRefs;
const dir = mkdtempSync(join(tmpdir(), 'mw-artifacts-'));
/** Second nodes on the same database whose Artifact limit is 1 MiB, one with a request timeout of 5 s, so that oversize and trickling uploads are cheap to test. */
const SMALL_LIMIT = 1024 * 1024;
let small: RunningListener;
let impatient: RunningListener;
let smallToken: string;
let impatientToken: string;
const sessions: Record<'producer' | 'reader' | 'stranger', { actor: Actor; client: RawClient }> = {} as never;

beforeAll(async () => {
  ({ server, owner, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
  }));
  for (const handle of ['producer', 'reader', 'stranger'] as const) {
    const actor = await server.harness.agent(handle);
    const client = await RawClient.open(server.url, server.ca);
    await client.hello(actor);
    sessions[handle] = { actor, client };
  }
  const { authority } = server.harness;
  // Two listeners with the 1 MiB limit: the streamed oversize upload gets the default request
  // timeout, the trickling one a timeout of 5 s. On a Citus cluster under load (load average 17
  // to 33) a timeout of 1 s answered the streamed upload 408 before its first MiB was stored,
  // and cut the trickling one before its first chunk was, which the test waits to see.
  const tls = await testCertificate();
  const smallListener = (limits: { requestTimeoutMs: number; requestHeadersTimeoutMs: number } | undefined) => startListener({
    host: '127.0.0.1', port: 0, tls, ...(limits === undefined ? {} : { limits }), databaseUrl: server.db.url, authority, logger: pino({ level: 'silent' }), clock: authority.clock,
    groups: new GroupAccess(server.db.pool, authority.settings, authority.kinds, { maxContentBytes: SMALL_LIMIT }),
    service: { principal: authority.settings.services.authority, key: authority.settings.authorityKey },
  });
  small = await smallListener(undefined);
  impatient = await smallListener({ requestTimeoutMs: 5_000, requestHeadersTimeoutMs: 5_000 });
  afterAll(() => small.close());
  afterAll(() => impatient.close());
  const smallClient = await RawClient.open(small.url, server.ca);
  await smallClient.hello(await server.harness.agent('small-producer'));
  smallToken = smallClient.sessionToken;
  const impatientClient = await RawClient.open(impatient.url, server.ca);
  await impatientClient.hello(await server.harness.agent('impatient-producer'));
  impatientToken = impatientClient.sessionToken;
  await server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...sessions.reader.actor.principal }, roles: ['observer'], visibilityAfterSequence: 0 }, { groupId: mission.groupId, membershipEpoch: 1 }));
});

function endpoint(handle: keyof typeof sessions): ArtifactEndpoint {
  return { origin: server.httpsUrl, ca: server.ca, sessionToken: sessions[handle].client.sessionToken };
}

interface Answer {
  readonly status: number;
  readonly error?: { code: ErrorCode; retryable: boolean };
  readonly body: string;
}

/** One raw HTTPS request: `body` is written whole, or not at all when `declared` says more. */
function raw(method: string, path: string, options: { token?: string; body?: Buffer; declared?: number } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {};
    if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
    if (options.declared !== undefined || options.body !== undefined) headers['content-length'] = options.declared ?? options.body?.length ?? 0;
    const req = request(new URL(path, server.httpsUrl), { method, ca: server.ca, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const parsed = body.startsWith('{') ? (JSON.parse(body) as { error?: Answer['error'] }) : {};
        resolve({ status: res.statusCode ?? 0, body, ...(parsed.error === undefined ? {} : { error: parsed.error }) });
        req.destroy();
      });
    });
    req.on('error', reject);
    if (options.body !== undefined && options.declared === undefined) req.end(options.body);
    else if (options.declared !== undefined) req.flushHeaders();
    else req.end();
  });
}

/** A download read raw: the length the server declared, the bytes that came, and whether the response ended normally. */
function rawDownload(contentHash: string, token: string): Promise<{ declared: number; received: number; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(`/v1/artifacts/${contentHash}`, server.httpsUrl), { ca: server.ca, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let received = 0;
      const done = () => resolve({ declared: Number(res.headers['content-length']), received, complete: res.complete });
      res.on('data', (c: Buffer) => (received += c.length));
      res.on('end', done);
      res.on('error', done);
    });
    req.on('error', reject);
    req.end();
  });
}

function expectRefused(answer: Answer, code: ErrorCode): void {
  expect(answer.error?.code).toBe(code);
  expect(answer.status).toBe(code === 'PROTOCOL_VIOLATION' && answer.status === 413 ? 413 : httpStatusOf(code));
}

async function storedRows(contentHash: string): Promise<number> {
  return (await server.db.pool.query('select 1 from artifact_contents where content_hash = $1', [contentHash])).rowCount ?? 0;
}

describe('the Artifact store over HTTPS', () => {
  it('uploads a file in chunks and downloads it verified to another file', async () => {
    const source = join(dir, 'report.bin');
    const bytes = randomBytes(DEFAULT_ARTIFACT_LIMITS.chunkBytes * 2 + 4321);
    writeFileSync(source, bytes);
    const uploaded = await uploadArtifact(endpoint('producer'), { path: source });
    expect(uploaded).toEqual({ contentHash: contentHashOf(bytes), sizeBytes: bytes.length, result: 'stored' });
    const chunks = await server.db.pool.query('select count(*)::int as n from artifact_chunks where content_hash = $1', [uploaded.contentHash]);
    expect(chunks.rows[0]).toEqual({ n: 3 });
    expect(await uploadArtifact(endpoint('producer'), { bytes })).toMatchObject({ result: 'existing' });
    const destination = join(dir, 'report.copy');
    expect(await downloadArtifact(endpoint('producer'), uploaded.contentHash, destination)).toEqual({ contentHash: uploaded.contentHash, sizeBytes: bytes.length });
    expect(readFileSync(destination).equals(bytes)).toBe(true);
  });

  it('refuses requests without a live session', async () => {
    const hash = contentHashOf(Buffer.from('anonymous'));
    expectRefused(await raw('GET', `/v1/artifacts/${hash}`), 'AUTH_REQUIRED');
    expectRefused(await raw('PUT', `/v1/artifacts/${hash}`, { token: 'not-a-session', body: Buffer.from('anonymous') }), 'AUTH_REQUIRED');
    expect(await storedRows(hash)).toBe(0);
  });

  it('serves readers of a publishing Group and hides the content from anyone else as missing', async () => {
    const bytes = randomBytes(2048);
    const { contentHash } = await uploadArtifact(endpoint('producer'), { bytes });
    const strangerBefore = await raw('GET', `/v1/artifacts/${contentHash}`, { token: sessions.stranger.client.sessionToken });
    const readerBefore = await raw('GET', `/v1/artifacts/${contentHash}`, { token: sessions.reader.client.sessionToken });
    expectRefused(readerBefore, 'GROUP_NOT_FOUND');
    await seedPublishedArtifact(server.db.pool, mission.groupId, contentHash, { producerAgentId: sessions.producer.actor.principal.id });
    const destination = join(dir, 'read.bin');
    await downloadArtifact(endpoint('reader'), contentHash, destination);
    expect(readFileSync(destination).equals(bytes)).toBe(true);
    const stranger = await raw('GET', `/v1/artifacts/${contentHash}`, { token: sessions.stranger.client.sessionToken });
    const missing = await raw('GET', `/v1/artifacts/${contentHashOf(randomBytes(4))}`, { token: sessions.stranger.client.sessionToken });
    expectRefused(stranger, 'GROUP_NOT_FOUND');
    for (const answer of [strangerBefore, stranger]) expect(JSON.parse(answer.body).error.message).toBe(JSON.parse(missing.body).error.message);
    await expect(downloadArtifact(endpoint('stranger'), contentHash, join(dir, 'stolen.bin'))).rejects.toMatchObject({ code: 'GROUP_NOT_FOUND' });
    expect(existsSync(join(dir, 'stolen.bin'))).toBe(false);
  });

  it('keeps nothing of an upload that does not hash to its name', async () => {
    const named = contentHashOf(Buffer.from('the name'));
    expectRefused(await raw('PUT', `/v1/artifacts/${named}`, { token: sessions.producer.client.sessionToken, body: Buffer.from('other bytes') }), 'PROTOCOL_VIOLATION');
    expect(await storedRows(named)).toBe(0);
  });

  it('refuses a declared oversize upload with 413 before its body is sent', async () => {
    const named = contentHashOf(Buffer.from('huge'));
    const answer = await raw('PUT', `/v1/artifacts/${named}`, { token: sessions.producer.client.sessionToken, declared: DEFAULT_ARTIFACT_LIMITS.maxContentBytes + 1 });
    expect(answer.status).toBe(413);
    expect(answer.error?.code).toBe('PROTOCOL_VIOLATION');
    expect(await storedRows(named)).toBe(0);
  });

  it('refuses a streamed upload with 413 as soon as it passes the limit, and keeps nothing of it', async () => {
    const named = contentHashOf(Buffer.from('endless'));
    const piece = randomBytes(64 * 1024);
    const limit = SMALL_LIMIT;
    const outcome = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      // No Content-Length: chunked, so only the running count can tell.
      const req = request(new URL(`/v1/artifacts/${named}`, small.httpsUrl), { method: 'PUT', ca: server.ca, headers: { authorization: `Bearer ${smallToken}` } }, (res) => {
        answered = true;
        resolve({ status: res.statusCode ?? 0, sent });
        res.resume();
        req.destroy();
      });
      req.on('error', (error) => (answered ? undefined : reject(error)));
      const pump = (): void => {
        while (!answered && sent < 64 * limit) {
          sent += piece.length;
          if (!req.write(piece)) return void req.once('drain', pump);
        }
      };
      pump();
    });
    // Answered while the body was still being sent (it never ends), long before all of it.
    expect(outcome.status).toBe(413);
    expect(outcome.sent).toBeLessThan(64 * limit);
    expect(await storedRows(named)).toBe(0);
  });

  it('cuts a trickling upload at the request timeout and keeps nothing of it', async () => {
    const bytes = randomBytes(2 * DEFAULT_ARTIFACT_LIMITS.chunkBytes);
    const contentHash = contentHashOf(bytes);
    const req = request(new URL(`/v1/artifacts/${contentHash}`, impatient.httpsUrl), { method: 'PUT', ca: server.ca, headers: { authorization: `Bearer ${impatientToken}`, 'content-length': bytes.length } });
    const ended = new Promise<number | string>((resolve) => {
      req.on('response', (res) => resolve(res.statusCode ?? 0));
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    req.write(bytes.subarray(0, DEFAULT_ARTIFACT_LIMITS.chunkBytes + 1));
    await expect.poll(() => storedRows(contentHash), { timeout: 5_000 }).toBe(1);
    expect(await ended).toBe(408);
    await expect.poll(() => storedRows(contentHash), { timeout: 5_000 }).toBe(0);
  });

  it('removes what an upload wrote when its client goes away midway', async () => {
    const bytes = randomBytes(3 * DEFAULT_ARTIFACT_LIMITS.chunkBytes);
    const contentHash = contentHashOf(bytes);
    const req = request(new URL(`/v1/artifacts/${contentHash}`, server.httpsUrl), { method: 'PUT', ca: server.ca, headers: { authorization: `Bearer ${sessions.producer.client.sessionToken}`, 'content-length': bytes.length } });
    req.on('error', () => undefined);
    req.write(bytes.subarray(0, 2 * DEFAULT_ARTIFACT_LIMITS.chunkBytes + 100));
    await expect.poll(() => storedRows(contentHash), { timeout: 5_000 }).toBe(1);
    req.destroy();
    await expect.poll(() => storedRows(contentHash), { timeout: 5_000 }).toBe(0);
  });

  it('cuts off a content whose stored chunk was corrupted; the SDK leaves no file', async () => {
    const bytes = randomBytes(DEFAULT_ARTIFACT_LIMITS.chunkBytes + 10);
    const { contentHash } = await uploadArtifact(endpoint('producer'), { bytes });
    await server.db.pool.query("update artifact_chunks set data = overlay(data placing '\\xff'::bytea from 1) where content_hash = $1 and chunk_index = 0", [contentHash]);
    const cut = await rawDownload(contentHash, sessions.producer.client.sessionToken);
    expect(cut).toMatchObject({ declared: bytes.length, complete: false });
    expect(cut.received).toBeLessThan(bytes.length);
    const destination = join(dir, 'corrupt.bin');
    await expect(downloadArtifact(endpoint('producer'), contentHash, destination)).rejects.toMatchObject({ code: 'PROTOCOL_VIOLATION_BY_SERVER' });
    expect(existsSync(destination)).toBe(false);
  });

  it('answers the provenance of an Artifact to a reader of its Group', async () => {
    const [source, derived] = [randomBytes(8), randomBytes(8)].map(contentHashOf) as [string, string];
    await seedPublishedArtifact(server.db.pool, mission.groupId, source);
    await seedPublishedArtifact(server.db.pool, mission.groupId, derived, { sourceArtifactHashes: [source] });
    const path = `/v1/groups/${encodeURIComponent(mission.groupId)}/artifacts/${derived}/provenance`;
    const answer = await raw('GET', path, { token: sessions.reader.client.sessionToken });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ contentHash: derived, artifacts: [{ contentHash: derived, depth: 0 }, { contentHash: source, depth: 1 }], unresolved: [], truncated: false });
    expectRefused(await raw('GET', path, { token: sessions.stranger.client.sessionToken }), 'GROUP_NOT_FOUND');
  });

  it('builds a manifest with every required member, signed by the producing Agent', async () => {
    const { actor } = sessions.producer;
    const contentHash = contentHashOf(Buffer.from('manifest'));
    const signed = await buildArtifactManifest({
      contentHash,
      sizeBytes: 8,
      mediaType: 'text/plain',
      schemaUri: 'https://example.org/schemas/report',
      producer: { agentId: actor.principal.id, agentCardVersion: 1, capabilities: [{ id: 'code.review', version: '1.0.0' }] },
      missionId: mission.missionId,
      groupId: mission.groupId,
      workItemId: 'urn:missionweave:work:manifest',
      classification: 'internal',
      sourceArtifactHashes: [contentHashOf(Buffer.from('source'))],
    }, keySigner(actor.key.keyId, actor.key.privateKey), server.httpsUrl);
    const manifest: MissionWeaveArtifactManifest = signed.document;
    expect(schemaRegistry().validateObject('artifact', manifest)).toEqual({ ok: true });
    expect(manifest.uri).toBe(artifactUri(server.httpsUrl, contentHash));
    expect(manifest.signature).toMatchObject({ keyId: actor.key.keyId, createdAt: manifest.createdAt });
    expect(verify(null, signingBytes(manifest as unknown as Record<string, unknown>), actor.key.privateKey, decodeBase64url(manifest.signature.value) as Buffer)).toBe(true);
  });
});

describe('Artifact content stays in its Mission (§4.9, §13.3)', () => {
  it('B’s Worker can neither publish nor download A’s bytes; a Worker that reads A reuses them in B, and B’s Event says so', async () => {
    const h = server.harness;
    const coordinator = await h.agent('isolation-coordinator');
    const [a, b] = [await createMission(h, owner, coordinator), await createMission(h, owner, coordinator)];
    /** A Worker with a live session over wss, whose token reaches the Artifact store. */
    const live = async (handle: string) => {
      const actor = await h.agent(handle, WORKER_CAPABILITIES);
      const client = await RawClient.open(server.url, server.ca);
      actor.sessionEpoch = await client.hello(actor);
      return { actor, endpoint: { origin: server.httpsUrl, ca: server.ca, sessionToken: client.sessionToken }, close: () => client.close() };
    };
    const [workerA, workerB, inBoth] = [await live('worker-a'), await live('worker-b'), await live('worker-a-and-b')];
    const bytes = randomBytes(3000);
    const { contentHash } = await uploadArtifact(workerA.endpoint, { bytes });
    const workA = await activeWork(h, a, { owner, coordinator, worker: workerA.actor });
    await h.expectOk(publish(h, workA, signedManifest(h, workA, contentHash, bytes.length)));
    const publishedInA = (await eventsOf(server.db.pool, a.groupId)).at(-1) as { eventId: string };

    const workB = await activeWork(h, b, { owner, coordinator, worker: workerB.actor });
    const stolen = join(dir, 'stolen-from-a.bin');
    await expect(downloadArtifact(workerB.endpoint, contentHash, stolen)).rejects.toMatchObject({ code: 'GROUP_NOT_FOUND' });
    const taken = await publish(h, workB, signedManifest(h, workB, contentHash, bytes.length));
    expect(taken.ok ? 'accepted' : taken.error.code).toBe('INVALID_COMMAND');
    await expect(downloadArtifact(workerB.endpoint, contentHash, stolen)).rejects.toMatchObject({ code: 'GROUP_NOT_FOUND' });
    expect(existsSync(stolen)).toBe(false);

    await h.expectOk(h.send(owner, 'membership.change', { principal: { ...inBoth.actor.principal }, roles: ['observer'], visibilityAfterSequence: 0 }, { groupId: a.groupId, membershipEpoch: 1 }));
    const reusing = await activeWork(h, b, { owner, coordinator, worker: inBoth.actor });
    await h.expectOk(publish(h, reusing, signedManifest(h, reusing, contentHash, bytes.length)));
    const reused = (await eventsOf(server.db.pool, b.groupId)).at(-1);
    expect(reused).toMatchObject({ kind: 'artifact.published', actor: inBoth.actor.principal, payload: { artifact: { contentHash }, reusedFrom: { groupId: a.groupId, eventId: publishedInA.eventId } } });
    const received = join(dir, 'reused-in-b.bin');
    await downloadArtifact(workerB.endpoint, contentHash, received);
    expect(readFileSync(received).equals(bytes)).toBe(true);
    for (const worker of [workerA, workerB, inBoth]) worker.close();
  });
});
