/**
 * A user's mistakes at the operator CLI, in process: each is one line on stderr that says what is
 * wrong and what to do — never a stack trace — with its documented exit code (docs/cli.md): 65
 * for a payload that is not one strict JSON object, 66 for what is not there (a `@file`, a home,
 * a Group, a kind), 69 for a port in use; an internal error is one line, its trace with --verbose.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { operatorScratch, runCli, type CliResult } from './support/operatorCli.js';

const { scratch, dir } = operatorScratch('mw-cli-errors-', 'org');

/** One line on stderr, no trace, nothing on stdout. */
function oneLine(result: CliResult, code: number, says: RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n'), result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).toMatch(says);
}

it('says in one line what is wrong with a Command, with its exit code', async () => {
  expect((await runCli('init', '--dir', dir)).code).toBe(0);
  expect((await runCli('human', 'add', 'alice', '--dir', dir)).code).toBe(0);
  const command = (...more: string[]) => runCli('command', 'mission.create', '--as', 'alice', '--dir', dir, ...more);

  oneLine(await command('--payload', '{'), 65, /^--payload is not one strict JSON object: .*missionweave kinds/);
  oneLine(await command('--payload', '{"title":"a","title":"b"}'), 65, /duplicate/i);
  oneLine(await command('--payload', '[1]'), 65, /must be a JSON object/);
  oneLine(await command('--payload', `@${join(scratch, 'absent.json')}`), 66, /^no file .*absent\.json .*give the path/);

  const empty = join(scratch, 'empty');
  mkdirSync(empty);
  oneLine(await runCli('command', 'mission.create', '--as', 'alice', '--dir', empty, '--payload', '{}'), 66, /is not a missionweave home .*missionweave init --dir/);

  oneLine(
    await runCli('command', 'message.post', '--as', 'alice', '--dir', dir, '--group', 'urn:missionweave:group:nowhere', '--payload', '{"body":"hi"}'),
    66,
    /^no Group urn:missionweave:group:nowhere in .*mission\.create/,
  );
  oneLine(await runCli('kinds', 'mission.make'), 66, /^no Command kind mission\.make; .*missionweave kinds/);
}, 180_000);

it('refuses at once, in one line, a port already in use', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  try {
    const port = String((taken.address() as AddressInfo).port);
    const started = Date.now();
    oneLine(await runCli('serve', '--dir', dir, '--host', '127.0.0.1', '--port', port), 69, new RegExp(`^port ${port} on 127\\.0\\.0\\.1 is already in use.*--port`));
    expect(Date.now() - started).toBeLessThan(2_000);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});

it('reports an internal error in one line, and its trace only with --verbose', async () => {
  const broken = join(scratch, 'broken');
  mkdirSync(broken);
  writeFileSync(join(broken, 'config.json'), '{');
  oneLine(await runCli('command', 'mission.create', '--as', 'alice', '--dir', broken), 70, /^missionweave: internal error: .*; run again with --verbose for the trace\n$/);
  const verbose = await runCli('command', 'mission.create', '--as', 'alice', '--dir', broken, '--verbose');
  expect(verbose.code).toBe(70);
  expect(verbose.stderr).toMatch(/^missionweave: SyntaxError: .*\n\s+at /);
});
