/**
 * `missionweave registry export` as a third party would use it: the exported document, checked
 * with the Registry key `init` printed and nothing else from the operator's directory (no private
 * key file), verifies a Group's Events offline with the same six-stage verifier `replay --verify`
 * uses; a key missing from it, or an Event signed outside the key's validity interval, is
 * rejected at stage 4. Its `registry` member is the normative Registry fixture schema's form.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { beforeAll, expect, it } from 'vitest';
import { lastJsonLine, operatorScratch, plannerMissionFile, runCli } from './support/operatorCli.js';
import { verifyRegistrySnapshot } from '../src/client/registrySnapshot.js';
import { canonicalize } from '../src/protocol/jcs.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import type { KeyBindingEvidence } from '../src/protocol/signing/keyRegistry.js';
import { registryInput, verifySignedDocument } from '../src/protocol/signing/verifySignedDocument.js';
import { describeWithSpec, specJson } from './support/spec.js';

const Ajv2020 = Ajv2020Module as unknown as typeof Ajv2020Module.default;
const { scratch, dir } = operatorScratch('mw-registry-', 'org');
const exportFile = join(scratch, 'registry.json');
interface Registry {
  organizationId: string;
  bindings: KeyBindingEvidence[];
}
interface Export {
  registry: Registry;
  snapshot: { revision: number; contextGenerator?: unknown };
}

let events: string[] = [];
let authority: { id: string; keyId: string };
let publishedKey: { keyId: string; publicKey: string };

beforeAll(async () => {
  const init = await runCli('init', '--dir', dir);
  expect(init.code, init.stderr).toBe(0);
  authority = lastJsonLine(init.stdout)['authority'] as { id: string; keyId: string };
  publishedKey = lastJsonLine(init.stdout)['registry'] as { keyId: string; publicKey: string };
  expect((await runCli('agent', 'add', 'planner', '--dir', dir)).code).toBe(0);
  expect((await runCli('human', 'add', 'alice', '--dir', dir)).code).toBe(0);
  const payload = plannerMissionFile(scratch);
  const created = await runCli('command', 'mission.create', '--as', 'alice', '--dir', dir, '--payload', `@${payload}`);
  expect(created.code, created.stderr).toBe(0);
  const groupId = String(lastJsonLine(created.stdout)['groupId']);
  expect((await runCli('command', 'message.post', '--as', 'alice', '--dir', dir, '--group', groupId, '--payload', '{"content":"Ideas welcome."}')).code).toBe(0);
  events = (await runCli('replay', groupId, '--dir', dir)).stdout.trim().split('\n');
  expect(events).toHaveLength(2);
  const exported = await runCli('registry', 'export', '--dir', dir, '--out', exportFile);
  expect(exported.code, exported.stderr).toBe(0);
  const { snapshot, registry } = JSON.parse(readFileSync(exportFile, 'utf8')) as Export;
  expect(exported.stderr).toBe(`wrote the Registry at revision ${snapshot.revision} (${registry.bindings.length} key bindings, no private key) to ${exportFile}\n`);
  expect(exported.stdout).toBe('');
}, 240_000);

function verifyAll(registry: unknown) {
  return events.map((text) => verifySignedDocument('event', Buffer.from(text), registryInput(registry), schemaRegistry()));
}

it('prints the same document it writes, with every Principal’s public key and no private material', async () => {
  const printed = await runCli('registry', 'export', '--dir', dir);
  expect(printed.code, printed.stderr).toBe(0);
  const text = readFileSync(exportFile, 'utf8');
  expect(printed.stdout).toBe(`${text}\n`);
  const document = JSON.parse(text) as Export;
  expect(text).toBe(canonicalize(document));
  expect(document.snapshot.revision).toBeGreaterThan(0);
  expect(document.registry.bindings.map((b) => `${b.principal.type} ${b.principal.id}`).sort()).toEqual([
    'agent urn:missionweave:agent:organization:context-generator',
    'agent urn:missionweave:agent:planner',
    'human urn:missionweave:human:alice',
    'service urn:missionweave:service:group-authority',
    'service urn:missionweave:service:registry',
  ]);
  expect(text).not.toMatch(/PRIVATE KEY|"seed"|"d"\s*:/);
  // It names the Agent whose Context Packages this Organization's Agents accept (§13.3).
  expect(document.snapshot.contextGenerator).toEqual({ type: 'agent', id: 'urn:missionweave:agent:organization:context-generator' });
  expect((await runCli('registry', '--dir', dir)).code).toBe(2);
});

it('verifies the Group’s Events offline, accepted by the Group Authority, once the Registry key init printed vouches for it', async () => {
  const checked = verifyRegistrySnapshot(readFileSync(exportFile), publishedKey);
  expect(checked.revision).toBe((JSON.parse(readFileSync(exportFile, 'utf8')) as Export).snapshot.revision);
  for (const result of verifyAll(checked.registry.evidence())) {
    expect(result.ok && { keyId: result.verified.keyId, principal: result.verified.principal }).toEqual({ keyId: authority.keyId, principal: { type: 'service', id: authority.id } });
  }
});

it('rejects the Events at stage 4 when their key is missing from it, or they fall outside its validity', async () => {
  const document = (JSON.parse(readFileSync(exportFile, 'utf8')) as Export).registry;
  const without = { ...document, bindings: document.bindings.filter((b) => b.keyId !== authority.keyId) };
  for (const result of verifyAll(without)) expect(!result.ok && [result.failure.stage, result.failure.reason, result.failure.code]).toEqual(['key-resolution', 'unknown-key', 'AUTH_INVALID_SIGNATURE']);

  const firstAt = String((JSON.parse(events[0] as string) as { occurredAt: string }).occurredAt);
  const expired = {
    ...document,
    bindings: document.bindings.map((b) => (b.keyId === authority.keyId ? { ...b, validityHistory: [{ sequence: 1, recordedAt: firstAt, validUntil: firstAt }] } : b)),
  };
  for (const result of verifyAll(expired)) expect(!result.ok && result.failure.reason).toBe('key-not-valid-at-protected-time');
});

describeWithSpec('the export and the conformance bundles', () => {
  it('carries the Registry in the normative fixture schema’s form, as it is, and our own facts beside it', async () => {
    const document = JSON.parse(readFileSync(exportFile, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(document).sort()).toEqual(['registry', 'signature', 'snapshot']);
    const validate = new Ajv2020({ strict: false }).compile(specJson<Record<string, unknown>>('cryptography/registry-fixture.schema.json'));
    expect(validate(document['registry']), JSON.stringify(validate.errors)).toBe(true);
    expect(document['snapshot']).toMatchObject({ revision: expect.any(Number), contextGenerator: { type: 'agent', id: 'urn:missionweave:agent:organization:context-generator' } });
  });
});
