/**
 * What an operator's folder lets anyone check, with the built CLI on one PostgreSQL:
 * `replay --verify` compares each Event with its stored First-Admission Record (§6.4) and exits 1
 * once a stored record no longer binds that Event.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { cli, lastJson } from './support/nodeProcess.js';

const scratch = mkdtempSync(join(tmpdir(), 'mw-evidence-'));
const dir = join(scratch, 'org');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let db: TestDatabase;
let groupId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  expect(cli(db.url, 'init', '--dir', dir).code).toBe(0);
  expect(cli(db.url, 'agent', 'add', 'planner', '--dir', dir).code).toBe(0);
  expect(cli(db.url, 'human', 'add', 'alice', '--dir', dir).code).toBe(0);
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
}, 120_000);

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
