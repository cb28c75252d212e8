/**
 * The README's operator walk-through, as a newcomer types it: init, agent add, human add, a
 * human creating a Mission and posting to it, and reading it back with `replay --verify` — on
 * the embedded PostgreSQL each command starts inside the directory.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { removeEmbeddedData } from '../src/store/embeddedPostgres.js';

const CLI = join(process.cwd(), 'dist', 'cli', 'main.js');
const scratch = mkdtempSync(join(tmpdir(), 'mw-flow-'));
const dir = join(scratch, 'demo');
afterAll(() => {
  removeEmbeddedData(join(dir, 'db')); // outside the scratch folder when we are root
  rmSync(scratch, { recursive: true, force: true });
});

function run(...args: string[]) {
  const env = { ...process.env };
  delete env['DATABASE_URL'];
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function json(text: string): Record<string, unknown> {
  return JSON.parse(text.trim().split('\n').at(-1) as string) as Record<string, unknown>;
}

it('goes from init to a verified replay of a human-created Mission', () => {
  const init = run('init', '--dir', dir);
  expect(init.code, init.stderr).toBe(0);
  expect(run('init', '--dir', dir).stdout).toBe(init.stdout);

  const agent = run('agent', 'add', 'planner', '--dir', dir, '--capability', 'project.planning@1.0.0');
  expect(agent.code, agent.stderr).toBe(0);
  expect(json(agent.stdout)).toMatchObject({ type: 'agent', id: 'urn:missionweave:agent:planner' });
  const human = run('human', 'add', 'alice', '--dir', dir);
  expect(json(human.stdout)).toMatchObject({ type: 'human', id: 'urn:missionweave:human:alice' });
  expect(String(json(human.stdout)['privateKeyFile'])).toMatch(/alice\.pem$/);

  const payload = join(scratch, 'mission.json');
  writeFileSync(payload, JSON.stringify({
    coordinatorId: 'urn:missionweave:agent:planner',
    title: 'Plan the offsite',
    objective: 'Agree an agenda for the team offsite.',
    definitionOfDone: [{ criterionId: 'agenda', description: 'An agreed agenda.', evidenceRequired: ['human_review'] }],
    budget: { currency: 'EUR', financialLimit: 100 },
    deadline: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  }));
  const created = run('command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', `@${payload}`);
  expect(created.code, created.stderr).toBe(0);
  const groupId = String(json(created.stdout)['groupId']);
  const posted = run('command', 'message.post', '--as', 'alice', '--dir', dir, '--group', groupId, '--payload', '{"content":"Ideas welcome."}');
  expect(posted.code, posted.stderr).toBe(0);
  expect(json(posted.stdout)).toMatchObject({ kind: 'message.posted', sequence: 2 });

  const replay = run('replay', groupId, '--dir', dir, '--verify');
  expect(replay.code, replay.stderr).toBe(0);
  expect(replay.stdout.trim().split('\n').map((line) => JSON.parse(line).kind)).toEqual(['mission.created', 'message.posted']);
  expect(replay.stderr).toContain('verified 2 Events');
  expect(run('replay', groupId, '--dir', dir, '--after', '1').stdout.trim().split('\n')).toHaveLength(1);
  expect(run('replay', 'urn:missionweave:group:missing', '--dir', dir).code).toBe(1);
}, 180_000);
