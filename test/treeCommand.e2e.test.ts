/**
 * `missionweave tree` as an operator runs it (§14): the Mission tree of a human-created Mission
 * as one JSON document, exit 1 for an unknown Mission, exit 2 for a usage error.
 */

import { expect, it } from 'vitest';
import { lastJsonLine, operatorScratch, plannerMissionFile, runCli } from './support/operatorCli.js';

const { scratch, dir } = operatorScratch('mw-tree-', 'org');

it('prints the Mission tree, refuses an unknown Mission and a missing argument', async () => {
  expect((await runCli('init', '--dir', dir)).code).toBe(0);
  expect((await runCli('agent', 'add', 'planner', '--dir', dir)).code).toBe(0);
  expect((await runCli('human', 'add', 'alice', '--dir', dir)).code).toBe(0);
  const payload = plannerMissionFile(scratch);
  const created = await runCli('command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', `@${payload}`);
  expect(created.code, created.stderr).toBe(0);
  const missionId = String((lastJsonLine(created.stdout)['payload'] as { mission: { missionId: string } }).mission.missionId);

  const tree = await runCli('tree', missionId, '--dir', dir);
  expect(tree.code, tree.stderr).toBe(0);
  expect(lastJsonLine(tree.stdout)).toMatchObject({
    rootMissionId: missionId,
    truncated: false,
    missions: [{ missionId, title: 'Plan the offsite', state: 'active', depth: 0, missionOwner: { type: 'human', id: 'urn:missionweave:human:alice' }, coordinator: { agentId: 'urn:missionweave:agent:planner' }, workItems: {}, children: [] }],
  });
  expect((await runCli('tree', 'urn:missionweave:mission:missing', '--dir', dir)).code).toBe(1);
  expect((await runCli('tree', '--dir', dir)).code).toBe(2);
}, 180_000);
