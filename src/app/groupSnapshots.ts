/**
 * Signed Group Snapshots (§7.4, §16): a projection of a Group through one sequence — every Event
 * ID up to it, the hash of the aggregate state it produced, its Policy Log — signed by the
 * Group Authority service. The Policy Log references the Group's newest protected audit records
 * of refused Commands by their entry IDs (§6.4: "A Group-scoped failure MUST be referenceable
 * from the Policy Log … without exposing that diagnostic"), then records the issuance itself. The served artifact is `{snapshot, state}` as JCS text; its SHA-256
 * is the `snapshotArtifactHash` of CURSOR_TOO_OLD.
 */

import { randomUUID } from 'node:crypto';
import { sha256ContentHash } from '../protocol/contentHash.js';
import { canonicalize } from '../protocol/jcs.js';
import { signDocument } from '../protocol/signing/signDocument.js';
import { checkOut, type Pool } from '../store/pool.js';
import { readAllGroupAggregates } from '../store/sql/aggregates.js';
import { insertSnapshot, readLatestSnapshot } from '../store/sql/snapshots.js';
import { readPolicyLog, type PolicyLogRow } from '../store/sql/policyLog.js';
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

/** The Group's newest snapshot if it is recent enough, else a new one at its head. */
export async function snapshotReference(pool: Pool, groupId: string, settings: AuthoritySettings, nowMillis: number, maxLag: number): Promise<SnapshotReference> {
  const { client, release } = await checkOut(pool);
  try {
    await client.query('begin isolation level repeatable read read only');
    const head = await client.query<{ last_sequence: number }>('select last_sequence from groups where group_id = $1', [groupId]);
    const last = head.rows[0]?.last_sequence ?? 0;
    const latest = await readLatestSnapshot(client, groupId);
    if (latest !== undefined && last - latest.throughSequence <= maxLag) {
      await client.query('commit');
      return latest;
    }
    const events = await client.query<{ event_id: string }>('select event_id from events where group_id = $1 order by sequence', [groupId]);
    const state = (await readAllGroupAggregates(client, groupId)).sort((a, b) => `${a.type} ${a.id}`.localeCompare(`${b.type} ${b.id}`));
    const now = new Date(nowMillis).toISOString();
    const refusals = await readPolicyLog(client, { groupId, until: now, limit: SNAPSHOT_POLICY_LOG_ENTRIES, keep: 'newest' });
    await client.query('commit');
    const authority = settings.services.authority;
    const snapshot = signDocument(
      'group-snapshot',
      {
        snapshotId: `urn:uuid:${randomUUID()}`,
        groupId,
        throughSequence: last,
        eventIds: events.rows.map((r) => r.event_id),
        stateHash: sha256ContentHash(canonicalize(state)),
        policyLog: [
          ...refusals.map((row) => refusalEntry(row, authority)),
          { entryId: `urn:uuid:${randomUUID()}`, decision: 'snapshot issued for replay beyond the online window', actor: authority, occurredAt: now, details: {} },
        ],
        createdBy: authority,
        createdAt: now,
      },
      settings.authorityKey,
    );
    const body = canonicalize({ snapshot, state });
    const hash = sha256ContentHash(body);
    await insertSnapshot(pool, groupId, hash, last, body);
    return { hash, throughSequence: last };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    release();
  }
}
