/**
 * `missionweave audit` as an operator runs it: a Command signed with the wrong private key is
 * refused and shows up once, with its stage and claimed Group, filtered by --group and --since
 * and bounded by --limit.
 */

import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { operatorScratch, runCli } from './support/operatorCli.js';

const { dir } = operatorScratch('mw-audit-', 'org');
function lines(text: string): Record<string, unknown>[] {
  return text.trim() === '' ? [] : text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

it('prints refused Commands as JSON lines, filtered by Group and time, bounded by --limit', async () => {
  expect((await runCli('init', '--dir', dir)).code).toBe(0);
  const human = await runCli('human', 'add', 'alice', '--dir', dir);
  expect(human.code, human.stderr).toBe(0);
  const keyFile = String(JSON.parse(human.stdout.trim().split('\n').at(-1) as string)['privateKeyFile']);
  const groupId = 'urn:missionweave:group:audited';
  const none = await runCli('audit', '--dir', dir);
  expect(lines(none.stdout)).toEqual([]);
  expect(none.stderr).toBe('no refused documents in the Policy Log for this selection\n');

  // Another private key under alice's key ID: the signature no longer verifies.
  writeFileSync(keyFile, generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const refused = await runCli('command', 'mission.create', '--as', 'alice', '--dir', dir, '--group', groupId, '--payload', '{}');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/^AUTH_INVALID_SIGNATURE/);

  const all = await runCli('audit', '--dir', dir);
  expect(all.code, all.stderr).toBe(0);
  const forged = lines(all.stdout).filter((r) => r['claimedKind'] === 'mission.create');
  expect(forged).toHaveLength(1);
  expect(forged[0]).toMatchObject({ stage: 'signature', code: 'AUTH_INVALID_SIGNATURE', transport: 'cli', claimedGroupId: groupId, claimedActorId: 'urn:missionweave:human:alice' });

  expect(lines((await runCli('audit', '--dir', dir, '--group', groupId)).stdout).map((r) => r['entryId'])).toContain(forged[0]?.['entryId']);
  expect(lines((await runCli('audit', '--dir', dir, '--group', 'urn:missionweave:group:other')).stdout)).toEqual([]);
  expect(lines((await runCli('audit', '--dir', dir, '--since', String(forged[0]?.['occurredAt']))).stdout).map((r) => r['entryId'])).toContain(forged[0]?.['entryId']);
  expect(lines((await runCli('audit', '--dir', dir, '--since', '2999-01-01T00:00:00Z')).stdout)).toEqual([]);
  const first = await runCli('audit', '--dir', dir, '--limit', '1');
  expect(lines(first.stdout)).toHaveLength(1);
  expect(first.stderr).toBe(`1 refused document of the Policy Log printed, oldest first; there may be more: read on with --since ${String(lines(first.stdout)[0]?.['occurredAt'])}\n`);
  expect(all.stderr).toMatch(/^\d+ refused documents? of the Policy Log printed, oldest first; that is all\n$/);
  expect((await runCli('audit', '--dir', dir, '--limit', '0')).code).toBe(2);
  expect((await runCli('audit', '--dir', dir, '--since', 'yesterday')).code).toBe(2);
}, 180_000);
