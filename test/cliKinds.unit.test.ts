/**
 * `missionweave kinds [KIND]` (src/cli/kindsCommand.ts), in process: every Command kind of the
 * core and of the node's profiles on a line of its own; one kind's payload schema and example.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/runCli.js';
import { NODE_PROFILES } from '../src/app/nodeProfiles.js';
import { buildKindRegistry } from '../src/domain/coreModules.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';

async function run(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

describe('missionweave kinds', () => {
  it('lists every kind the node accepts, core and profiles, one line each', async () => {
    const result = await run('kinds');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const listed = result.stdout.trimEnd().split('\n').map((line) => line.split(/\s+/)[0]);
    const registry = buildKindRegistry(NODE_PROFILES.map((p) => p.profile));
    expect([...listed].sort()).toEqual([...registry.kindNames].sort());
    expect(result.stdout).toMatch(/^mission\.create\s+core\s+sent by creator/m);
    expect(result.stdout).toMatch(/Parley v1/);
  });

  it('shows one kind\'s payload schema and an example that passes it', async () => {
    const result = await run('kinds', 'mission.create');
    expect(result.code).toBe(0);
    const schemaFile = JSON.parse(readFileSync('schemas/payloads/mission.create.schema.json', 'utf8')) as unknown;
    const [, schemaText, exampleText] = result.stdout.split(/^payload schema:\n|^example payload .*\n/m);
    expect(JSON.parse(schemaText as string)).toEqual(schemaFile);
    const example = JSON.parse(exampleText as string) as Record<string, unknown>;
    expect(schemaRegistry().validatePayload('mission.create', example)).toEqual({ ok: true });
    expect(example).toHaveProperty('title');
  });

  it('shows a profile kind\'s schema', async () => {
    const parleyKind = NODE_PROFILES[0]?.profile.kinds[0]?.kind as string;
    const result = await run('kinds', parleyKind);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${parleyKind} (Parley v1)`);
    expect(result.stdout).toContain('payload schema:');
  });
});
