/**
 * Organization-scoped Events and registered Agent Cards.
 */

import type { Queryable } from '../pool.js';

export interface OrganizationEventRow {
  readonly position: number;
  readonly eventId: string;
  readonly kind: string;
  readonly document: string;
  readonly signingHash: string;
  readonly admissionRecordId: string;
  readonly trustedAcceptedAt: string;
}

export async function insertOrganizationEvents(db: Queryable, rows: readonly OrganizationEventRow[]): Promise<void> {
  for (const r of rows) {
    await db.query(
      `insert into organization_events (position, event_id, kind, document, signing_hash, admission_record_id, trusted_accepted_at)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [r.position, r.eventId, r.kind, r.document, r.signingHash, r.admissionRecordId, r.trustedAcceptedAt],
    );
  }
}

export interface AgentCardRow {
  readonly agentId: string;
  readonly cardVersion: number;
  readonly status: string;
  readonly document: string;
  readonly signingHash: string;
  readonly registeredAt: string;
}

/** A card as written: with the Registry revision its registration moved the Registry to. */
export interface NewAgentCardRow extends AgentCardRow {
  readonly registryRevision: number;
}

export async function insertAgentCard(db: Queryable, row: NewAgentCardRow): Promise<void> {
  await db.query(
    `insert into agent_cards (agent_id, card_version, status, document, signing_hash, registered_at, registry_revision)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [row.agentId, row.cardVersion, row.status, row.document, row.signingHash, row.registeredAt, row.registryRevision],
  );
}

/** The latest card of every Agent registered at a Registry revision in (`after`, `upTo`]. */
export async function readAgentCardsBetween(db: Queryable, after: number, upTo: number): Promise<AgentCardRow[]> {
  const result = await db.query<AgentCardRow>(
    `select distinct on (agent_id) agent_id as "agentId", card_version as "cardVersion", status, document,
            signing_hash as "signingHash", registered_at as "registeredAt"
     from agent_cards where registry_revision > $1 and registry_revision <= $2 order by agent_id, card_version desc`,
    [after, upTo],
  );
  return result.rows;
}

/** The latest card of every Agent. */
export async function readLatestAgentCards(db: Queryable): Promise<AgentCardRow[]> {
  const result = await db.query<AgentCardRow>(
    `select distinct on (agent_id) agent_id as "agentId", card_version as "cardVersion", status, document,
            signing_hash as "signingHash", registered_at as "registeredAt"
     from agent_cards order by agent_id, card_version desc`,
  );
  return result.rows;
}

/** The latest card version registered for one Agent; 0 when it has none. */
export async function readAgentCardVersion(db: Queryable, agentId: string): Promise<number> {
  const result = await db.query<{ version: number | null }>('select max(card_version) as version from agent_cards where agent_id = $1', [agentId]);
  return Number(result.rows[0]?.version ?? 0);
}

/** The Organization Events at positions after `after` up to `upTo`, in order: kind and signed text. */
export async function readOrganizationEventsBetween(db: Queryable, after: number, upTo: number): Promise<{ position: number; kind: string; document: string }[]> {
  const result = await db.query<{ position: number; kind: string; document: string }>({
    name: 'read-organization-events-between',
    text: 'select position, kind, document from organization_events where position > $1 and position <= $2 order by position',
    values: [after, upTo],
  });
  return result.rows;
}

/** Organization Events by ID (to answer a duplicate Organization Command with its original Events). */
export async function readOrganizationEventsById(db: Queryable, eventIds: readonly string[]): Promise<Map<string, string>> {
  const result = await db.query<{ event_id: string; document: string }>({
    name: 'read-organization-events-by-id',
    text: 'select event_id, document from organization_events where event_id = any($1::text[])',
    values: [eventIds],
  });
  return new Map(result.rows.map((r) => [r.event_id, r.document]));
}

/** Every Agent's latest card version and status: what the Organization decider reads of them. */
export async function readLatestAgentCardFacts(db: Queryable): Promise<{ agentId: string; cardVersion: number; status: string }[]> {
  const result = await db.query<{ agentId: string; cardVersion: number; status: string }>(
    `select distinct on (agent_id) agent_id as "agentId", card_version as "cardVersion", status
     from agent_cards order by agent_id, card_version desc`,
  );
  return result.rows;
}
