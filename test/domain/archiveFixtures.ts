/**
 * A Group Snapshot as the Group Authority signs it for archival, and the stored history it must
 * match, both built from a test Group's recorded Events (the app verified the signature before the
 * decider sees it, so the signature here is only well-formed).
 */

import type { GroupHistory, RecordedEvent } from '../../src/domain/model.js';
import { AUTHORITY, GROUP, T0, at } from './fixtures.js';

export const STATE_HASH = `sha256:${'5'.repeat(64)}`;
export const REFUSAL_ENTRY = 'urn:uuid:00000000-0000-4000-8000-00000000a001';
export const SNAPSHOT_ID = 'urn:uuid:00000000-0000-4000-8000-00000000b001';

/** The stored history of `events`' Group, with one refused Command in its Policy Log. */
export function historyOf(events: readonly RecordedEvent[], groupId = GROUP): GroupHistory {
  return {
    groupId,
    eventIds: events.map((e) => e.eventId),
    lastOccurredAt: events.at(-1)?.occurredAt ?? T0,
    stateHash: STATE_HASH,
    policyLog: new Map([[REFUSAL_ENTRY, 'AUTH_INVALID_SIGNATURE']]),
  };
}

/** The final snapshot of `events`' Group at its head; `change` alters it for the negative cases. */
export function archiveSnapshot(events: readonly RecordedEvent[], change: (s: Record<string, unknown>) => object = (s) => s): object {
  const createdAt = T0;
  return change({
    snapshotId: SNAPSHOT_ID,
    groupId: GROUP,
    throughSequence: events.length,
    eventIds: events.map((e) => e.eventId),
    stateHash: STATE_HASH,
    policyLog: [
      { entryId: REFUSAL_ENTRY, decision: 'refused a signed Command naming this Group (AUTH_INVALID_SIGNATURE)', actor: AUTHORITY, occurredAt: at(-60), details: { code: 'AUTH_INVALID_SIGNATURE', occurrences: 1 } },
      { entryId: 'urn:uuid:00000000-0000-4000-8000-00000000i001', decision: 'final snapshot issued for archival', actor: AUTHORITY, occurredAt: createdAt, details: {} },
    ],
    createdBy: AUTHORITY,
    createdAt,
    signature: { algorithm: 'Ed25519', keyId: 'urn:test:key:authority', createdAt, value: 'A'.repeat(86) },
  });
}
