/**
 * Signed Group Snapshots (§7.4, §16): a projection of a Group through one sequence — every Event
 * ID up to it, the hash of the aggregate state it produced, its Policy Log — signed by the
 * Group Authority service. The Policy Log references the Group's newest protected audit records
 * of refused Commands by their entry IDs (§6.4: "A Group-scoped failure MUST be referenceable
 * from the Policy Log … without exposing that diagnostic"), then records the issuance itself. The served artifact is `{snapshot, state}` as JCS text; its SHA-256
 * is the `snapshotArtifactHash` of CURSOR_TOO_OLD. Archival (§7.4) signs the same projection at
 * the Group's head, issued "for archival", and the archive Command carries it (`archiveGroup.ts`).
 */

import { randomUUID } from 'node:crypto';
import { sha256ContentHash } from '../protocol/contentHash.js';
import { canonicalize } from '../protocol/jcs.js';
import { signDocument } from '../protocol/signing/signDocument.js';
import { checkOut, type Pool, type Queryable } from '../store/pool.js';
import { readAllGroupAggregates, type AggregateRow } from '../store/sql/aggregates.js';
import { readEventIds, readPolicyLogCodes, readSequencedAggregates } from '../store/sql/groupHistory.js';
import { rowsVisibleTo, type SnapshotViewer } from '../domain/group/snapshotView.js';
import { insertSnapshot, readLatestSnapshot } from '../store/sql/snapshots.js';
import { readPolicyLog, type PolicyLogRow } from '../store/sql/policyLog.js';
import type { GroupHistory } from '../domain/model.js';
import { decisionEntry } from './policy/cooperationPolicyLog.js';
import type { Principal } from '../protocol/principal.js';
import type { JsonObject } from '../protocol/strictJson.js';
import { SNAPSHOT_POLICY_LOG_ENTRIES } from './policyLogLimits.js';
import type { AuthoritySettings } from './settings.js';

export interface SnapshotReference {
  readonly hash: string;
  readonly throughSequence: number;
}

/** A refusal as a Policy Log entry: its audit record's ID and §19 code, never its stage or reason. */
function refusalEntry(row: PolicyLogRow, authority: Principal): JsonObject {
  if (row.transport === 'authority') return decisionEntry(row);
  return {
    entryId: row.entryId,
    decision: `refused a signed Command naming this Group (${row.code}); the diagnostic is in the protected audit record`,
    actor: { ...authority },
    occurredAt: row.occurredAt,
    details: { code: row.code, occurrences: row.occurrences },
  };
}

/** Why a snapshot is issued; its last Policy Log entry records it. */
export type SnapshotPurpose = 'replay' | 'archival';

const ISSUANCE: Readonly<Record<SnapshotPurpose, string>> = {
  replay: 'snapshot issued for replay beyond the online window',
  archival: 'final snapshot issued for archival',
};

/** The stored aggregates in one order, as the snapshot's `state`. */
function sortedState(rows: AggregateRow[]): AggregateRow[] {
  return rows.sort((a, b) => `${a.type} ${a.id}`.localeCompare(`${b.type} ${b.id}`));
}

/** The Group's stored history, as the archive decider compares a snapshot with it. */
export async function readGroupHistory(db: Queryable, groupId: string, policyLogEntryIds: readonly string[]): Promise<GroupHistory> {
  const { eventIds, lastAcceptedAt } = await readEventIds(db, groupId);
  const state = sortedState(await readAllGroupAggregates(db, groupId));
  const policyLog = await readPolicyLogCodes(db, groupId, policyLogEntryIds);
  return { groupId, eventIds, lastOccurredAt: lastAcceptedAt, stateHash: sha256ContentHash(canonicalize(state)), policyLog };
}

export interface BuiltSnapshot {
  /** The signed Group Snapshot document. */
  readonly snapshot: Readonly<Record<string, unknown>>;
  /** `{snapshot, state}` as JCS text: what is stored and served. */
  readonly body: string;
  readonly hash: string;
  readonly throughSequence: number;
}

/** Signs a snapshot of the Group at its head, read in one consistent view, and stores it. */
export async function issueSnapshot(pool: Pool, groupId: string, settings: AuthoritySettings, nowMillis: number, purpose: SnapshotPurpose): Promise<BuiltSnapshot> {
  const { client, release } = await checkOut(pool);
  try {
    await client.query('begin isolation level repeatable read read only');
    const built = await buildSnapshot(client, groupId, settings, nowMillis, purpose);
    await client.query('commit');
    await insertSnapshot(pool, groupId, built.hash, built.throughSequence, built.body);
    return built;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    release();
  }
}

async function buildSnapshot(client: Queryable, groupId: string, settings: AuthoritySettings, nowMillis: number, purpose: SnapshotPurpose): Promise<BuiltSnapshot> {
  const head = await client.query<{ last_sequence: number }>('select last_sequence from groups where group_id = $1', [groupId]);
  const last = head.rows[0]?.last_sequence ?? 0;
  const { eventIds } = await readEventIds(client, groupId);
  const state = sortedState(await readAllGroupAggregates(client, groupId));
  const now = new Date(nowMillis).toISOString();
  const refusals = await readPolicyLog(client, { groupId, until: now, limit: SNAPSHOT_POLICY_LOG_ENTRIES, keep: 'newest' });
  const authority = settings.services.authority;
  const issuance: JsonObject = { entryId: `urn:uuid:${randomUUID()}`, decision: ISSUANCE[purpose], actor: { ...authority }, occurredAt: now, details: {} };
  const snapshot = signDocument(
    'group-snapshot',
    {
      snapshotId: `urn:uuid:${randomUUID()}`,
      groupId,
      throughSequence: last,
      eventIds,
      stateHash: sha256ContentHash(canonicalize(state)),
      policyLog: [
        ...refusals.map((row) => refusalEntry(row, authority)),
        issuance,
      ],
      createdBy: { ...authority },
      createdAt: now,
    },
    settings.authorityKey,
  );
  const body = canonicalize({ snapshot, state });
  return { snapshot, body, hash: sha256ContentHash(body), throughSequence: last };
}

/**
 * A snapshot limited to one Membership's visibility (§8, `snapshotView.ts`), for a late joiner
 * beyond the online window: the same signed document, whose `stateHash` covers the limited state
 * and whose one Policy Log entry records the limit (the Group's audit references are not the
 * member's to read). Stored under the Membership, the only one served it.
 */
async function issueViewSnapshot(pool: Pool, groupId: string, viewer: SnapshotViewer, settings: AuthoritySettings, nowMillis: number): Promise<BuiltSnapshot> {
  const { client, release } = await checkOut(pool);
  let built: BuiltSnapshot;
  try {
    await client.query('begin isolation level repeatable read read only');
    const head = await client.query<{ last_sequence: number }>('select last_sequence from groups where group_id = $1', [groupId]);
    const last = head.rows[0]?.last_sequence ?? 0;
    const { eventIds } = await readEventIds(client, groupId);
    const visible = rowsVisibleTo(await readSequencedAggregates(client, groupId), viewer);
    await client.query('commit');
    const state = sortedState(visible.map(({ type, id, revision, document }) => ({ type, id, revision, document }) as AggregateRow));
    const now = new Date(nowMillis).toISOString();
    const authority = settings.services.authority;
    const limit: JsonObject = {
      entryId: `urn:uuid:${randomUUID()}`,
      decision: 'snapshot limited to one Membership’s visibility, for replay beyond the online window',
      actor: { ...authority },
      occurredAt: now,
      details: { membershipId: viewer.membershipId, visibilityStartSequence: viewer.visibilityStartSequence },
    };
    const snapshot = signDocument(
      'group-snapshot',
      { snapshotId: `urn:uuid:${randomUUID()}`, groupId, throughSequence: last, eventIds, stateHash: sha256ContentHash(canonicalize(state)), policyLog: [limit], createdBy: { ...authority }, createdAt: now },
      settings.authorityKey,
    );
    const body = canonicalize({ snapshot, state });
    built = { snapshot, body, hash: sha256ContentHash(body), throughSequence: last };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    release();
  }
  await insertSnapshot(pool, groupId, built.hash, built.throughSequence, built.body, viewer.membershipId);
  return built;
}

/** The Membership's newest limited snapshot if it is recent enough, else a new one at the head. */
export async function viewSnapshotReference(pool: Pool, groupId: string, viewer: SnapshotViewer, settings: AuthoritySettings, nowMillis: number, maxLag: number): Promise<SnapshotReference> {
  const head = await pool.query<{ last_sequence: number }>('select last_sequence from groups where group_id = $1', [groupId]);
  const last = head.rows[0]?.last_sequence ?? 0;
  const latest = await readLatestSnapshot(pool, groupId, viewer.membershipId);
  if (latest !== undefined && last - latest.throughSequence <= maxLag) return latest;
  const built = await issueViewSnapshot(pool, groupId, viewer, settings, nowMillis);
  return { hash: built.hash, throughSequence: built.throughSequence };
}

/** The Group's newest snapshot if it is recent enough, else a new one at its head. */
export async function snapshotReference(pool: Pool, groupId: string, settings: AuthoritySettings, nowMillis: number, maxLag: number): Promise<SnapshotReference> {
  const head = await pool.query<{ last_sequence: number }>('select last_sequence from groups where group_id = $1', [groupId]);
  const last = head.rows[0]?.last_sequence ?? 0;
  const latest = await readLatestSnapshot(pool, groupId);
  if (latest !== undefined && last - latest.throughSequence <= maxLag) return latest;
  const built = await issueSnapshot(pool, groupId, settings, nowMillis, 'replay');
  return { hash: built.hash, throughSequence: built.throughSequence };
}
