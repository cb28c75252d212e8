/**
 * One write transaction for Organization-scoped Commands (Agent Card registration, session
 * opening), serialized on the Organization row. Their Events carry no Group sequence; they are
 * ordered by position. A registration extends the Registry and bumps its revision in the same
 * transaction, so every node's next write transaction sees the new keys.
 */

import { decideOrganizationCommand, evolveOrganization, SESSION_OPENED, type OrganizationState } from '../domain/organization/organization.js';
import type { DecisionContext } from '../domain/model.js';
import { RegistryProblem } from '../protocol/signing/keyRegistry.js';
import { verifyParsedDocument } from '../protocol/signing/verifySignedDocument.js';
import type { VerificationFailure } from '../protocol/signing/verification.js';
import { samePrincipal } from '../protocol/principal.js';
import type { JsonObject } from '../protocol/strictJson.js';
import { withLayeredEntry } from '../protocol/layeredMap.js';
import { SESSIONS_CHANNEL } from '../store/channels.js';
import { inTransaction, type Queryable } from '../store/pool.js';
import { insertAgentCard, insertOrganizationEvents, readOrganizationEventsById, type NewAgentCardRow, type OrganizationEventRow } from '../store/sql/organization.js';
import { findReceipts, insertReceipts, receiptKey, type ReceiptRow } from '../store/sql/receipts.js';
import { insertBinding, insertValidityRecord, lockOrganization, updateOrganization } from '../store/sql/registry.js';
import { upsertSessionEpochs } from '../store/sql/sessions.js';
import { applyCardKeys, type CardKeyChanges } from './agentCardKeys.js';
import { admitEmbedded, checkAdmission, checkFoundReceipt, receiptKeyOf } from './admissionChecks.js';
import { insertEmbeddedAdmissions, readEmbeddedAdmissions, type EmbeddedAdmissionRow } from '../store/sql/embeddedAdmissions.js';
import { newUrn, signEvent } from './eventFactory.js';
import { BatchConflict, deliveredFromText, type CommandOutcome, type DeliveredEvent } from './outcomes.js';
import { agentFactsOf, type RegistrySnapshot } from './registrySnapshot.js';
import type { OrganizationStateCache } from './organizationStates.js';
import type { GroupBatchDependencies } from './runGroupBatch.js';
import type { EmbeddedVerification, VerifiedCommand } from './verifyCommand.js';
import { wireError } from './wireError.js';
import type { EvidenceFact } from './evidence/pipelineEvidence.js';

interface Writes {
  events: OrganizationEventRow[];
  cards: NewAgentCardRow[];
  keys: CardKeyChanges[];
  sessions: Map<string, number>;
  receipts: ReceiptRow[];
  admissions: EmbeddedAdmissionRow[];
}

/** Verifies an embedded Agent Card and works out its Registry changes. */
function cardFacts(command: VerifiedCommand, member: string, snapshot: RegistrySnapshot, deps: GroupBatchDependencies, now: string) {
  const card = command.envelope.payload[member] as JsonObject;
  const verified = verifyParsedDocument('agent-card', card, snapshot.registry, deps.schemas);
  const services = deps.settings.services;
  const cardIssuerAuthorized = verified.ok && samePrincipal(verified.verified.principal, services.registry) && card['organizationId'] === services.organizationId;
  let changes: CardKeyChanges | undefined;
  let registryProblem: string | undefined;
  try {
    changes = applyCardKeys(card, snapshot.registry, now);
  } catch (error) {
    if (!(error instanceof RegistryProblem)) throw error;
    registryProblem = error.reason;
  }
  const verification: EmbeddedVerification | undefined = verified.ok
    ? { document: 'agent-card', signingHash: verified.verified.signingHash, keyId: verified.verified.keyId, key: verified.verified.key }
    : undefined;
  const failure = verified.ok ? undefined : verified.failure;
  return { card, cardIssuerAuthorized, ...(registryProblem === undefined ? {} : { registryProblem }), changes, signingHash: verification?.signingHash, verification, failure };
}

/**
 * A card that failed its six stages is refused with the code of its failing stage, as a Command's
 * own signature failure is (§6.4: "Failure in cryptographic stage 3, 4, or 6 … is
 * AUTH_INVALID_SIGNATURE"), its stage and reason kept for the Policy Log; the issuer's authority
 * is judged only of a card that verified.
 */
function cardRefusal(failure: VerificationFailure, related: { relatedActionId: string }): CommandOutcome {
  return { ok: false, error: wireError(failure.code, failure.stage === 'schema' ? failure.detail : '', { ...related, diagnostic: { stage: failure.stage, reason: failure.reason } }) };
}

/** Tells every node the Registry moved, so each refreshes its copy before it is asked. */
export async function notifyRegistryChanged(client: Queryable, registryRevision: number): Promise<void> {
  await client.query('select pg_notify($1, $2)', [SESSIONS_CHANNEL, JSON.stringify({ registryRevision })]);
}

export interface OrganizationBatchDependencies extends GroupBatchDependencies {
  readonly organization: OrganizationStateCache;
}

export async function runOrganizationBatch(items: readonly VerifiedCommand[], deps: OrganizationBatchDependencies): Promise<CommandOutcome[]> {
  const nowMillis = deps.clock.nowMillis();
  const now = new Date(nowMillis).toISOString();
  const services = deps.settings.services;
  let installed: RegistrySnapshot | undefined;
  let committed: { position: number; state: OrganizationState } | undefined;
  // What the Commands' rules decided, recorded once the transaction commits (conformance evidence).
  let evidence: EvidenceFact[] = [];
  const outcomes = await inTransaction(deps.pool, async (client) => {
    const org = await lockOrganization(client, services.organizationId);
    let snapshot = await deps.registry.ensure(client, org.registryRevision);
    // Each actor's receipts, its Group Commands' included (§15.1): a service's from the
    // coordinator's `organization_receipts`, so a session activation reads no worker (receipts.ts).
    const receipts = await findReceipts(client, items.map(receiptKeyOf));
    let state = await deps.organization.load(client, org.lastPosition);
    let position = org.lastPosition;
    evidence = [];
    const writes: Writes = { events: [], cards: [], keys: [], sessions: new Map(), receipts: [], admissions: [] };
    const results: (CommandOutcome | string[])[] = [];
    for (const command of items) {
      const related = { relatedActionId: command.envelope.actionId };
      const prior = receipts.get(receiptKey(receiptKeyOf(command))) ?? writes.receipts.find((r) => receiptKey(r) === receiptKey(receiptKeyOf(command)));
      if (prior !== undefined) {
        const mismatch = checkFoundReceipt(prior, command);
        results.push(mismatch === null ? prior.eventIds.slice() : { ok: false, error: mismatch });
        continue;
      }
      const refused = checkAdmission(command, nowMillis, deps.settings.freshness);
      if (refused !== null) {
        results.push({ ok: false, error: refused });
        continue;
      }
      const embedded = deps.kinds.embeddedOf(command.envelope.kind);
      const facts = embedded?.document === 'agent-card' ? cardFacts(command, embedded.member, snapshot, deps, now) : undefined;
      if (facts?.failure !== undefined) {
        results.push(cardRefusal(facts.failure, related));
        continue;
      }
      let admission: EmbeddedAdmissionRow | undefined;
      if (facts?.verification !== undefined) {
        const hash = facts.verification.signingHash;
        const found = (await readEmbeddedAdmissions(client, services.organizationId, [hash])).get(hash) ?? writes.admissions.find((r) => r.signingHash === hash);
        const admitted = admitEmbedded(command, facts.verification, found, { nowMillis, now, acceptedBy: services.authority, admissionRecordId: newUrn() });
        if (!admitted.ok) {
          results.push({ ok: false, error: admitted.error });
          continue;
        }
        admission = admitted.record;
      }
      const sessionsBefore = state.sessions;
      const context: DecisionContext = {
        now,
        nowMillis,
        newId: newUrn,
        agent: (agentId) => snapshot.agents.get(agentId),
        mission: () => undefined,
        groupExists: () => false,
        services,
      };
      const decision = decideOrganizationCommand(state, command.envelope, context, facts);
      if (!decision.ok) {
        results.push({ ok: false, error: wireError(decision.error.code, decision.error.message, related) });
        evidence.push({ fact: 'refused', kind: command.envelope.kind, code: decision.error.code, reason: decision.error.reason, target: 'organization', state: 'none' });
        continue;
      }
      evidence.push({ fact: 'accepted', kind: command.envelope.kind }, ...decision.events.map((d) => ({ fact: 'appended' as const, kind: command.envelope.kind, event: d.kind })));
      const delivered: DeliveredEvent[] = [];
      decision.events.forEach((draft, index) => {
        const signed = signEvent(draft, { command, now, authority: services.authority, key: deps.settings.authorityKey, primary: index === 0 });
        position++;
        writes.events.push({ position, eventId: signed.eventId, kind: signed.kind, document: signed.text, signingHash: signed.signingHash, admissionRecordId: signed.admissionRecordId, trustedAcceptedAt: now });
        state = evolveOrganization(state, signed.recorded);
        delivered.push({ eventId: signed.eventId, groupId: undefined, sequence: undefined, text: signed.text });
      });
      if (facts?.changes !== undefined) {
        writes.keys.push(facts.changes);
        writes.cards.push({ agentId: String(facts.card['agentId']), cardVersion: Number(facts.card['cardVersion']), status: String(facts.card['status']), document: JSON.stringify(facts.card), signingHash: facts.signingHash ?? '', registeredAt: now, registryRevision: snapshot.revision + 1 });
        // O(√Agents), not a copy of every Agent's facts (`LayeredMap`).
        const agents = withLayeredEntry(snapshot.agents, String(facts.card['agentId']), agentFactsOf(facts.card));
        snapshot = { revision: snapshot.revision + 1, registry: facts.changes.registry, agents };
      }
      // An Agent's new Session Epoch is written, and announced, with the Event that opened it:
      // only SESSION_OPENED moves one, so only its Agent is compared (not every Agent's, which
      // made each HELLO cost O(Agents) — minutes for 30,000, BENCHMARKS.md "Setup for the full sizes").
      for (const draft of decision.events) {
        if (draft.kind !== SESSION_OPENED) continue;
        const agentId = String((draft.payload as { agentId?: unknown }).agentId);
        const epoch = state.sessions.get(agentId);
        if (epoch !== undefined && sessionsBefore.get(agentId) !== epoch) writes.sessions.set(agentId, epoch);
      }
      writes.receipts.push({ ...receiptKeyOf(command), signingHash: command.verified.signingHash, kind: command.envelope.kind, groupId: null, command: command.canonical, eventIds: delivered.map((e) => e.eventId), keyId: command.verified.keyId, admissionRecordId: newUrn(), trustedAcceptedAt: now });
      if (admission !== undefined) writes.admissions.push(admission);
      results.push({ ok: true, events: delivered, duplicate: false });
    }
    await insertOrganizationEvents(client, writes.events);
    for (const card of writes.cards) await insertAgentCard(client, card);
    for (const change of writes.keys) {
      for (const binding of change.bindings) await insertBinding(client, binding, snapshot.revision);
      for (const { keyId, record } of change.records) await insertValidityRecord(client, keyId, record, snapshot.revision);
    }
    await upsertSessionEpochs(client, writes.sessions, now);
    for (const [agentId, sessionEpoch] of writes.sessions) {
      // Other nodes close this Agent's older sessions on this hint.
      await client.query('select pg_notify($1, $2)', [SESSIONS_CHANNEL, JSON.stringify({ agentId, sessionEpoch })]);
    }
    if (writes.keys.length > 0) await notifyRegistryChanged(client, snapshot.revision);
    if ((await insertReceipts(client, writes.receipts)) !== writes.receipts.length) throw new BatchConflict('a receipt was claimed concurrently');
    if ((await insertEmbeddedAdmissions(client, services.organizationId, writes.admissions)) !== writes.admissions.length) {
      throw new BatchConflict('an embedded document was admitted concurrently');
    }
    await updateOrganization(client, services.organizationId, { registryRevision: snapshot.revision, lastPosition: position });
    if (writes.keys.length > 0) installed = snapshot;
    committed = { position, state };
    const stored = results.flatMap((r) => (Array.isArray(r) ? r : []));
    const texts = stored.length === 0 ? new Map<string, string>() : await readOrganizationEventsById(client, stored);
    return results.map((r): CommandOutcome => (Array.isArray(r) ? { ok: true, duplicate: true, events: r.map((id) => deliveredFromText(texts.get(id) ?? '{}')) } : r));
  });
  if (installed !== undefined) deps.registry.install(installed);
  if (committed !== undefined) deps.organization.commit(committed.position, committed.state);
  for (const fact of evidence) deps.evidence?.record(fact);
  return outcomes;
}
