/**
 * The README's operator walk-through, as a newcomer types it: init, agent add, human add, a
 * human creating a Mission and posting to it, and reading it back with `replay --verify` — in
 * process, on the folder's own database (the binary on the embedded PostgreSQL: cliBinary.e2e).
 */

import { expect, it } from 'vitest';
import { lastJsonLine, operatorScratch, plannerMissionFile, runCli } from './support/operatorCli.js';

const { scratch, dir } = operatorScratch('mw-flow-', 'demo');
it('goes from init to a verified replay of a human-created Mission', async () => {
  const init = await runCli('init', '--dir', dir);
  expect(init.code, init.stderr).toBe(0);
  expect((await runCli('init', '--dir', dir)).stdout).toBe(init.stdout);

  const agent = await runCli('agent', 'add', 'planner', '--dir', dir, '--capability', 'project.planning@1.0.0');
  expect(agent.code, agent.stderr).toBe(0);
  expect(lastJsonLine(agent.stdout)).toMatchObject({ type: 'agent', id: 'urn:missionweave:agent:planner' });
  const human = await runCli('human', 'add', 'alice', '--dir', dir);
  expect(lastJsonLine(human.stdout)).toMatchObject({ type: 'human', id: 'urn:missionweave:human:alice' });
  expect(String(lastJsonLine(human.stdout)['privateKeyFile'])).toMatch(/alice\.pem$/);

  const payload = plannerMissionFile(scratch);
  const created = await runCli('command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', `@${payload}`);
  expect(created.code, created.stderr).toBe(0);
  const groupId = String(lastJsonLine(created.stdout)['groupId']);
  const posted = await runCli('command', 'message.post', '--as', 'alice', '--dir', dir, '--group', groupId, '--payload', '{"content":"Ideas welcome."}');
  expect(posted.code, posted.stderr).toBe(0);
  expect(lastJsonLine(posted.stdout)).toMatchObject({ kind: 'message.posted', sequence: 2 });

  const replay = await runCli('replay', groupId, '--dir', dir, '--verify');
  expect(replay.code, replay.stderr).toBe(0);
  expect(replay.stdout.trim().split('\n').map((line) => JSON.parse(line).kind)).toEqual(['mission.created', 'message.posted']);
  expect(replay.stderr).toContain('verified 2 Events');
  expect((await runCli('replay', groupId, '--dir', dir, '--after', '1')).stdout.trim().split('\n')).toHaveLength(1);
  expect((await runCli('replay', 'urn:missionweave:group:missing', '--dir', dir)).code).toBe(1);
}, 180_000);
