/**
 * The §11.5 binding of a checkpoint the runtime keeps offline (src/client/runtime/outboxOffline.ts):
 * bound to the historical lease the Agent's Events showed, with a grace deadline that never passes
 * that lease's expiry; refused past the grace or for an unknown lease; and the leases remembered
 * from Events, which an outsider's Group can grow, bounded by MAX_OUTBOX_KNOWN_LEASES.
 */

import { expect, it } from 'vitest';
import type { ConnectionChange } from '../src/client/agentOptions.js';
import type { GroupEvent } from '../src/client/documents.js';
import { MAX_OUTBOX_KNOWN_LEASES, OUTBOX_OFFLINE_GRACE_SECONDS } from '../src/client/limits.js';
import { OfflineBinder } from '../src/client/runtime/outboxOffline.js';
import { OFFLINE_EXECUTION_EXTENSION } from '../src/protocol/offlineExecution.js';

const T0 = Date.parse('2026-12-05T10:00:00.000Z');
const groupId = 'urn:missionweave:group:g';

function agentStub(): { events: (event: GroupEvent) => void; change: (change: ConnectionChange) => void; agent: ConstructorParameters<typeof OfflineBinder>[0] } {
  let events: (event: GroupEvent) => void = () => undefined;
  let change: (change: ConnectionChange) => void = () => undefined;
  const agent = {
    onEvent: (handler: (event: GroupEvent) => void) => ((events = handler), () => undefined),
    onConnectionChange: (handler: (change: ConnectionChange) => void) => ((change = handler), () => undefined),
  } as unknown as ConstructorParameters<typeof OfflineBinder>[0];
  return { events: (event) => events(event), change: (c) => change(c), agent };
}

function started(leaseId: string, expiresAt: string): GroupEvent {
  const executionLease = { leaseId, leaseType: 'execution', groupId, workItemId: 'urn:missionweave:work-item:w', holderAgentId: 'a', sessionEpoch: 3, ownershipEpoch: 2, issuedAt: new Date(T0 - 60_000).toISOString(), startsAt: new Date(T0 - 60_000).toISOString(), expiresAt, state: 'active', renewalCount: 0 };
  return { kind: 'work.started', groupId, sequence: 1, payload: { executionLease } } as unknown as GroupEvent;
}

it('binds a checkpoint kept offline to its historical lease, the grace deadline no later than the lease expiry', () => {
  let now = T0;
  const stub = agentStub();
  const binder = new OfflineBinder(stub.agent, () => now);
  stub.events(started('lease-1', new Date(T0 + 60_000).toISOString()));
  stub.change({ state: 'reconnecting', sessionEpoch: undefined });
  now = T0 + 1_000;
  const extensions = binder.extensions('a', groupId, { executionLeaseId: 'lease-1' }, new Date(now).toISOString()) as Record<string, { critical: boolean; data: Record<string, unknown> }>;
  const binding = extensions[OFFLINE_EXECUTION_EXTENSION];
  expect(binding?.critical).toBe(true);
  expect(binding?.data).toMatchObject({ agentId: 'a', groupId, workItemId: 'urn:missionweave:work-item:w', sessionEpoch: 3, ownershipEpoch: 2, executionLeaseId: 'lease-1' });
  expect(Date.parse(binding?.data['disconnectedAt'] as string)).toBe(T0);
  // The lease ends before the grace period would: the deadline is the lease's expiry.
  expect(Date.parse(binding?.data['graceDeadline'] as string)).toBe(T0 + 60_000);
  expect(60_000).toBeLessThan(OUTBOX_OFFLINE_GRACE_SECONDS * 1000);
  // Past the deadline nothing is kept; nor for a lease never seen.
  expect(() => binder.extensions('a', groupId, { executionLeaseId: 'lease-1' }, new Date(T0 + 60_000).toISOString())).toThrow(/grace period ended/);
  expect(() => binder.extensions('a', groupId, { executionLeaseId: 'lease-x' }, new Date(now).toISOString())).toThrow(/not known here/);
});

it('remembers at most MAX_OUTBOX_KNOWN_LEASES leases from Events, forgetting the oldest', () => {
  const stub = agentStub();
  const binder = new OfflineBinder(stub.agent, () => T0);
  for (let i = 0; i < MAX_OUTBOX_KNOWN_LEASES + 10; i++) stub.events(started(`lease-${i}`, new Date(T0 + 600_000).toISOString()));
  stub.change({ state: 'reconnecting', sessionEpoch: undefined });
  const at = new Date(T0 + 1).toISOString();
  expect(() => binder.extensions('a', groupId, { executionLeaseId: 'lease-9' }, at)).toThrow(/not known here/);
  expect(binder.extensions('a', groupId, { executionLeaseId: 'lease-10' }, at)).toHaveProperty(OFFLINE_EXECUTION_EXTENSION);
  expect(binder.extensions('a', groupId, { executionLeaseId: `lease-${MAX_OUTBOX_KNOWN_LEASES + 9}` }, at)).toHaveProperty(OFFLINE_EXECUTION_EXTENSION);
});
