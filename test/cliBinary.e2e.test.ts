/**
 * The built binary as an operator runs it: `node dist/cli/main.js …` with no `DATABASE_URL`, on
 * the folder's own embedded PostgreSQL — one smoke test per command group. What each command does
 * is tested in process (`runCli` in support/operatorCli.ts, on the run's template database); this
 * file shows the binary wires the same dispatch, exit codes (docs/cli.md) and streams. `validate` and
 * `conformance` are in cli.e2e.test.ts, `serve`, `mcp` and `disput` in their own files.
 */

import { describe, expect, it } from 'vitest';
import { PARLEY_URI } from '../src/domain/parley/parleyProfile.js';
import { lastJsonLine, operatorScratch, plannerMissionFile, runBinary } from './support/operatorCli.js';

const { scratch, dir } = operatorScratch('mw-binary-', 'org');
let groupId = '';
let missionId = '';

describe.sequential('missionweave, the binary, on an embedded PostgreSQL', () => {
  it('init: creates the folder and prints its summary', () => {
    const init = runBinary('init', '--dir', dir);
    expect(init.code, init.stderr).toBe(0);
    expect(lastJsonLine(init.stdout)).toMatchObject({ directory: dir, database: 'embedded' });
  }, 120_000);

  it('agent add, human add: Principals with keys', () => {
    const agent = runBinary('agent', 'add', 'planner', '--dir', dir, '--capability', 'project.planning@1.0.0');
    expect(agent.code, agent.stderr).toBe(0);
    expect(lastJsonLine(agent.stdout)).toMatchObject({ type: 'agent', id: 'urn:missionweave:agent:planner' });
    const human = runBinary('human', 'add', 'alice', '--dir', dir);
    expect(human.code, human.stderr).toBe(0);
    expect(lastJsonLine(human.stdout)).toMatchObject({ type: 'human', id: 'urn:missionweave:human:alice' });
  }, 120_000);

  it('command: signs and submits, printing the Events', () => {
    const payload = plannerMissionFile(scratch);
    const created = runBinary('command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', `@${payload}`);
    expect(created.code, created.stderr).toBe(0);
    const event = lastJsonLine(created.stdout);
    groupId = String(event['groupId']);
    missionId = String((event['payload'] as { mission: { missionId: string } }).mission.missionId);
    expect(event['kind']).toBe('mission.created');
  }, 120_000);

  it('replay: the Group’s Events, verified', () => {
    const replay = runBinary('replay', groupId, '--dir', dir, '--verify');
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stderr).toContain(`verified 1 Events of ${groupId}: OK`);
  }, 120_000);

  it('tree: the Mission tree as JSON', () => {
    const tree = runBinary('tree', missionId, '--dir', dir);
    expect(tree.code, tree.stderr).toBe(0);
    expect(lastJsonLine(tree.stdout)).toMatchObject({ rootMissionId: missionId, truncated: false });
  }, 120_000);

  it('registry export: the public bindings', () => {
    const exported = runBinary('registry', 'export', '--dir', dir);
    expect(exported.code, exported.stderr).toBe(0);
    const ids = (lastJsonLine(exported.stdout)['registry'] as { bindings: { principal: { id: string } }[] }).bindings.map((b) => b.principal.id);
    expect(ids).toEqual(expect.arrayContaining(['urn:missionweave:agent:planner', 'urn:missionweave:human:alice']));
  }, 120_000);

  it('audit: the Policy Log as JSON lines (none refused yet)', () => {
    const audit = runBinary('audit', '--dir', dir);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stdout).toBe('');
    expect(audit.stderr).toBe('no refused documents in the Policy Log for this selection\n');
  }, 120_000);

  it('profile list: the node’s own profiles, registered by init', () => {
    const listed = runBinary('profile', 'list', '--dir', dir);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(PARLEY_URI);
  }, 120_000);

  it('archive: a live Mission’s Group is refused with exit 1 and its code', () => {
    const live = runBinary('archive', groupId, '--dir', dir);
    expect(live.code).toBe(1);
    expect(live.stderr).toMatch(/^INVALID_STATE_TRANSITION/);
  }, 120_000);

  it('usage errors exit 2, with the usage on stderr', () => {
    const unknown = runBinary('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^usage: missionweave/);
  }, 120_000);

  it('help, version and a user\'s mistake: exit 0 on stdout; one line and its exit code, no trace', () => {
    const help = runBinary('replay', '--help');
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^usage: missionweave replay /);
    expect(runBinary('--version').stdout).toMatch(/^missionweave \d+\.\d+\.\d+/);
    const bad = runBinary('command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', '{');
    expect(bad.code).toBe(65);
    expect(bad.stderr).toMatch(/^--payload is not one strict JSON object: [^\n]*\n$/);
  }, 120_000);
});
