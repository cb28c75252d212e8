/**
 * `missionweave archive GROUP --dir D` as an operator types it (§7.4), in process on the folder's
 * own database: refused for a live Mission, accepted once the Mission is cancelled with both
 * archival Events; the archived Group's history still replays and verifies, and a later Command
 * is refused.
 */

import { expect, it } from 'vitest';
import { lastJsonLine, operatorScratch, plannerMissionFile, runCli } from './support/operatorCli.js';

const { scratch, dir } = operatorScratch('mw-archive-', 'demo');

it('archives a cancelled Mission’s Group, and only that', async () => {
  expect((await runCli('init', '--dir', dir)).code).toBe(0);
  expect((await runCli('agent', 'add', 'planner', '--dir', dir, '--capability', 'project.planning@1.0.0')).code).toBe(0);
  expect((await runCli('human', 'add', 'alice', '--dir', dir)).code).toBe(0);
  const payload = plannerMissionFile(scratch);
  const created = await runCli('command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', `@${payload}`);
  expect(created.code, created.stderr).toBe(0);
  const groupId = String(lastJsonLine(created.stdout)['groupId']);

  const live = await runCli('archive', groupId, '--dir', dir);
  expect(live.code).toBe(1);
  expect(live.stderr).toMatch(/^INVALID_STATE_TRANSITION/);

  expect((await runCli('command', 'mission.cancel', '--as', 'alice', '--dir', dir, '--group', groupId, '--payload', '{"reason":"called off"}')).code).toBe(0);
  const archived = await runCli('archive', groupId, '--dir', dir);
  expect(archived.code, archived.stderr).toBe(0);
  expect(archived.stdout.trim().split('\n').map((line) => JSON.parse(line).kind)).toEqual(['group.snapshot.created', 'group.archived']);
  expect(archived.stderr).toMatch(/^snapshot sha256:[0-9a-f]{64}$/m);

  const replay = await runCli('replay', groupId, '--dir', dir, '--verify');
  expect(replay.code, replay.stderr).toBe(0);
  expect(replay.stderr).toContain('verified 4 Events');
  const later = await runCli('command', 'message.post', '--as', 'alice', '--dir', dir, '--group', groupId, '--payload', '{"content":"Anyone?"}');
  expect(later.code).toBe(1);
  expect(later.stderr).toMatch(/^INVALID_STATE_TRANSITION/);
  expect((await runCli('archive', '--dir', dir)).code).toBe(2);
}, 240_000);
