/**
 * A node is SIGKILLed mid-stream while Commands keep arriving; the Agent reconnects to another
 * node and resumes after its Cursor: every Event arrives, in order, none lost. Everything runs
 * as real processes on one PostgreSQL, set up with the operator CLI.
 */

import { createPrivateKey, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { Home } from '../src/home/home.js';
import { openAuthority } from '../src/server.js';
import { signCommand, timestampOf } from '../src/app/issueDocuments.js';
import { createTestDatabase } from './support/database.js';
import type { Actor } from './support/harness.js';
import { cli, cliInProcess, lastJson, serve, type ServeProcess } from './support/nodeProcess.js';
import { RawClient } from './support/rawClient.js';

const scratch = mkdtempSync(join(tmpdir(), 'mw-crash-'));
const dir = join(scratch, 'org');
const nodes: ServeProcess[] = [];
afterAll(async () => {
  for (const node of nodes) await node.kill('SIGTERM').catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

function actorOf(handle: string): Actor {
  const record = JSON.parse(readFileSync(join(dir, 'principals', `${handle}.json`), 'utf8')) as { type: 'agent'; id: string; keyId: string; privateKeyFile: string };
  return { principal: { type: record.type, id: record.id }, key: { keyId: record.keyId, privateKey: createPrivateKey(readFileSync(join(dir, record.privateKeyFile), 'utf8')) } };
}

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it('resumes after a SIGKILLed node with nothing lost', async () => {
  const db = await createTestDatabase();
  // Setup through the CLI's dispatch in process; the Commands around the crash run as the binary.
  for (const args of [['init', '--dir', dir], ['agent', 'add', 'coordinator', '--dir', dir], ['agent', 'add', 'reader', '--dir', dir], ['human', 'add', 'alice', '--dir', dir]]) {
    const result = await cliInProcess(db.url, ...args);
    expect(result.code, result.stderr).toBe(0);
  }
  const missionFile = join(scratch, 'mission.json');
  writeFileSync(missionFile, JSON.stringify({ coordinatorId: 'urn:missionweave:agent:coordinator', title: 'Crash drill', objective: 'Survive a SIGKILL.', definitionOfDone: [{ criterionId: 'none-lost', description: 'No Event lost.', evidenceRequired: ['deterministic_test'] }], budget: { toolCallLimit: 10 }, deadline: new Date(Date.now() + 86_400_000).toISOString() }));
  const created = cli(db.url, 'command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', `@${missionFile}`);
  expect(created.code, created.stderr).toBe(0);
  const groupId = String(lastJson(created.stdout)['groupId']);
  expect(cli(db.url, 'command', 'membership.change', '--as', 'alice', '--dir', dir, '--group', groupId, '--payload', JSON.stringify({ principal: { type: 'agent', id: 'urn:missionweave:agent:reader' }, roles: ['observer'], visibilityAfterSequence: 0 })).code).toBe(0);

  nodes.push(await serve(db.url, dir));
  const home = new Home(dir);
  process.env['DATABASE_URL'] = db.url;
  const writer = await openAuthority(home);
  delete process.env['DATABASE_URL'];
  const alice = JSON.parse(readFileSync(join(dir, 'principals', 'alice.json'), 'utf8')) as { id: string; keyId: string; privateKeyFile: string };
  const aliceKey = { keyId: alice.keyId, privateKey: createPrivateKey(readFileSync(join(dir, alice.privateKeyFile), 'utf8')) };
  const conversation = (await db.pool.query<{ c: string }>(`select document->>'mainConversationId' as c from aggregates where group_id = $1 and aggregate_type = 'group'`, [groupId])).rows[0]?.c as string;
  let written = 0;
  const writing = (async () => {
    for (let i = 0; i < 300; i++) {
      const command = signCommand({ actor: { type: 'human', id: alice.id }, kind: 'message.post', payload: { messageId: `urn:uuid:${randomUUID()}`, conversationId: conversation, content: `tick ${i}` }, issuedAt: timestampOf(Date.now()), groupId, membershipEpoch: 1 }, aliceKey);
      const outcome = await writer.authority.submit(command);
      if (outcome.ok) written++;
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
  })();

  const reader = actorOf('reader');
  const received = new Map<number, string>();
  const first = await RawClient.open(nodes[0]?.url as string, readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8'));
  await first.hello(reader);
  first.subscribe(groupId, 0);
  first.ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { frameType: string; event?: { sequence: number; eventId: string } };
    if (frame.frameType === 'EVENT' && frame.event !== undefined) received.set(frame.event.sequence, frame.event.eventId);
  });
  await until(() => received.size >= 40);
  await nodes[0]?.kill('SIGKILL');
  await first.closed;
  const cursor = Math.max(...[...received.keys()].filter((s, _, all) => all.includes(s)));
  const contiguous = (() => {
    let c = 0;
    while (received.has(c + 1)) c++;
    return c;
  })();
  expect(contiguous).toBe(cursor);

  nodes.push(await serve(db.url, dir));
  const second = await RawClient.open(nodes[1]?.url as string, readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8'));
  await second.hello(reader);
  second.subscribe(groupId, contiguous);
  second.ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { frameType: string; event?: { sequence: number; eventId: string } };
    if (frame.frameType === 'EVENT' && frame.event !== undefined) {
      const earlier = received.get(frame.event.sequence);
      if (earlier !== undefined) expect(frame.event.eventId).toBe(earlier);
      received.set(frame.event.sequence, frame.event.eventId);
    }
  });
  await writing;
  const last = (await db.pool.query<{ n: number }>('select last_sequence::int as n from groups where group_id = $1', [groupId])).rows[0]?.n ?? 0;
  await until(() => received.size >= last);
  expect([...received.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
  expect(written).toBe(300);
  second.close();
  await writer.close();
}, 180_000);
