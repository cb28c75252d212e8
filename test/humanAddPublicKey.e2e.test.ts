/**
 * `missionweave human add --public-key` (docs/human-api.md): a key made in a browser, whose
 * private half never leaves it, is enrolled as given — a base64url raw key or a PEM file — and
 * published in the Registry export; a malformed key is a usage error, and the CLI cannot sign
 * for such a human.
 */

import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { lastJsonLine, operatorScratch, runCli } from './support/operatorCli.js';

const { scratch, dir } = operatorScratch('mw-pubkey-', 'org');

it('enrols a human key given as base64url or PEM, and refuses a malformed one', async () => {
  expect((await runCli('init', '--dir', dir)).code).toBe(0);
  const raw = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x as string;
  const bob = await runCli('human', 'add', 'bob', '--dir', dir, '--public-key', raw);
  expect(bob.code, bob.stderr).toBe(0);
  const bobRecord = lastJsonLine(bob.stdout);
  expect(bobRecord).toMatchObject({ type: 'human', id: 'urn:missionweave:human:bob', privateKeyFile: null });

  const pem = join(scratch, 'carol.pem');
  const carolKey = generateKeyPairSync('ed25519').publicKey;
  writeFileSync(pem, carolKey.export({ format: 'pem', type: 'spki' }));
  const carol = await runCli('human', 'add', 'carol', '--dir', dir, '--public-key', pem);
  expect(carol.code, carol.stderr).toBe(0);

  const bad = await runCli('human', 'add', 'dave', '--dir', dir, '--public-key', 'not-a-key');
  expect({ code: bad.code, said: bad.stderr.includes('--public-key') }).toEqual({ code: 2, said: true });

  const exported = join(scratch, 'registry.json');
  expect((await runCli('registry', 'export', '--dir', dir, '--out', exported)).code).toBe(0);
  const { bindings } = (JSON.parse(readFileSync(exported, 'utf8')) as { registry: { bindings: { keyId: string; publicKey: string; principal: { id: string } }[] } }).registry;
  expect(bindings.find((b) => b.keyId === bobRecord['keyId'])).toMatchObject({ publicKey: raw, principal: { id: 'urn:missionweave:human:bob' } });
  const carolRaw = carolKey.export({ format: 'jwk' }).x;
  expect(bindings.find((b) => b.principal.id === 'urn:missionweave:human:carol')?.publicKey).toBe(carolRaw);

  const cannotSign = await runCli('command', 'message.post', '--as', 'bob', '--dir', dir, '--group', 'urn:missionweave:group:x', '--payload', '{"content":"hi"}');
  expect({ code: cannotSign.code, said: cannotSign.stderr.includes('held elsewhere') }).toEqual({ code: 2, said: true });
}, 180_000);
