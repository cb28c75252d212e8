/**
 * Parley from the operator's CLI (README "Parley on a node"): after `init` a Mission pins Parley
 * v1 at `mission.create`, a human's signed Parley Command is accepted, the same Command in a
 * Group that did not pin it is refused UNKNOWN_CRITICAL_EXTENSION, and `replay --verify`
 * re-verifies the Group's Parley Events.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { lastJsonLine, operatorScratch, runCli } from './support/operatorCli.js';

const { scratch, dir } = operatorScratch('mw-parley-', 'demo');

function missionFile(name: string, extra: object): string {
  const file = join(scratch, `${name}.json`);
  writeFileSync(file, JSON.stringify({
    coordinatorId: 'urn:missionweave:agent:planner',
    title: 'Choose an index',
    objective: 'Agree the index of the orders table.',
    definitionOfDone: [{ criterionId: 'index', description: 'An agreed index.', evidenceRequired: ['human_review'] }],
    budget: { currency: 'EUR', financialLimit: 100 },
    deadline: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    ...extra,
  }));
  return file;
}

it('pins Parley at mission.create, posts to it, and replays it verified', async () => {
  expect((await runCli('init', '--dir', dir)).code).toBe(0);
  expect((await runCli('agent', 'add', 'planner', '--dir', dir, '--capability', 'project.planning@1.0.0')).code).toBe(0);
  expect((await runCli('human', 'add', 'alice', '--dir', dir)).code).toBe(0);
  const ask = JSON.stringify({ parley: '1', kind: 'ask', body: 'Which index fits the orders table?', from: { extension: 'cli' } });

  const pinned = await runCli('command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', `@${missionFile('pinned', { pinnedProfiles: [{ profileUri: 'urn:missionweave:profile:parley:1', majorVersion: 1 }] })}`);
  expect(pinned.code, pinned.stderr).toBe(0);
  const groupId = String(lastJsonLine(pinned.stdout)['groupId']);
  const posted = await runCli('command', 'ext.missionweave.parley.post', '--as', 'alice', '--dir', dir, '--group', groupId, '--payload', ask);
  expect(posted.code, posted.stderr).toBe(0);
  expect(lastJsonLine(posted.stdout)).toMatchObject({ kind: 'ext.missionweave.parley.posted', sequence: 2 });

  const unpinned = await runCli('command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', `@${missionFile('unpinned', {})}`);
  const other = String(lastJsonLine(unpinned.stdout)['groupId']);
  const refused = await runCli('command', 'ext.missionweave.parley.post', '--as', 'alice', '--dir', dir, '--group', other, '--payload', ask);
  expect(refused.code).toBe(1);
  expect(refused.stdout + refused.stderr).toContain('UNKNOWN_CRITICAL_EXTENSION');

  const replay = await runCli('replay', groupId, '--dir', dir, '--verify');
  expect(replay.code, replay.stderr).toBe(0);
  expect(replay.stdout.trim().split('\n').map((line) => JSON.parse(line).kind)).toEqual(['mission.created', 'ext.missionweave.parley.posted']);
  expect(replay.stderr).toContain('verified 2 Events');
}, 240_000);
