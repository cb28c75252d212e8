/**
 * What an operator's folder lets anyone check, with the built CLI and `serve` on one PostgreSQL:
 * `replay --verify` compares each Event with its stored First-Admission Record (§6.4) and exits 1
 * once a stored record no longer binds that Event; `registry export` writes exactly the bytes
 * `GET /v1/registry` serves at the same Registry revision, whichever of the two published it.
 */

import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import type { Actor } from './support/harness.js';
import { signIn } from './support/humanReader.js';
import { cli, cliInProcess, lastJson, serve, type ServeProcess } from './support/nodeProcess.js';

const scratch = mkdtempSync(join(tmpdir(), 'mw-evidence-'));
const dir = join(scratch, 'org');
let node: ServeProcess | undefined;
afterAll(async () => {
  await node?.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

let db: TestDatabase;
let groupId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  // Setup through the CLI's dispatch in process; the commands under test run as the binary.
  for (const args of [['init', '--dir', dir], ['agent', 'add', 'planner', '--dir', dir], ['human', 'add', 'alice', '--dir', dir]]) {
    const result = await cliInProcess(db.url, ...args);
    expect(result.code, result.stderr).toBe(0);
  }
  const missionFile = join(scratch, 'mission.json');
  writeFileSync(missionFile, JSON.stringify({
    coordinatorId: 'urn:missionweave:agent:planner',
    title: 'Plan the offsite',
    objective: 'Agree an agenda for the team offsite.',
    definitionOfDone: [{ criterionId: 'agenda', description: 'An agreed agenda.', evidenceRequired: ['human_review'] }],
    budget: { currency: 'EUR', financialLimit: 100 },
    deadline: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  }));
  const created = cli(db.url, 'command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', `@${missionFile}`);
  expect(created.code, created.stderr).toBe(0);
  groupId = String(lastJson(created.stdout)['groupId']);
  expect(cli(db.url, 'command', 'message.post', '--as', 'alice', '--dir', dir, '--group', groupId, '--payload', '{"content":"Ideas welcome."}').code).toBe(0);
  // Five CLI processes one after another: on the Citus cluster under load (load average 15,
  // 2026-12-05) they ran past the 120 s this hook had.
}, 300_000);

it('replay --verify exits 1 once a stored First-Admission Record no longer binds its Event', async () => {
  const verified = cli(db.url, 'replay', groupId, '--dir', dir, '--verify');
  expect(verified.code, verified.stderr).toBe(0);

  // The second Event's record now names another key of the Group Authority than the one it was signed with.
  const otherKeyId = 'urn:uuid:00000000-0000-4000-8000-00000000a17e';
  await db.pool.query(
    `insert into event_admission_keys (key_id, organization_id, principal_type, principal_id, accepted_by_type, accepted_by_id)
     select $1, organization_id, principal_type, principal_id, accepted_by_type, accepted_by_id from event_admission_keys`,
    [otherKeyId],
  );
  await db.pool.query('update events set key_id = $2 where group_id = $1 and sequence = 2', [groupId, otherKeyId]);
  const rebound = cli(db.url, 'replay', groupId, '--dir', dir, '--verify');
  expect(rebound.stderr).toContain('sequence 2: admission record-binding-mismatch');
  expect(rebound.stderr).not.toContain('sequence 1:');
  expect(rebound.code).toBe(1);
  await db.pool.query("update events set key_id = (document::jsonb) #>> '{signature,keyId}' where group_id = $1", [groupId]);

  // Every record of the node's Events now says another service accepted them.
  await db.pool.query("update event_admission_keys set accepted_by_id = 'urn:missionweave:service:registry'");
  const reaccepted = cli(db.url, 'replay', groupId, '--dir', dir, '--verify');
  expect(reaccepted.stderr).toContain('sequence 1: admission record-service-mismatch');
  expect(reaccepted.code).toBe(1);
}, 120_000);

/** A Principal the folder holds, with its private key. */
function actorOf(handle: string): Actor {
  const record = JSON.parse(readFileSync(join(dir, 'principals', `${handle}.json`), 'utf8')) as { type: 'human'; id: string; keyId: string; privateKeyFile: string };
  return { principal: { type: record.type, id: record.id }, key: { keyId: record.keyId, privateKey: createPrivateKey(readFileSync(join(dir, record.privateKeyFile), 'utf8')) } };
}

function getBytes(url: string, ca: string, token: string): Promise<{ status: number; revision: string | undefined; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    // A fresh connection each time: the node closes idle ones while the CLI runs between reads.
    get(url, { ca, headers: { authorization: `Bearer ${token}` }, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, revision: response.headers['missionweave-registry-revision'] as string | undefined, bytes: Buffer.concat(chunks) }));
    }).once('error', reject);
  });
}

it('registry export writes the very bytes GET /v1/registry serves at the same revision, whichever published it first', async () => {
  node = await serve(db.url, dir);
  const server = { httpsUrl: node.https, ca: readFileSync(join(dir, 'tls', 'cert.pem'), 'utf8') };
  const { token } = await signIn(server, actorOf('alice'));
  const exportFile = join(scratch, 'registry.json');

  // The node publishes the revision first, then the CLI exports it.
  const served = await getBytes(`${node.https}/v1/registry`, server.ca, token);
  expect(served.status, served.bytes.toString()).toBe(200);
  expect(cli(db.url, 'registry', 'export', '--dir', dir, '--out', exportFile).code).toBe(0);
  expect(readFileSync(exportFile).toString()).toBe(served.bytes.toString());

  // A key enrolled by the CLI moves the revision; now the CLI publishes it first.
  expect(cli(db.url, 'human', 'add', 'bob', '--dir', dir).code).toBe(0);
  expect(cli(db.url, 'registry', 'export', '--dir', dir, '--out', exportFile).code).toBe(0);
  const next = await getBytes(`${node.https}/v1/registry`, server.ca, token);
  expect(readFileSync(exportFile).toString()).toBe(next.bytes.toString());
  const document = JSON.parse(next.bytes.toString()) as { snapshot: { revision: number } };
  expect(next.revision).toBe(String(document.snapshot.revision));
  expect(Number(next.revision)).toBeGreaterThan(Number(served.revision));
}, 120_000);
