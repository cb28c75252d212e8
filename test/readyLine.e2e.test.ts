/**
 * The ready line of `missionweave serve` names the URL a client connects to: a plain WebSocket
 * client given exactly that string, path included, reaches the binding (§17) and gets the HELLO
 * challenge; the `https` member is the origin of the HTTPS endpoints; `heapGrowingPercent` the
 * V8 heap growth the process runs with.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULT_HEAP_GROWING_PERCENT, heapGrowingPercent } from '../src/cli/heapTuning.js';
import { createTestDatabase } from './support/database.js';
import { cli, serve, type ServeProcess } from './support/nodeProcess.js';

const scratch = mkdtempSync(join(tmpdir(), 'mw-ready-'));
const dir = join(scratch, 'org');
let node: ServeProcess | undefined;
// The database, `init` and the node's start in the hook (120 s): on a Citus cluster under load
// they alone took more than the 30 s a test is given.
beforeAll(async () => {
  const db = await createTestDatabase();
  expect(cli(db.url, 'init', '--dir', dir).code).toBe(0);
  node = await serve(db.url, dir);
});
afterAll(async () => {
  await node?.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

it('prints the WebSocket endpoint, and a client connecting to exactly it gets the HELLO challenge', async () => {
  if (node === undefined) throw new Error('no node');
  expect(node.url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/v1\/ws$/);
  const ca = readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8');
  const ws = new WebSocket(node.url, { ca });
  const first = await new Promise<Record<string, unknown>>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ protocolVersion: '0.1', frameId: 'urn:uuid:00000000-0000-4000-8000-000000000001', frameType: 'HELLO', phase: 'client_init', agentId: 'urn:missionweave:agent:nobody', keyId: 'urn:missionweave:key:nobody', clientNonce: 'AAAAAAAAAAAAAAAAAAAAAA', supportedVersions: ['0.1'] })));
    ws.once('message', (data) => resolve(JSON.parse(data.toString()) as Record<string, unknown>));
  });
  ws.terminate();
  expect(first['frameType']).toBe('HELLO');
  expect(first['phase']).toBe('server_challenge');
  expect(node.https).toBe(node.url.replace(/^wss:/, 'https:').replace(/\/v1\/ws$/, ''));
  const status = await new Promise<number | undefined>((resolve, reject) => get(`${node?.https}/health`, { ca }, (response) => {
    response.resume();
    resolve(response.statusCode);
  }).once('error', reject));
  expect(status).toBe(200);
  // The heap growth it runs with (cli/heapTuning.ts): the default unless the environment sets one.
  expect(node.ready['heapGrowingPercent']).toBe(heapGrowingPercent(process.env, []) ?? null);
  if (process.env['MW_HEAP_GROWING_PERCENT'] === undefined) expect(node.ready['heapGrowingPercent']).toBe(DEFAULT_HEAP_GROWING_PERCENT);
});
