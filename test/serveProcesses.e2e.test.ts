/**
 * `missionweave serve --processes 2` (issue 16 part 4), as real processes on one PostgreSQL: the
 * primary hands connections round-robin, so consecutive connections land on alternate processes
 * and each check below runs on both. An Agent's Commands and Events; a second HELLO (on the other
 * process) fences the first session — one session per Agent, not one per process — and resumes
 * after the first one's Cursor; the Agent's session token and a human's token are accepted by
 * every process, a challenge is single-use across them, and DELETE ends the human session
 * everywhere; one `/metrics` scrape sums the node; a renewed certificate is served by every process
 * and SIGHUP reloads rather than stops; a killed process is replaced; SIGTERM stops all.
 */

import { execFileSync } from 'node:child_process';
import { createPrivateKey, randomUUID, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:tls';
import selfsigned from 'selfsigned';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCommand, timestampOf } from '../src/app/issueDocuments.js';
import { canonicalBytes } from '../src/protocol/jcs.js';
import { signBytes } from '../src/protocol/signing/signDocument.js';
import { CLOSE } from '../src/transport/limits.js';
import { heapGrowingPercent } from '../src/cli/heapTuning.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import type { Actor } from './support/harness.js';
import { httpJson, signIn } from './support/humanReader.js';
import { cli, cliInProcess, lastJson, serve, type ServeProcess } from './support/nodeProcess.js';
import { scrape, valueOf } from './support/prometheus.js';
import { RawClient } from './support/rawClient.js';
import { until } from './support/until.js';

const scratch = mkdtempSync(join(tmpdir(), 'mw-procs-'));
const dir = join(scratch, 'org');
let db: TestDatabase;
let node: ServeProcess;
let ca: string;
let groupId: string;
let conversationId: string;

function actorOf(handle: string): Actor {
  const record = JSON.parse(readFileSync(join(dir, 'principals', `${handle}.json`), 'utf8')) as { type: 'agent' | 'human'; id: string; keyId: string; privateKeyFile: string };
  return { principal: { type: record.type, id: record.id }, key: { keyId: record.keyId, privateKey: createPrivateKey(readFileSync(join(dir, record.privateKeyFile), 'utf8')) } };
}

/** The serving processes (the primary's children other than PostgreSQL). */
function servingPids(): number[] {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(node.child.pid)], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes('main.js serve')).map((line) => Number(line.trim().split(/\s+/)[0]));
}

beforeAll(async () => {
  db = await createTestDatabase();
  for (const args of [['init', '--dir', dir], ['agent', 'add', 'coordinator', '--dir', dir], ['human', 'add', 'alice', '--dir', dir]]) {
    const result = await cliInProcess(db.url, ...args);
    expect(result.code, result.stderr).toBe(0);
  }
  const missionFile = join(scratch, 'mission.json');
  writeFileSync(missionFile, JSON.stringify({ coordinatorId: 'urn:missionweave:agent:coordinator', title: 'Two processes', objective: 'One node.', definitionOfDone: [{ criterionId: 'one', description: 'Seen as one.', evidenceRequired: ['deterministic_test'] }], budget: { toolCallLimit: 10 }, deadline: new Date(Date.now() + 86_400_000).toISOString() }));
  const created = cli(db.url, 'command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', `@${missionFile}`);
  expect(created.code, created.stderr).toBe(0);
  groupId = String(lastJson(created.stdout)['groupId']);
  conversationId = (await db.pool.query<{ c: string }>(`select document->>'mainConversationId' as c from aggregates where group_id = $1 and aggregate_type = 'group'`, [groupId])).rows[0]?.c as string;
  node = await serve(db.url, dir, 0, ['--processes', '2']);
  ca = readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8');
}, 300_000);

afterAll(async () => {
  await node?.kill('SIGKILL').catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

/** Posts a Message; returns its Message ID. */
function post(client: RawClient, agent: Actor, epoch: number, content: string): string {
  const messageId = `urn:uuid:${randomUUID()}`;
  const command = signCommand({ actor: agent.principal, kind: 'message.post', payload: { messageId, conversationId, content }, issuedAt: timestampOf(Date.now()), groupId, membershipEpoch: 1, sessionEpoch: epoch }, agent.key);
  client.send({ frameType: 'COMMAND', command });
  return messageId;
}

/** The sequences received, deduplicated as a recipient must (§17: at-least-once delivery), in order. */
function sequences(client: RawClient): number[] {
  return [...new Set(client.events(groupId).map((event) => Number(event['sequence'])))].sort((a, b) => a - b);
}

async function lastSequence(): Promise<number> {
  return (await db.pool.query<{ n: number }>('select last_sequence::int as n from groups where group_id = $1', [groupId])).rows[0]?.n ?? 0;
}

/**
 * How many EVENT frames of the Group `client` received by sequence that its subscription brought.
 * An accepted COMMAND is answered with its Events on the connection that sent it, and the
 * subscription delivers the same Events too: of a Message the client posted (`posted`), one
 * frame is the answer.
 */
function delivered(client: RawClient, posted: ReadonlySet<string>): Map<number, number> {
  const counts = new Map<number, number>();
  const answers = new Set<number>();
  for (const event of client.events(groupId)) {
    const sequence = Number(event['sequence']);
    counts.set(sequence, (counts.get(sequence) ?? 0) + 1);
    const message = (event['payload'] as { message?: { messageId?: string } } | undefined)?.message;
    if (event['kind'] === 'message.posted' && posted.has(String(message?.messageId)) && !answers.has(sequence)) {
      answers.add(sequence);
      counts.set(sequence, (counts.get(sequence) ?? 0) - 1);
    }
  }
  return counts;
}

/**
 * Waits until the Group holds at least `minimum` Events and the subscription of `client` has
 * delivered every one after `after` up to the last. The answers to the client's own Commands
 * alone once satisfied a wait for "received up to the last" while the subscription was still
 * replaying (CI, Dec 5: the first round saw Events 2–4, its answers, before Event 1).
 */
async function caughtUp(client: RawClient, after: number, minimum: number, posted: ReadonlySet<string>): Promise<void> {
  const start = Date.now();
  for (;;) {
    const last = await lastSequence();
    const counts = delivered(client, posted);
    const missing = Array.from({ length: Math.max(0, last - after) }, (_, i) => after + 1 + i).filter((sequence) => (counts.get(sequence) ?? 0) < 1);
    if (last >= minimum && missing.length === 0) return;
    if (Date.now() - start > 20_000) throw new Error(`the subscription did not deliver ${missing.join(', ')} of ${after + 1}..${last} (${minimum} expected)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The fingerprint of the certificate a new handshake is served. */
function servedFingerprint(httpsUrl: string): Promise<string> {
  const url = new URL(httpsUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), rejectUnauthorized: false }, () => {
      resolve(socket.getPeerX509Certificate()?.fingerprint256 ?? '');
      socket.end();
    });
    socket.once('error', reject);
  });
}

describe('missionweave serve --processes 2', () => {
  it('runs two serving processes behind one port, with the heap growth its processes report (cli/heapTuning.ts)', () => {
    expect(node.ready['heapGrowingPercent']).toBe(heapGrowingPercent(process.env, []) ?? null);
    // Where the data lives (issue 33): the configured database, its password left out.
    expect(node.ready['database']).toMatch(/^postgres(ql)?:\/\/[^:@/]+@[^/]+\/\w+$/);
    expect(servingPids()).toHaveLength(2);
  });

  it('keeps one session per Agent across processes, and an Agent resumes on the other process after its Cursor', async () => {
    const agent = actorOf('coordinator');
    const clients: RawClient[] = [];
    let epoch = 0;
    let seen = 0;
    const before = await lastSequence();
    // Four sessions in a row, alternating processes: each fences the one before, whichever process holds it.
    for (let round = 0; round < 4; round++) {
      const client = await RawClient.open(node.url, ca);
      const opened = await client.hello(agent);
      expect(opened).toBeGreaterThan(epoch);
      epoch = opened;
      if (round > 0) expect((await clients[round - 1]?.closed)?.code).toBe(CLOSE.sessionReplaced);
      clients.push(client);
      client.subscribe(groupId, seen);
      const posted = new Set<string>();
      for (let i = 0; i < 3; i++) posted.add(post(client, agent, epoch, `round ${round} message ${i}`));
      await caughtUp(client, seen, before + 3 * (round + 1), posted);
      // The subscription delivers in order from its Cursor on: none at or before it.
      const got = sequences(client);
      expect(got[0]).toBe(seen + 1);
      expect(got).toEqual(Array.from({ length: got.length }, (_, i) => seen + 1 + i));
      seen = got[got.length - 1] as number;
    }
    const last = clients[3] as RawClient;
    // The live session's token authenticates HTTPS reads on every process (fresh connections).
    for (let i = 0; i < 6; i++) {
      const me = await httpJson({ httpsUrl: node.https, ca }, 'GET', '/v1/me', { token: last.sessionToken });
      expect(me.status, me.text).toBe(200);
      expect(me.body.principal.id).toBe(agent.principal.id);
    }
    const metrics = await scrape(node.https, ca);
    expect(valueOf(metrics, 'missionweave_sessions_open')).toBe(1);
    expect(valueOf(metrics, 'missionweave_commands_accepted_total', { kind: 'message.post' })).toBe(12);
    // Two processes, 16 pooled connections each at most: the scrape is the node's sum.
    expect(valueOf(metrics, 'missionweave_pg_pool_max_clients')).toBe(32);
    last.close();
    await last.closed;
    const fenced = await httpJson({ httpsUrl: node.https, ca }, 'GET', '/v1/me', { token: last.sessionToken });
    expect(fenced.status).toBe(401);
  }, 120_000);

  it('accepts a human token on every process, spends a challenge once across them, and ends the session everywhere', async () => {
    const alice = actorOf('alice');
    const server = { httpsUrl: node.https, ca };
    const { token } = await signIn(server, alice);
    for (let i = 0; i < 6; i++) expect((await httpJson(server, 'GET', '/v1/me', { token })).status).toBe(200);
    const challenge = await httpJson(server, 'POST', '/v1/human-sessions/challenge', { body: { humanId: alice.principal.id, keyId: alice.key.keyId } });
    const signature = signBytes(alice.key.privateKey, canonicalBytes(challenge.body.transcript));
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await httpJson(server, 'POST', '/v1/human-sessions', { body: { challengeId: challenge.body.challengeId, signature } })).status);
    expect(answers).toEqual([201, 401, 401, 401]);
    expect(valueOf(await scrape(node.https, ca), 'missionweave_human_sessions_open')).toBe(2);
    expect((await httpJson(server, 'DELETE', '/v1/human-sessions/current', { token })).status).toBe(204);
    for (let i = 0; i < 6; i++) expect((await httpJson(server, 'GET', '/v1/me', { token })).status).toBe(401);
  }, 60_000);

  it('serves a renewed certificate from every process, and SIGHUP reloads instead of stopping the node', async () => {
    const pids = servingPids();
    const renewed = await selfsigned.generate([{ name: 'commonName', value: 'renewed' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2 as const, value: 'localhost' }, { type: 7 as const, ip: '127.0.0.1' }] }],
    });
    writeFileSync(join(dir, 'tls', 'key.pem.new'), renewed.private);
    writeFileSync(join(dir, 'tls', 'cert.pem.new'), renewed.cert);
    renameSync(join(dir, 'tls', 'key.pem.new'), join(dir, 'tls', 'key.pem'));
    renameSync(join(dir, 'tls', 'cert.pem.new'), join(dir, 'tls', 'cert.pem'));
    const expected = new X509Certificate(renewed.cert).fingerprint256;
    // Connections alternate between the two processes: four in a row see both.
    const start = Date.now();
    let seen: string[] = [];
    while (Date.now() - start < 30_000) {
      seen = [];
      for (let i = 0; i < 4; i++) seen.push(await servedFingerprint(node.https));
      if (seen.every((f) => f === expected)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen).toEqual([expected, expected, expected, expected]);
    ca = renewed.cert;
    // SIGHUP's default is to end a process; the node and each of its processes reload instead.
    node.child.kill('SIGHUP');
    for (const pid of pids) process.kill(pid, 'SIGHUP');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(node.child.exitCode).toBeNull();
    expect(servingPids()).toEqual(pids);
    expect((await scrape(node.https, ca)).status).toBe(200);
  }, 60_000);

  it('replaces a killed process, and SIGTERM stops every process', async () => {
    const [victim] = servingPids();
    process.kill(victim as number, 'SIGKILL');
    // A replacement starts as slowly as any process: on a loaded 2-core machine, over a minute
    // (Dec 5, load average 32: the scrape still summed one process 60 s after it was forked).
    const start = Date.now();
    await until(() => {
      const now = servingPids();
      return now.length === 2 && !now.includes(victim as number);
    }, 150_000);
    // The replacement serves: every process answers the scrape again. A kept-alive connection to
    // the killed process hangs up, as it would for any client of a crashed process: try again.
    let pool = 0;
    while (pool !== 32 && Date.now() - start < 150_000) {
      const result = await scrape(node.https, ca).catch(() => undefined);
      pool = result?.status === 200 ? valueOf(result, 'missionweave_pg_pool_max_clients') : 0;
      if (pool !== 32) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(pool).toBe(32);
    const pids = servingPids();
    const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
    node.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  }, 240_000);
});
