/**
 * The crypto workers give exactly the answers of the main thread: the same verdicts and error
 * codes for Commands, byte-identical signed Events, and Registry deltas applied in order.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signEventDocuments } from '../src/app/eventFactory.js';
import { verifyCommandBytes } from '../src/app/verifyCommand.js';
import { CryptoPool } from '../src/app/workers/cryptoPool.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { KeyRegistry } from '../src/protocol/signing/keyRegistry.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { makeKey, ORGANIZATION, unsignedCommand } from './support/keys.js';

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

describe('CryptoPool', () => {
  it('verifies like the main thread, accepting and refusing the same Commands with the same codes', async () => {
    const registry = KeyRegistry.fromEvidence({ organizationId: ORGANIZATION, bindings: [writer.binding] });
    const inputs = [command(), command().replace('"hello"', '"hellO"'), '{"a":1,"a":2}', command(late), command().replace('"kind"', '"extra":1,"kind"')];
    for (const text of inputs) {
      const here = verifyCommandBytes(Buffer.from(text), { registry, revision: 1 }, schemaRegistry());
      const there = await pool.verify(text, false);
      expect(there.type).toBe(here.ok ? 'verified' : 'rejected');
      if (!here.ok && there.type === 'rejected') expect(there.error.code).toBe(here.error.code);
      if (here.ok && there.type === 'verified') expect(there.signingHash).toBe(here.command.verified.signingHash);
    }
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

  it('signs Events byte-identically to the main thread, in order', async () => {
    const documents = Array.from({ length: 7 }, (_, i) => ({ protocolVersion: '0.1', eventId: `urn:x:e${i}`, groupId: 'urn:x:g', sequence: i + 1, aggregateRevision: 1, kind: 'message.posted', actor: writer.principal, cause: { type: 'command', id: `urn:x:a${i}` }, correlationId: 'urn:x:c', occurredAt: '2026-07-15T00:00:00Z', payload: {}, acceptedBy: authority.principal, commandHash: `sha256:${'0'.repeat(64)}` }));
    expect(await pool.sign(documents as unknown as JsonObject[])).toEqual(signEventDocuments(documents, authority.signingKey));
  });
});
