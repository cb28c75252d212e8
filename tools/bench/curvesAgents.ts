/**
 * Registering the idle curve's Agents (up to 30,000) quickly enough on two cores. Through the
 * Command path each registration copies the whole Registry and Agent map (an immutable
 * snapshot per card, so the next card in the batch sees it): about 4 ms per Agent plus 1.5 ms
 * per 1,000 already registered, ~14 minutes for 30,000 on a quiet machine (BENCHMARKS.md).
 *
 * Here every Agent is still registered as the Organization does it — a card signed by the
 * registry service, a signed `agent_card_register` Command, both verified by the real verifier,
 * the real Organization decider's `agent_card_registered` Event signed by the Authority, the
 * key binding derived by `applyCardKeys`, the receipt and the embedded admission record, one
 * Registry revision per card — but each card's keys are checked against the Registry as it was
 * before the chunk (every key is fresh), and a chunk's rows go in as one statement per table.
 * The in-process Authority reloads its Registry and Organization state on its next write (the
 * revision and position moved); a `serve` node reads them at start.
 */

import { admitEmbedded, receiptKeyOf } from '#src/app/admissionChecks.js';
import { applyCardKeys } from '#src/app/agentCardKeys.js';
import { newUrn, signEvent } from '#src/app/eventFactory.js';
import { timestampOf } from '#src/app/issueDocuments.js';
import { verifyCommandValue } from '#src/app/verifyCommand.js';
import { decideOrganizationCommand, evolveOrganization, initialOrganizationState } from '#src/domain/organization/organization.js';
import { samePrincipal } from '#src/protocol/principal.js';
import { verifyParsedDocument } from '#src/protocol/signing/verifySignedDocument.js';
import type { KeyBindingEvidence } from '#src/protocol/signing/keyRegistry.js';
import type { JsonObject } from '#src/protocol/strictJson.js';
import { inTransaction } from '#src/store/pool.js';
import type { OrganizationEventRow } from '#src/store/sql/organization.js';
import type { EmbeddedAdmissionRow } from '#src/store/sql/embeddedAdmissions.js';
import { insertEmbeddedAdmissions } from '#src/store/sql/embeddedAdmissions.js';
import { insertReceipts, type ReceiptRow } from '#src/store/sql/receipts.js';
import { lockOrganization, updateOrganization } from '#src/store/sql/registry.js';
import type { BenchAgent, BenchWorld } from './benchWorld.js';
import { CURVE_LIMITS } from './curvesPlan.js';

interface ChunkRows {
  events: Omit<OrganizationEventRow, 'position'>[];
  cards: { agentId: string; document: string; signingHash: string }[];
  bindings: KeyBindingEvidence[];
  receipts: ReceiptRow[];
  admissions: EmbeddedAdmissionRow[];
}

/** Verifies, decides and signs one chunk of registrations; throws on anything the Authority would refuse. */
function registerChunk(world: BenchWorld, commands: readonly JsonObject[]): ChunkRows {
  const { authority } = world.running;
  const snapshot = authority.registry.current;
  const services = authority.settings.services;
  const nowMillis = Date.now();
  const now = new Date(nowMillis).toISOString();
  const rows: ChunkRows = { events: [], cards: [], bindings: [], receipts: [], admissions: [] };
  let state = initialOrganizationState();
  for (const value of commands) {
    const front = verifyCommandValue(value, { registry: snapshot.registry, revision: snapshot.revision }, authority.schemas, authority.kinds);
    if (!front.ok) throw new Error(`seeded Agent Card Command refused: ${front.error.code} ${front.error.message}`);
    const command = front.command;
    const card = command.envelope.payload['card'] as JsonObject;
    // The card is verified in the write, against the Registry it changes, as `cardFacts` does.
    const checked = verifyParsedDocument('agent-card', card, snapshot.registry, authority.schemas);
    if (!checked.ok) throw new Error(`seeded Agent Card refused: ${checked.failure.code}`);
    const verification = { document: 'agent-card' as const, signingHash: checked.verified.signingHash, keyId: checked.verified.keyId, key: checked.verified.key };
    const cardIssuerAuthorized = samePrincipal(verification.key.principal, services.registry) && card['organizationId'] === services.organizationId;
    const changes = applyCardKeys(card, snapshot.registry, now);
    const context = { now, nowMillis, newId: newUrn, agent: () => undefined, mission: () => undefined, groupExists: () => false, services };
    const decision = decideOrganizationCommand(state, command.envelope, context, { card, cardIssuerAuthorized });
    if (!decision.ok) throw new Error(`seeded Agent Card refused: ${decision.error.code} ${decision.error.message}`);
    const admitted = admitEmbedded(command, verification, undefined, { nowMillis, now, acceptedBy: services.authority, admissionRecordId: newUrn() });
    if (!admitted.ok || admitted.record === undefined) throw new Error('seeded Agent Card not admitted');
    const eventIds: string[] = [];
    decision.events.forEach((draft, index) => {
      const signed = signEvent(draft, { command, now, authority: services.authority, key: authority.settings.authorityKey, primary: index === 0 });
      rows.events.push({ eventId: signed.eventId, kind: signed.kind, document: signed.text, signingHash: signed.signingHash, admissionRecordId: signed.admissionRecordId, trustedAcceptedAt: now });
      state = evolveOrganization(state, signed.recorded);
      eventIds.push(signed.eventId);
    });
    rows.cards.push({ agentId: String(card['agentId']), document: JSON.stringify(card), signingHash: verification.signingHash });
    rows.bindings.push(...changes.bindings);
    rows.receipts.push({ ...receiptKeyOf(command), signingHash: command.verified.signingHash, kind: command.envelope.kind, groupId: null, command: command.canonical, eventIds, keyId: command.verified.keyId, admissionRecordId: newUrn(), trustedAcceptedAt: now });
    rows.admissions.push(admitted.record);
  }
  return rows;
}

/** One chunk's rows in one transaction, positions and Registry revisions continuing the Organization's. */
async function writeChunk(world: BenchWorld, rows: ChunkRows): Promise<void> {
  const services = world.running.authority.settings.services;
  const now = rows.events[0]?.trustedAcceptedAt ?? timestampOf(Date.now());
  await inTransaction(world.running.pool, async (client) => {
    const org = await lockOrganization(client, services.organizationId);
    // One position per Event and one Registry revision per card, as the Command path writes them.
    await client.query(
      `insert into organization_events (position, event_id, kind, document, signing_hash, admission_record_id, trusted_accepted_at)
       select * from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])`,
      [rows.events.map((_, i) => org.lastPosition + 1 + i), ...(['eventId', 'kind', 'document', 'signingHash', 'admissionRecordId', 'trustedAcceptedAt'] as const).map((k) => rows.events.map((e) => e[k]))],
    );
    await client.query(
      `insert into agent_cards (agent_id, card_version, status, document, signing_hash, registered_at, registry_revision)
       select a, 1, 'active', d, h, $4, r from unnest($1::text[], $2::text[], $3::text[], $5::bigint[]) as x(a, d, h, r)`,
      [rows.cards.map((c) => c.agentId), rows.cards.map((c) => c.document), rows.cards.map((c) => c.signingHash), now, rows.cards.map((_, i) => org.registryRevision + 1 + i)],
    );
    if (rows.bindings.some((b) => b.validityHistory.length > 0)) throw new Error('seeded Agent keys carry no validity records');
    await client.query(
      `insert into key_bindings (key_id, principal_type, principal_id, algorithm, public_key, valid_from, registry_revision)
       select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])`,
      [rows.bindings.map((b) => b.keyId), rows.bindings.map((b) => b.principal.type), rows.bindings.map((b) => b.principal.id), rows.bindings.map((b) => b.algorithm),
        rows.bindings.map((b) => b.publicKey), rows.bindings.map((b) => b.validFrom), rows.bindings.map((_, i) => org.registryRevision + 1 + i)],
    );
    if ((await insertReceipts(client, rows.receipts)) !== rows.receipts.length) throw new Error('a seeded receipt already existed');
    if ((await insertEmbeddedAdmissions(client, services.organizationId, rows.admissions)) !== rows.admissions.length) throw new Error('a seeded card was already admitted');
    const registryRevision = org.registryRevision + rows.cards.length;
    await updateOrganization(client, services.organizationId, { registryRevision, lastPosition: org.lastPosition + rows.events.length });
    // No Registry notice (the Command path sends one per batch): no `serve` node runs during the
    // seed — each reads the Registry whole when it starts — and the notice would make the
    // in-process Authority send its crypto worker the seeded bindings as one delta, which the
    // worker adds one `extend` (a copy of its Registry) at a time: 144 s of CPU after 30,000,
    // during the curve. The in-process Authority reloads on its next write instead.
  });
}

/**
 * Registers `count` Agents named `prefix-i` with the Organization, `CURVE_LIMITS.agentSeedChunk`
 * per transaction; signing and verifying one chunk overlaps writing the previous one.
 */
export async function seedAgents(world: BenchWorld, prefix: string, count: number): Promise<BenchAgent[]> {
  const validFrom = timestampOf(Date.now() - 60_000);
  const made: BenchAgent[] = [];
  let pending: Promise<void> | undefined;
  for (let start = 0; start < count; start += CURVE_LIMITS.agentSeedChunk) {
    const chunk = Array.from({ length: Math.min(CURVE_LIMITS.agentSeedChunk, count - start) }, (_, i) => world.registration(`${prefix}-${start + i}`, validFrom));
    const rows = registerChunk(world, chunk.map((r) => r.command));
    made.push(...chunk.map((r) => r.agent));
    await pending;
    pending = writeChunk(world, rows);
  }
  await pending;
  return made;
}
