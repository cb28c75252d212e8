/**
 * The crypto workers give exactly the answers of the main thread: the same verdicts and error
 * codes for Commands, byte-identical signed Events, and Registry deltas applied in order.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signEventDocuments } from '../src/app/eventFactory.js';
import { commandFromWorker, verifyCommandBytes } from '../src/app/verifyCommand.js';
import { coreRegistry } from './support/coreDecider.js';
import { CryptoPool } from '../src/app/workers/cryptoPool.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { KeyRegistry } from '../src/protocol/signing/keyRegistry.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { makeKey, ORGANIZATION, unsignedCommand } from './support/keys.js';

const coreKinds = coreRegistry();

const writer = makeKey({ type: 'agent', id: 'urn:missionweave:agent:w' });
const late = makeKey({ type: 'agent', id: 'urn:missionweave:agent:late' });
const authority = makeKey({ type: 'service', id: 'urn:missionweave:service:group-authority' });
let pool: CryptoPool;

beforeAll(async () => {
  pool = await CryptoPool.start({ size: 2, organizationId: ORGANIZATION, authorityKey: authority.signingKey });
  await pool.syncRegistry(1, [writer.binding], true);
});
afterAll(() => pool.close());

function command(key = writer, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify(signDocument('command', unsignedCommand(key.principal, overrides), key.signingKey));
}

/** Evidence by `writer`, signed with its key (§13.2). */
function evidence(): Record<string, unknown> {
  const workItemId = 'urn:missionweave:work-item:w1';
  const unsigned = { evidenceId: `urn:uuid:${randomUUID()}`, missionId: 'urn:x:m', groupId: 'urn:missionweave:group:test', workItemId, type: 'deterministic_test', subject: { type: 'work_item', id: workItemId }, criterionIds: ['applies'], method: 'ran it', result: 'passed', artifactHashes: [], generatedBy: writer.principal, createdAt: '2026-07-14T23:59:00Z' };
  return signDocument('evidence', unsigned, writer.signingKey);
}

function submission(items: readonly Record<string, unknown>[]): string {
  const payload = { workItemId: 'urn:missionweave:work-item:w1', ownershipEpoch: 1, executionLeaseId: 'urn:x:lease', artifactHashes: [`sha256:${'c'.repeat(64)}`], evidence: items };
  return command(writer, { kind: 'work.submit', payload });
}

describe('CryptoPool', () => {
  it('verifies like the main thread, accepting and refusing the same Commands with the same codes', async () => {
    const registry = KeyRegistry.fromEvidence({ organizationId: ORGANIZATION, bindings: [writer.binding] });
    const inputs = [command(), command().replace('"hello"', '"hellO"'), '{"a":1,"a":2}', command(late), command().replace('"kind"', '"extra":1,"kind"')];
    for (const text of inputs) {
      const here = verifyCommandBytes(Buffer.from(text), { registry, revision: 1 }, schemaRegistry(), coreRegistry());
      const there = await pool.verify(text, false);
      expect(there.type).toBe(here.ok ? 'verified' : 'rejected');
      if (!here.ok && there.type === 'rejected') expect(there.error.code).toBe(here.error.code);
      if (here.ok && there.type === 'verified') expect(there.signingHash).toBe(here.command.verified.signingHash);
    }
  });

  it('answers many Commands queued in one turn, each with its own verdict, whichever worker took it', async () => {
    const good = Array.from({ length: 12 }, () => command());
    const texts = good.flatMap((text, i) => (i % 3 === 0 ? [text, '{"a":1,"a":2}'] : [text]));
    const replies = await Promise.all(texts.map((text) => pool.verify(text, false)));
    expect(replies.map((r) => r.type)).toEqual(texts.map((t) => (t.startsWith('{"a"') ? 'rejected' : 'verified')));
    const hashes = replies.flatMap((r) => (r.type === 'verified' ? [r.signingHash] : []));
    expect(new Set(hashes).size).toBe(12);
    expect(pool.queueDepth).toBe(0);
  });

  it('applies Registry deltas before later requests', async () => {
    expect((await pool.verify(command(late), false)).type).toBe('rejected');
    void pool.syncRegistry(2, [late.binding], false);
    expect((await pool.verify(command(late), false)).type).toBe('verified');
  });

  it('verifies the Command inside a whole COMMAND frame', async () => {
    const frame = `{"protocolVersion":"0.1","frameId":"urn:x:f","frameType":"COMMAND","command":${command()}}`;
    expect((await pool.verify(frame, true)).type).toBe('verified');
  });

  it('verifies every Evidence of a work.submit, reporting each element, and refuses a forged one by its index', async () => {
    const registry = KeyRegistry.fromEvidence({ organizationId: ORGANIZATION, bindings: [writer.binding] });
    const items = [evidence(), evidence()];
    const good = submission(items);
    const here = verifyCommandBytes(Buffer.from(good), { registry, revision: 1 }, schemaRegistry(), coreRegistry());
    const there = await pool.verify(good, false);
    if (!here.ok || there.type !== 'verified') throw new Error('the good submission was refused');
    expect(there.embedded).toEqual(here.command.embedded?.map(({ document, signingHash, keyId, index }) => ({ document, signingHash, keyId, index })));
    const rebuilt = commandFromWorker(there.canonical, there.signingHash, there.keyId, there.registryRevision, registry, coreKinds, undefined, there.embedded);
    expect(rebuilt?.embedded?.map((e) => [e.index, e.key.principal])).toEqual([[0, writer.principal], [1, writer.principal]]);
    const forged = await pool.verify(submission([items[0] ?? {}, { ...evidence(), result: 'failed' }]), false);
    expect(forged.type === 'rejected' ? [forged.error.code, forged.error.details] : forged.type).toEqual(['AUTH_INVALID_SIGNATURE', { index: 1 }]);
  });

  it('signs Events byte-identically to the main thread, in order', async () => {
    const documents = Array.from({ length: 7 }, (_, i) => ({ protocolVersion: '0.1', eventId: `urn:x:e${i}`, groupId: 'urn:x:g', sequence: i + 1, aggregateRevision: 1, kind: 'message.posted', actor: writer.principal, cause: { type: 'command', id: `urn:x:a${i}` }, correlationId: 'urn:x:c', occurredAt: '2026-07-15T00:00:00Z', payload: {}, acceptedBy: authority.principal, commandHash: `sha256:${'0'.repeat(64)}` }));
    expect(await pool.sign(documents as unknown as JsonObject[])).toEqual(signEventDocuments(documents, authority.signingKey));
    // Large enough to be split over both workers (workerLimits.ts), still in input order.
    const many = Array.from({ length: 40 }, (_, i) => ({ ...documents[0], eventId: `urn:x:m${i}`, sequence: i + 1 }));
    expect(await pool.sign(many as unknown as JsonObject[])).toEqual(signEventDocuments(many, authority.signingKey));
  });
});
