/**
 * The done-when, as processes: `missionweave serve` (the built CLI) on a real PostgreSQL,
 * one signed Command over HTTPS, then `GET /metrics` shows it; `missionweave command --node`
 * submits through that node, which counts what it accepts and refuses; the same folder served
 * with `MW_METRICS=off` answers 404.
 */

import { createPrivateKey, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCommand } from '../src/app/issueDocuments.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { cli, cliInProcess, lastJson, serve, type ServeProcess } from './support/nodeProcess.js';
import { scrape, valueOf } from './support/prometheus.js';
import { postCommands } from './support/refusals.js';

const scratch = mkdtempSync(join(tmpdir(), 'mw-metrics-'));
const dir = join(scratch, 'node');
let db: TestDatabase;
let node: ServeProcess | undefined;
let groupId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  for (const args of [['init', '--dir', dir], ['agent', 'add', 'planner', '--dir', dir], ['human', 'add', 'alice', '--dir', dir]]) {
    const result = await cliInProcess(db.url, ...args);
    expect(result.code, result.stderr).toBe(0);
  }
}, 120_000);

afterAll(async () => {
  await node?.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

function principal(handle: string): { id: string; keyId: string; privateKeyFile: string } {
  const result = cli(db.url, handle === 'alice' ? 'human' : 'agent', 'add', handle, '--dir', dir);
  return lastJson(result.stdout) as { id: string; keyId: string; privateKeyFile: string };
}

describe('missionweave serve', () => {
  it('GET /metrics after one Command shows it', async () => {
    node = await serve(db.url, dir);
    const ca = readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8');
    const alice = principal('alice');
    const planner = principal('planner');
    const suffix = randomUUID();
    const command = signCommand({
      actor: { type: 'human', id: alice.id },
      kind: 'mission.create',
      groupId: `urn:missionweave:group:${suffix}`,
      issuedAt: new Date().toISOString(),
      payload: {
        missionId: `urn:missionweave:mission:${suffix}`, groupId: `urn:missionweave:group:${suffix}`, mainConversationId: `urn:missionweave:conversation:${suffix}`,
        coordinatorId: planner.id, title: 'Measured', objective: 'Show up in the metrics.',
        definitionOfDone: [{ criterionId: 'seen', description: 'Counted.', evidenceRequired: ['human_review'] }],
        budget: { currency: 'EUR', financialLimit: 1 }, deadline: new Date(Date.now() + 86_400_000).toISOString(),
      },
    }, { keyId: alice.keyId, privateKey: createPrivateKey(readFileSync(alice.privateKeyFile)) });
    groupId = `urn:missionweave:group:${suffix}`;
    const [answer] = await postCommands(node.https, ca, [JSON.stringify(command)], 1);
    expect(answer?.status, answer?.body).toBe(201);

    const result = await scrape(node.https, ca);
    expect(result.status).toBe(200);
    expect(valueOf(result, 'missionweave_commands_accepted_total', { kind: 'mission.create' })).toBe(1);
    expect(valueOf(result, 'missionweave_commit_batch_size_count', { queue: 'group' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(result, 'missionweave_command_event_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(valueOf(result, 'missionweave_pg_pool_max_clients')).toBe(16);
    expect(valueOf(result, 'missionweave_sessions_open')).toBe(0);
  }, 60_000);

  it('counts a Command the CLI sends with --node, accepted and refused', async () => {
    const running = node as ServeProcess;
    const ca = readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8');
    const posted = cli(db.url, 'command', 'message.post', '--as', 'alice', '--dir', dir, '--group', groupId, '--payload', '{"content":"Counted by the node."}', '--node', running.https);
    expect(posted.code, posted.stderr).toBe(0);
    expect(lastJson(posted.stdout)).toMatchObject({ kind: 'message.posted', groupId });
    // The CLI signs what it is given; the node refuses a payload member the schema does not know.
    // (A Group that does not exist is refused by the CLI itself, exit 66: cliErrors.e2e.test.ts.)
    const refused = cli(db.url, 'command', 'message.post', '--as', 'alice', '--dir', dir, '--group', groupId, '--payload', '{"content":"Refused.","mood":"curious"}', '--node', running.https);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^SCHEMA_VALIDATION_FAILED: /);
    const result = await scrape(running.https, ca);
    expect(valueOf(result, 'missionweave_commands_accepted_total', { kind: 'message.post' })).toBe(1);
    expect(valueOf(result, 'missionweave_commands_refused_total', { kind: 'message.post', code: 'SCHEMA_VALIDATION_FAILED' })).toBe(1);
  }, 120_000);

  it('with MW_METRICS=off answers 404 on /metrics', async () => {
    await node?.kill('SIGTERM');
    process.env['MW_METRICS'] = 'off';
    try {
      node = await serve(db.url, dir);
    } finally {
      delete process.env['MW_METRICS'];
    }
    const result = await scrape(node.https, readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8'));
    expect(result.status).toBe(404);
  }, 60_000);
});
