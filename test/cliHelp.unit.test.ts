/**
 * `--help` and `--version` (src/cli/cliHelp.ts), in process: each command and subcommand prints
 * its own usage on stdout and exits 0, without touching a home or a database.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/runCli.js';

async function run(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

describe('missionweave --help', () => {
  it('prints the whole usage on stdout and exits 0', async () => {
    const result = await run('--help');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^usage: missionweave <command>/);
    expect(result.stdout).toContain('registry export');
  });

  it.each([
    ['serve', '--help'],
    ['init', '--help'],
    ['agent', 'add', '--help'],
    ['human', 'add', 'ann', '--dir', 'nowhere', '--help'],
    ['command', 'mission.create', '--help'],
    ['archive', '--help'],
    ['destroy', '--help'],
    ['replay', 'G', '--verify', '--help'],
    ['registry', 'export', '--help'],
    ['audit', '-h'],
    ['tree', '--help'],
    ['profile', 'list', '--help'],
    ['mcp', '--help'],
    ['disput', 'next', '--help'],
    ['conformance', '--json', '--help'],
    ['validate', '--help'],
    ['start', '--help'],
    ['kinds', '--help'],
  ])('%s %s… prints that command\'s usage and exits 0', async (...args) => {
    const result = await run(...args);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(new RegExp(`^usage: missionweave ${args[0]}\\b`));
    expect(result.stdout).not.toContain('commands:');
  });

  it('takes --help given as an option\'s value for that value, not for help', async () => {
    const result = await run('validate', '--payload', '--help');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
  });

  it('still refuses an unknown command with the usage on stderr and exit 2', async () => {
    const result = await run('frobnicate');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^usage: missionweave/);
  });
});

describe('missionweave --version', () => {
  it('prints package.json\'s version', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const result = await run('--version');
    expect(result).toEqual({ code: 0, stdout: `missionweave ${version}\n`, stderr: '' });
  });
});
