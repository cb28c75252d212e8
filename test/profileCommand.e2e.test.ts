/**
 * `missionweave profile add` / `profile list` as an operator runs them (§18): a document approved
 * by a registered human is stored once and listed; a tampered one is refused with exit 1 and its
 * §19 code; a missing file or action is a usage error. `init` has registered Parley v1 already.
 */

import { createPrivateKey } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Actor } from './support/harness.js';
import { operatorScratch, runCli } from './support/operatorCli.js';
import { tallyProfileDocument } from './support/profileDocuments.js';
import { TALLY_URI } from './support/tallyProfile.js';
import { DISPUT_URI } from '../src/domain/disput/disputProfile.js';
import { PARLEY_URI } from '../src/domain/parley/parleyProfile.js';

const { scratch, dir } = operatorScratch('mw-profile-', 'org');

function lines(text: string): Record<string, unknown>[] {
  return text.trim() === '' ? [] : text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

it('registers an approved profile once, lists it, and refuses a tampered one', async () => {
  expect((await runCli('init', '--dir', dir)).code).toBe(0);
  const added = await runCli('human', 'add', 'alice', '--dir', dir);
  expect(added.code, added.stderr).toBe(0);
  const human = JSON.parse(added.stdout.trim().split('\n').at(-1) as string) as { id: string; keyId: string; privateKeyFile: string };
  const alice: Actor = { principal: { type: 'human', id: human.id }, key: { keyId: human.keyId, privateKey: createPrivateKey(readFileSync(human.privateKeyFile, 'utf8')) } };
  // Whole seconds, not earlier than now: alice's key is valid from the whole second \`human add\`
  // ran in, and a second earlier fell before it whenever that command took under a second.
  const approvedAt = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  const document = tallyProfileDocument(alice, approvedAt);
  const file = join(scratch, 'tally-profile.json');
  writeFileSync(file, JSON.stringify(document, null, 2));

  const first = await runCli('profile', 'add', file, '--dir', dir);
  expect(first.code, first.stderr).toBe(0);
  expect(lines(first.stdout)).toEqual([expect.objectContaining({ profileUri: TALLY_URI, version: '1.0.0', majorVersion: 1, critical: true, registered: true })]);
  const again = await runCli('profile', 'add', file, '--dir', dir);
  expect(lines(again.stdout)[0]).toMatchObject({ registered: false });

  const tampered = join(scratch, 'tampered.json');
  writeFileSync(tampered, JSON.stringify({ ...document, version: '1.0.1' }));
  const refused = await runCli('profile', 'add', tampered, '--dir', dir);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/^AUTH_INVALID_SIGNATURE/);

  const listed = await runCli('profile', 'list', '--dir', dir);
  expect(listed.code, listed.stderr).toBe(0);
  // `init` registered the node's own Parley v1 and disput v0, approved by the Registry service, ready to pin.
  expect(lines(listed.stdout).map((p) => [p['profileUri'], p['version']]).sort()).toEqual([
    [TALLY_URI, '1.0.0'],
    [PARLEY_URI, '1.0.0'],
    [DISPUT_URI, '0.1.0'],
  ].sort());
  expect((await runCli('profile', 'add', '--dir', dir)).code).toBe(2);
  expect((await runCli('profile', 'remove', file, '--dir', dir)).code).toBe(2);
}, 180_000);
