/**
 * `ext.missionweaveprotocol.core.group_archive` (§7.4, §15.2): given a Group, when the Authority
 * archives it with a signed final snapshot, then `group.snapshot.created` and `group.archived` —
 * or the refusal that leaves the Group as it was. After archival every Command is refused.
 */

import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { RecordedEvent } from '../../src/domain/model.js';
import type { Principal } from '../../src/protocol/principal.js';
import type { World } from '../support/specification.js';
import { archiveSnapshot, historyOf, REFUSAL_ENTRY, SNAPSHOT_ID, STATE_HASH } from './archiveFixtures.js';
import { AUTHORITY, COORD, GROUP, HASH_A, HASH_B, MAIN, OWNER, REGISTRY, T0, WORKER, at, busyGroup, command, groupSpec, history, stateOf, steps, verifiedWorkHistory } from './fixtures.js';
import type { RefusalReason } from '../support/specification.js';
import { GROUP_REASONS } from '../../src/domain/group/groupReasons.js';

const KIND = 'ext.missionweaveprotocol.core.group_archive';
const busy = busyGroup();
const cancelled = history([steps.cancel()], busy);
const approved = history([steps.submit([HASH_A, HASH_B]), steps.approve()], verifiedWorkHistory(busy));

type Change = (s: Record<string, unknown>) => object;

function archive(events: readonly RecordedEvent[], change?: Change, actor: Principal = AUTHORITY) {
  return command(stateOf(events), actor, KIND, { snapshot: archiveSnapshot(events, change) }, actor.type === 'service' ? { membershipEpoch: undefined } : {});
}

function worldOf(events: readonly RecordedEvent[]): Partial<World> {
  return { histories: [historyOf(events)] };
}

function expected(state: GroupState) {
  return [
    { kind: 'group.snapshot.created', payload: { snapshotId: SNAPSHOT_ID, throughSequence: state.lastSequence, stateHash: STATE_HASH }, aggregate: { type: 'group', id: GROUP, revision: 2 } },
    {
      kind: 'group.archived',
      payload: { snapshotId: SNAPSHOT_ID, archivedAt: T0, group: { ...state.group, state: 'archived', archivedAt: T0, archiveSnapshotId: SNAPSHOT_ID } },
      aggregate: { type: 'group', id: GROUP, revision: 3 },
    },
  ];
}

describe('archiving a Group', () => {
  it('archives the Group of a cancelled or approved Mission with its final snapshot', () => {
    for (const events of [cancelled, approved]) {
      groupSpec
        .given(events)
        .when(archive(events), worldOf(events))
        .then(expected(stateOf(events)), (after) => {
          expect(after!.group).toMatchObject({ state: 'archived', archivedAt: T0, archiveSnapshotId: SNAPSHOT_ID });
          expect(after!.lastSequence).toBe(events.length + 2);
        });
    }
  });

  it('refuses the Group of a live Mission (INVALID_STATE_TRANSITION)', () => {
    groupSpec.given(busy).when(archive(busy), worldOf(busy)).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.missionState);
  });

  it('lets only the Group Authority archive', () => {
    groupSpec.given(cancelled).when(archive(cancelled, undefined, OWNER), worldOf(cancelled)).thenFails('AUTH_FORBIDDEN', 'not-authorized');
    groupSpec.given(cancelled).when(archive(cancelled, undefined, REGISTRY), worldOf(cancelled)).thenFails('AUTH_FORBIDDEN', GROUP_REASONS.serviceNotAuthorized);
  });

  it('refuses a snapshot another service signed, or of another Group', () => {
    const refusals: [Change, string, RefusalReason][] = [
      [(s) => ({ ...s, createdBy: REGISTRY }), 'AUTH_FORBIDDEN', 'snapshot-not-by-authority'],
      [(s) => ({ ...s, groupId: 'urn:missionweave:group:other' }), 'INVALID_COMMAND', 'snapshot-other-group'],
    ];
    for (const [change, code, reason] of refusals) {
      groupSpec.given(cancelled).when(archive(cancelled, change), worldOf(cancelled)).thenFails(code as 'INVALID_COMMAND', reason);
    }
  });

  it('refuses a stale snapshot: one that does not reach the head (REVISION_CONFLICT)', () => {
    const stale = cancelled.slice(0, -1);
    const behind = command(stateOf(cancelled), AUTHORITY, KIND, { snapshot: archiveSnapshot(stale) }, { membershipEpoch: undefined });
    groupSpec.given(cancelled).when(behind, worldOf(cancelled)).thenFails('REVISION_CONFLICT', GROUP_REASONS.snapshotNotAtHead);
  });

  it('refuses when the stored history is not the state it judges (REVISION_CONFLICT)', () => {
    groupSpec.given(cancelled).when(archive(cancelled), worldOf(cancelled.slice(0, -1))).thenFails('REVISION_CONFLICT', GROUP_REASONS.groupHistoryMoved);
    groupSpec.given(cancelled).when(archive(cancelled), {}).thenFails('REVISION_CONFLICT', GROUP_REASONS.groupHistoryMoved);
  });

  it('refuses a forged snapshot: other Event IDs, another state hash, impossible times', () => {
    const forged: [Change, RefusalReason][] = [
      [(s) => ({ ...s, eventIds: [...(s['eventIds'] as string[]).slice(0, -1), 'urn:uuid:00000000-0000-4000-8000-0000000000ff'] }), 'snapshot-event-ids-mismatch'],
      [(s) => ({ ...s, eventIds: [...(s['eventIds'] as string[])].reverse() }), 'snapshot-event-ids-mismatch'],
      [(s) => ({ ...s, stateHash: `sha256:${'6'.repeat(64)}` }), 'snapshot-state-hash-mismatch'],
      [(s) => ({ ...s, createdAt: at(-1) }), 'snapshot-time'],
      [(s) => ({ ...s, createdAt: at(1) }), 'snapshot-time'],
    ];
    for (const [change, reason] of forged) {
      groupSpec.given(cancelled).when(archive(cancelled, change), worldOf(cancelled)).thenFails('INVALID_COMMAND', reason);
    }
  });

  it('refuses a Policy Log that does not link to this Group’s audit records (§15.2)', () => {
    type Entry = { entryId: string; actor: Principal; occurredAt: string; details: object };
    const log = (s: Record<string, unknown>) => s['policyLog'] as Entry[];
    const unlinked: Change[] = [
      // a refusal entry citing a record this Group does not have
      (s) => ({ ...s, policyLog: [{ ...log(s)[0], entryId: 'urn:uuid:00000000-0000-4000-8000-0000000000aa' }, log(s)[1]] }),
      // citing the record with another code
      (s) => ({ ...s, policyLog: [{ ...log(s)[0], details: { code: 'RATE_LIMITED', occurrences: 1 } }, log(s)[1]] }),
      // the issuance entry reusing an audit record's ID, or at another time than the snapshot
      (s) => ({ ...s, policyLog: [log(s)[0], { ...log(s)[1], entryId: log(s)[0]!.entryId }] }),
      (s) => ({ ...s, policyLog: [{ ...log(s)[1], entryId: REFUSAL_ENTRY }] }),
      (s) => ({ ...s, policyLog: [log(s)[0], { ...log(s)[1], occurredAt: at(-5) }] }),
      // an entry by another actor
      (s) => ({ ...s, policyLog: [log(s)[0], { ...log(s)[1], actor: REGISTRY }] }),
      // the issuance alone is linked; a duplicated one is not
      (s) => ({ ...s, policyLog: [log(s)[1], log(s)[1]] }),
    ];
    for (const change of unlinked) {
      groupSpec.given(cancelled).when(archive(cancelled, change), worldOf(cancelled)).thenFails('INVALID_COMMAND', GROUP_REASONS.snapshotPolicyLogUnlinked);
    }
    const issuanceOnly = archive(cancelled, (s) => ({ ...s, policyLog: [log(s)[1]] }));
    groupSpec.given(cancelled).when(issuanceOnly, worldOf(cancelled)).then(expected(stateOf(cancelled)));
  });
});

describe('an archived Group', () => {
  const archived = history([() => archive(cancelled)], cancelled, worldOf(cancelled));

  it('refuses every later Command, the Authority’s included (INVALID_STATE_TRANSITION)', () => {
    const state = stateOf(archived);
    expect(state.group.state).toBe('archived');
    const later = [
      command(state, WORKER, 'message.post', { messageId: 'urn:x:late', conversationId: MAIN, content: 'late' }),
      command(state, OWNER, 'mission.cancel', { reason: 'again' }),
      command(state, COORD, 'mission.renew_coordinator', {}),
      archive(archived),
    ];
    for (const cmd of later) groupSpec.given(archived).when(cmd, worldOf(archived)).thenFails('INVALID_STATE_TRANSITION', GROUP_REASONS.groupArchived);
  });

  it('still answers a non-member as if the Group did not exist', () => {
    const state = stateOf(archived);
    const stranger: Principal = { type: 'human', id: 'urn:missionweave:human:mallory' };
    groupSpec.given(archived).when(command(state, stranger, 'message.post', { messageId: 'urn:x:s', conversationId: MAIN, content: 'x' }, { membershipEpoch: 1 })).thenFails('GROUP_NOT_FOUND', 'group-not-found');
  });
});
