/**
 * Signed Group Snapshots (§7.4, §16): a projection of a Group through one sequence — every Event
 * ID up to it, the hash of the aggregate state it produced, a policy-log entry — signed by the
 * Group Authority service. The served artifact is `{snapshot, state}` as JCS text; its SHA-256
 * is the `snapshotArtifactHash` of CURSOR_TOO_OLD.
 */

import { randomUUID } from 'node:crypto';
import { sha256ContentHash } from '../protocol/contentHash.js';
import { canonicalize } from '../protocol/jcs.js';
import { signDocument } from '../protocol/signing/signDocument.js';
import { checkOut, type Pool } from '../store/pool.js';
import { readAllGroupAggregates } from '../store/sql/aggregates.js';
import { insertSnapshot, readLatestSnapshot } from '../store/sql/snapshots.js';
import type { AuthoritySettings } from './settings.js';

export interface SnapshotReference {
  readonly hash: string;
  readonly throughSequence: number;
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
    await client.query('commit');
    const now = new Date(nowMillis).toISOString();
    const authority = settings.services.authority;
    const snapshot = signDocument(
      'group-snapshot',
      {
        snapshotId: `urn:uuid:${randomUUID()}`,
        groupId,
        throughSequence: last,
        eventIds: events.rows.map((r) => r.event_id),
        stateHash: sha256ContentHash(canonicalize(state)),
        policyLog: [{ entryId: `urn:uuid:${randomUUID()}`, decision: 'snapshot issued for replay beyond the online window', actor: authority, occurredAt: now, details: {} }],
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
