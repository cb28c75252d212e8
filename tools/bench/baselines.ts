/**
 * Baselines measured in the same run as the Group Authority, on the same machine:
 *
 * - naive SQL: the same durable work as a Command, one transaction per Command — lock and bump
 *   the Group's counter, insert the Event, insert the receipt, commit — driven straight at the
 *   same PostgreSQL with the same concurrency;
 * - raw ws: a `ws` server over the same TLS broadcasting identical pre-built frames to the same
 *   number of sockets;
 * - raw verify: `node:crypto` Ed25519 verifications per second on one core.
 */

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:https';
import pg from 'pg';
import { WebSocketServer, type WebSocket } from 'ws';
import { verifyEd25519 } from '#src/protocol/ed25519.js';
import { generatePrivateKey, signBytes } from '#src/protocol/signing/signDocument.js';
import { decodeBase64url } from '#src/protocol/base64url.js';
import { createPublicKey } from 'node:crypto';
import { startLoad } from './loadDriver.js';

export async function naiveSqlPerSec(url: string, concurrency: number, groups: number, total: number, documentBytes: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: concurrency });
  await pool.query(`drop table if exists naive_receipts, naive_events, naive_groups;
    create table naive_groups (group_id text primary key, last_sequence bigint not null default 0);
    create table naive_events (group_id text not null references naive_groups, sequence bigint not null, event_id text not null unique, document text not null, primary key (group_id, sequence));
    create table naive_receipts (actor_id text not null, action_id text not null, signing_hash text not null unique, event_id text not null, primary key (actor_id, action_id));`);
  const ids = Array.from({ length: groups }, () => `urn:uuid:${randomUUID()}`);
  await pool.query('insert into naive_groups (group_id) select unnest($1::text[])', [ids]);
  const document = 'x'.repeat(documentBytes);
  let next = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    const client = await pool.connect();
    try {
      while (next < total) {
        const n = next++;
        const groupId = ids[n % groups] as string;
        await client.query('begin');
        const sequence = (await client.query<{ s: string }>('update naive_groups set last_sequence = last_sequence + 1 where group_id = $1 returning last_sequence as s', [groupId])).rows[0]?.s;
        const eventId = `urn:uuid:${randomUUID()}`;
        await client.query('insert into naive_events values ($1, $2, $3, $4)', [groupId, sequence, eventId, document]);
        await client.query('insert into naive_receipts values ($1, $2, $3, $4)', ['urn:x:actor', `urn:uuid:${randomUUID()}`, `sha256:${randomUUID()}`, eventId]);
        await client.query('commit');
      }
    } finally {
      client.release();
    }
  }));
  const perSec = total / ((performance.now() - start) / 1000);
  await pool.query('drop table naive_receipts, naive_events, naive_groups');
  await pool.end();
  return perSec;
}

/**
 * The raw ws baseline's deliveries per second and its server's CPU per delivery: the server runs
 * in this (the bench's) process, so its cost is this process's CPU from the first send until the
 * last frame arrived — the bench's own idle setup Authority included, which is next to nothing.
 */
export async function rawWsDeliveries(tls: { cert: string; key: string }, caFile: string, sockets: number, frames: number, frameBytes: number): Promise<{ perSec: number; cpuUsPerDelivery: number }> {
  const server = createServer({ ...tls, minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3' });
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  const connected: WebSocket[] = [];
  wss.on('connection', (ws) => connected.push(ws));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const load = startLoad({ mode: 'raw', url: `wss://127.0.0.1:${port}`, caFile, agentsFile: '', groups: [], sockets, expect: frames });
  await load.ready;
  const frame = JSON.stringify({ event: { payload: 'x'.repeat(frameBytes) }, frameId: `urn:uuid:${randomUUID()}`, frameType: 'EVENT', protocolVersion: '0.1' });
  const start = Date.now();
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < frames; i++) for (const ws of connected) ws.send(frame);
  const result = await load.result;
  const cpu = process.cpuUsage(cpuBefore);
  const delivered = Number(result['deliveries']);
  const perSec = delivered / ((Number(result['lastAt']) - start) / 1000);
  const cpuUsPerDelivery = (cpu.user + cpu.system) / Math.max(1, delivered);
  for (const ws of connected) ws.terminate();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return { perSec, cpuUsPerDelivery };
}

export function rawVerifyPerSec(millis = 1_500): number {
  const privateKey = generatePrivateKey();
  const publicKey = createPublicKey(privateKey);
  const message = Buffer.alloc(1200, 7);
  const signature = decodeBase64url(signBytes(privateKey, message)) as Buffer;
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < millis) {
    for (let i = 0; i < 50; i++) verifyEd25519(publicKey, message, signature);
    count += 50;
  }
  return count / ((performance.now() - start) / 1000);
}
