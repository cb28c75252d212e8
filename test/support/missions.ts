/**
 * Mission fixtures for integration tests: a root Mission created by a human through the real
 * pipeline, and readers of what the Group Authority stored.
 */

import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import type { Pool } from '../../src/store/pool.js';
import type { Actor, Harness } from './harness.js';

export interface MissionRefs {
  readonly missionId: string;
  readonly groupId: string;
  readonly mainConversationId: string;
}

export function missionPayload(h: Harness, coordinator: Actor, overrides: JsonObject = {}): JsonObject {
  const suffix = randomUUID();
  return {
    missionId: `urn:missionweave:mission:${suffix}`,
    groupId: `urn:missionweave:group:${suffix}`,
    mainConversationId: `urn:missionweave:conversation:${suffix}`,
    coordinatorId: coordinator.principal.id,
    title: 'Migrate billing to the ledger',
    objective: 'Move every billing record to the double-entry ledger.',
    definitionOfDone: [{ criterionId: 'parity', description: 'Ledger equals legacy balances.', evidenceRequired: ['deterministic_test'] }],
    budget: { currency: 'EUR', financialLimit: 500, modelTokenLimit: 1_000_000 },
    deadline: new Date(h.clock.millis + 7 * 86_400_000).toISOString(),
    ...overrides,
  };
}

export async function createMission(h: Harness, owner: Actor, coordinator: Actor, overrides: JsonObject = {}): Promise<MissionRefs> {
  const payload = missionPayload(h, coordinator, overrides);
  await h.expectOk(h.send(owner, 'mission.create', payload, { groupId: String(payload['groupId']) }));
  return { missionId: String(payload['missionId']), groupId: String(payload['groupId']), mainConversationId: String(payload['mainConversationId']) };
}

export async function eventsOf(pool: Pool, groupId: string): Promise<JsonObject[]> {
  const result = await pool.query<{ document: string }>('select document from events where group_id = $1 order by sequence', [groupId]);
  return result.rows.map((r) => JSON.parse(r.document) as JsonObject);
}

export async function count(pool: Pool, table: string, where = 'true', values: unknown[] = []): Promise<number> {
  const result = await pool.query<{ n: number }>(`select count(*)::int as n from ${table} where ${where}`, values);
  return result.rows[0]?.n ?? 0;
}
