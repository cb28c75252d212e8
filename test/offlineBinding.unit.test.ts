/**
 * The bounded offline execution binding (§11.5) at the front: its schema
 * (`schemas/offline-execution-binding.schema.json`), and the stateless Command checks, which now
 * interpret it (a critical extension no longer refused as unknown) and hold its data to the schema.
 */

import { describe, expect, it } from 'vitest';
import { verifyCommandBytes } from '../src/app/verifyCommand.js';
import { OFFLINE_EXECUTION_EXTENSION } from '../src/protocol/offlineExecution.js';
import { schemaRegistry } from '../src/protocol/schemas/files.js';
import { KeyRegistry } from '../src/protocol/signing/keyRegistry.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import { makeKey, ORGANIZATION, unsignedCommand } from './support/keys.js';
import { coreRegistry } from './support/coreDecider.js';

const worker = makeKey({ type: 'agent', id: 'urn:missionweave:agent:worker-7' });
const registry = KeyRegistry.fromEvidence({ organizationId: ORGANIZATION, bindings: [worker.binding] });

const BINDING = {
  agentId: worker.principal.id,
  groupId: 'urn:missionweave:group:test',
  workItemId: 'urn:missionweave:work-item:w1',
  sessionEpoch: 1,
  ownershipEpoch: 1,
  executionLeaseId: 'urn:missionweave:lease:exec-1',
  disconnectedAt: '2026-07-14T23:50:00Z',
  bufferedAt: '2026-07-14T23:52:00Z',
  graceDeadline: '2026-07-14T23:58:00Z',
  executionLeaseExpiresAt: '2026-07-15T00:00:00Z',
  resourceUsageDelta: { financialMicrounits: 0, modelTokens: 1200, toolCalls: 3, computeSeconds: 40, wallClockSeconds: 120, externalActions: 0 },
};

function check(data: unknown): string {
  const result = schemaRegistry().validateObject('offline-execution-binding', data);
  return result.ok ? 'valid' : result.error;
}

describe('the binding schema', () => {
  it('accepts a complete binding', () => {
    expect(check(BINDING)).toBe('valid');
  });

  it('requires every member §11.5 lists', () => {
    for (const member of Object.keys(BINDING)) {
      const { [member]: _left, ...rest } = BINDING as Record<string, unknown>;
      expect(check(rest), member).toMatch(/required/);
    }
    const { modelTokens: _tokens, ...partial } = BINDING.resourceUsageDelta;
    expect(check({ ...BINDING, resourceUsageDelta: partial })).toMatch(/required/);
  });

  it('refuses external actions, unknown members, negative usage, bad timestamps and epochs', () => {
    expect(check({ ...BINDING, resourceUsageDelta: { ...BINDING.resourceUsageDelta, externalActions: 1 } })).not.toBe('valid');
    expect(check({ ...BINDING, resourceUsageDelta: { ...BINDING.resourceUsageDelta, toolCalls: -1 } })).not.toBe('valid');
    expect(check({ ...BINDING, extra: true })).not.toBe('valid');
    expect(check({ ...BINDING, bufferedAt: '2026-07-14 23:52' })).not.toBe('valid');
    expect(check({ ...BINDING, sessionEpoch: 0 })).not.toBe('valid');
    expect(check({ ...BINDING, workItemId: 'w1' })).not.toBe('valid');
  });
});

function signed(extensions: object): Buffer {
  return Buffer.from(JSON.stringify(signDocument('command', unsignedCommand(worker.principal, { extensions }), worker.signingKey)));
}

describe('the stateless front', () => {
  const verify = (extensions: object) => verifyCommandBytes(signed(extensions), { registry, revision: 1 }, schemaRegistry(), coreRegistry());

  it('interprets the critical binding and hands it to the decider', () => {
    const result = verify({ [OFFLINE_EXECUTION_EXTENSION]: { version: '0.1.0', critical: true, data: BINDING } });
    expect(result.ok).toBe(true);
    expect(result.ok && result.command.envelope.extensions?.[OFFLINE_EXECUTION_EXTENSION]?.data).toEqual(BINDING);
  });

  it('holds its data to the schema (SCHEMA_VALIDATION_FAILED), critical or not', () => {
    for (const critical of [true, false]) {
      const result = verify({ [OFFLINE_EXECUTION_EXTENSION]: { version: '0.1.0', critical, data: { ...BINDING, agentId: 'worker-7' } } });
      expect(!result.ok && result.error.code).toBe('SCHEMA_VALIDATION_FAILED');
    }
  });

  it('still refuses an unknown critical extension (UNKNOWN_CRITICAL_EXTENSION)', () => {
    const result = verify({ 'urn:example:extension:unknown': { version: '1.0.0', critical: true, data: {} } });
    expect(!result.ok && result.error.code).toBe('UNKNOWN_CRITICAL_EXTENSION');
  });
});
