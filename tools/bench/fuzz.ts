/**
 * `npm run fuzz [-- --cases N] [--seed S]`: runs the fuzz targets (strict parser, JCS, frame
 * decoder, stateless Command pipeline) for N cases in total (1,000,000 by default), checking
 * after every block that no error escaped and the heap stays bounded. Prints a table, and with
 * `--json` a last line `{"cases":N,"failures":0,…}`; exits 1 on any failure.
 */

import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { buildKindRegistry } from '#src/domain/coreModules.js';
import { issueAgentCard, signCommand, timestampOf } from '#src/app/issueDocuments.js';
import { schemaRegistry } from '#src/protocol/schemas/files.js';
import { KeyRegistry } from '#src/protocol/signing/keyRegistry.js';
import { generatePrivateKey, publicKeyBase64url } from '#src/protocol/signing/signDocument.js';
import { frameProperty, jcsProperty, pipelineProperty, strictJsonProperty, type FuzzContext } from './fuzzTargets.js';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? fallback : Number(process.argv[index + 1]);
}

/** A registry with one Agent and one human, and valid signed Commands to mutate. */
export function fuzzContext(): FuzzContext {
  const agentKey = generatePrivateKey();
  const humanKey = generatePrivateKey();
  const keyIds = { agent: `urn:uuid:${randomUUID()}`, human: `urn:uuid:${randomUUID()}` };
  const agent = { type: 'agent' as const, id: 'urn:missionweave:agent:fuzz' };
  const human = { type: 'human' as const, id: 'urn:missionweave:human:fuzz' };
  const validFrom = '2020-01-01T00:00:00Z';
  const registry = KeyRegistry.fromEvidence({
    organizationId: 'urn:missionweave:organization:fuzz',
    bindings: [
      { keyId: keyIds.agent, principal: agent, algorithm: 'Ed25519', publicKey: publicKeyBase64url(agentKey), validFrom, validityHistory: [] },
      { keyId: keyIds.human, principal: human, algorithm: 'Ed25519', publicKey: publicKeyBase64url(humanKey), validFrom, validityHistory: [] },
    ],
  });
  const issuedAt = timestampOf(Date.now());
  const group = 'urn:missionweave:group:fuzz';
  const seeds = [
    signCommand({ actor: agent, kind: 'message.post', payload: { messageId: `urn:uuid:${randomUUID()}`, conversationId: 'urn:x:c', content: 'hello', mentions: [human] }, issuedAt, groupId: group, sessionEpoch: 1, membershipEpoch: 1 }, { keyId: keyIds.agent, privateKey: agentKey }),
    signCommand({ actor: human, kind: 'mission.create', groupId: group, issuedAt, payload: { missionId: 'urn:x:m', groupId: group, coordinatorId: agent.id, title: 't', objective: 'o', definitionOfDone: [{ criterionId: 'c', description: 'd', evidenceRequired: ['human_review'] }], budget: { currency: 'EUR', financialLimit: 1 }, deadline: '2030-01-01T00:00:00Z' } }, { keyId: keyIds.human, privateKey: humanKey }),
    signCommand({ actor: agent, kind: 'mission.submit_for_approval', payload: { artifactHashes: [`sha256:${'a'.repeat(64)}`] }, issuedAt, groupId: group, sessionEpoch: 1, membershipEpoch: 1, coordinatorEpoch: 1, expectedRevision: 3 }, { keyId: keyIds.agent, privateKey: agentKey }),
    signCommand({ actor: { type: 'service', id: 'urn:x:registry' }, kind: 'ext.missionweaveprotocol.registry.agent_card_register', issuedAt, payload: { card: issueAgentCard({ agentId: agent.id, organizationId: 'urn:x:o', cardVersion: 1, displayName: 'f', owner: human, endpoint: 'wss://x:1', keys: [{ keyId: keyIds.agent, publicKey: publicKeyBase64url(agentKey), validFrom }], capabilities: ['a.b@1.0.0'], maxConcurrency: 1, issuedAt }, { keyId: keyIds.human, privateKey: humanKey }) } }, { keyId: keyIds.human, privateKey: humanKey }),
  ].map((command) => JSON.stringify(command));
  return { schemas: schemaRegistry(), kinds: buildKindRegistry([]), registry: { registry, revision: 1 }, seeds };
}

/** Runs `cases` cases spread over the targets; returns per-target counts and the peak heap. */
export function runFuzz(cases: number, seed: number, context = fuzzContext()): { target: string; cases: number; ms: number }[] {
  const targets: [string, fc.IProperty<[never]>, number][] = [
    ['strict JSON parser', strictJsonProperty(context) as unknown as fc.IProperty<[never]>, 0.35],
    ['JCS', jcsProperty() as unknown as fc.IProperty<[never]>, 0.35],
    ['frame decoder', frameProperty(context) as unknown as fc.IProperty<[never]>, 0.2],
    ['Command pipeline (stateless)', pipelineProperty(context) as unknown as fc.IProperty<[never]>, 0.1],
  ];
  const block = 10_000;
  return targets.map(([target, property, share]) => {
    const total = Math.max(1, Math.round(cases * share));
    const start = Date.now();
    for (let done = 0; done < total; done += block) {
      fc.assert(property, { numRuns: Math.min(block, total - done), seed: seed + done });
      const heap = process.memoryUsage().heapUsed;
      if (heap > 1.5 * 1024 ** 3) throw new Error(`${target}: heap grew to ${heap} bytes`);
    }
    return { target, cases: total, ms: Date.now() - start };
  });
}

if (process.argv[1]?.endsWith('fuzz.js')) {
  const cases = option('cases', 1_000_000);
  const seed = option('seed', Date.now() % 1_000_000);
  let failures = 0;
  let results: { target: string; cases: number; ms: number }[] = [];
  try {
    results = runFuzz(cases, seed);
  } catch (error) {
    failures = 1;
    process.stderr.write(`${(error as Error).message}\n`);
  }
  for (const r of results) process.stdout.write(`${r.target.padEnd(32)} ${String(r.cases).padStart(9)} cases  ${(r.ms / 1000).toFixed(1).padStart(7)} s\n`);
  const heapMb = Math.round(process.memoryUsage().heapUsed / 1024 / 1024);
  process.stdout.write(`seed ${seed}, heap ${heapMb} MiB, failures ${failures}\n`);
  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ cases: results.reduce((n, r) => n + r.cases, 0), failures, seed, heapMb, targets: Object.fromEntries(results.map((r) => [r.target, r.cases])) })}\n`);
  }
  process.exit(failures === 0 ? 0 : 1);
}
