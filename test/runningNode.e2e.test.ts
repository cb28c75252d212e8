/**
 * A running node is found, not configured (src/home/runningNode.ts): `serve` records where it
 * listens in the home's node.json once ready and removes it on a clean stop; `mcp` finds the node
 * there (`serve --port 0` picked the port); with no node, or a record whose process is gone, `mcp`
 * says so in one line with exit code 69, and `--url` that is not a wss URL is a usage error.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { stdioClient } from './support/mcpNode.js';
import { cli, serve } from './support/nodeProcess.js';
import { runCli } from './support/operatorCli.js';

const scratch = mkdtempSync(join(tmpdir(), 'mw-running-'));
const dir = join(scratch, 'org');
let db: TestDatabase;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  db = await createTestDatabase();
  for (const args of [['init', '--dir', dir, '--port', String(await freePort())], ['agent', 'add', 'planner', '--dir', dir]]) {
    const result = cli(db.url, ...args);
    expect(result.code, result.stderr).toBe(0);
  }
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const NO_NODE = /\nno node answers at wss:\/\/127\.0\.0\.1:\d+\/v1\/ws \(ECONNREFUSED\); no node is running for .+; start one with: missionweave serve --dir .+, or give --url\n$/;

/** Its log lines, then the one line that says what is wrong; never a stack trace. */
function saysNoNode(answer: { code: number | null; stderr: string }): void {
  expect(answer.code).toBe(69);
  expect(answer.stderr).toMatch(NO_NODE);
  expect(answer.stderr).not.toMatch(/^\s+at /m);
}

describe('a running node', () => {
  it('is missing: mcp says so in one line, exit 69, no stack trace', async () => {
    saysNoNode(await runCli('mcp', '--as', 'planner', '--dir', dir));
  });

  it('is recorded by a process that is gone: the record is ignored', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.pid']).pid as number;
    writeFileSync(join(dir, 'node.json'), JSON.stringify({ pid: gone, url: 'wss://127.0.0.1:1/v1/ws', https: 'https://127.0.0.1:1', startedAt: new Date().toISOString() }));
    saysNoNode(await runCli('mcp', '--as', 'planner', '--dir', dir));
    rmSync(join(dir, 'node.json'));
  });

  it('is named by --url as a wss URL, not an https one', async () => {
    const answer = await runCli('mcp', '--as', 'planner', '--dir', dir, '--url', 'https://127.0.0.1:8443');
    expect(answer.code).toBe(2);
    expect(answer.stderr).toBe('--url is the node\'s WebSocket endpoint, wss://HOST:PORT/v1/ws (got https://127.0.0.1:8443)\n');
  });

  it('is found by mcp where serve --port 0 recorded it, and forgotten when it stops', async () => {
    const node = await serve(db.url, dir, 0);
    try {
      const record = JSON.parse(readFileSync(join(dir, 'node.json'), 'utf8')) as Record<string, unknown>;
      expect(record).toMatchObject({ pid: node.child.pid, url: node.url, https: node.https });
      const { client, stderr } = await stdioClient(dir, 'planner');
      const tools = await client.listTools();
      expect(tools.tools.length, stderr()).toBeGreaterThan(0);
      expect(stderr()).toContain('session open');
      await client.close();
    } finally {
      await node.kill('SIGTERM');
    }
    expect(existsSync(join(dir, 'node.json'))).toBe(false);
  }, 120_000);
});
