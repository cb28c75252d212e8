/**
 * The in-memory half of a Group write transaction: for each Command of the batch, in arrival
 * order, answer retries from their receipts, run the admission checks, ask the decider, sign
 * the Events it returns and evolve the Group states — so later Commands of the same batch see
 * earlier ones exactly as if they had been committed one by one. Nothing here does I/O.
 */

import { decideWithKinds } from '../domain/decideGroup.js';
import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import type { GroupState } from '../domain/kinds/groupState.js';
import type { AgentFacts, DecisionContext, GroupHistory, MissionFacts, StoredContentFacts } from '../domain/model.js';
import type { EventRow } from '../store/sql/events.js';
import { receiptKey, type ReceiptRow } from '../store/sql/receipts.js';
import { admitAllEmbedded, checkAdmission, checkFoundReceipt, checkSession, receiptKeyOf } from './admissionChecks.js';
import type { EmbeddedAdmissionRow } from '../store/sql/embeddedAdmissions.js';
import { createdGroupOf } from './batchPreloads.js';
import type { Ancestry } from './ancestorGroups.js';
import { eventDocument, newUrn } from './eventFactory.js';
import type { CommandOutcome, DeliveredEvent } from './outcomes.js';
import type { AuthoritySettings } from './settings.js';
import type { VerifiedCommand } from './verifyCommand.js';
import { wireError } from './wireError.js';
import { MAX_LEDGER_ANCESTRY } from '../domain/workItem/budgetLimits.js';
import { acceptedFacts, refusalTarget, type EvidenceFact } from './evidence/pipelineEvidence.js';
import type { WireError } from './wireError.js';
import { coordinatorPackageKey } from './coordinatorContexts.js';

export interface BatchFacts {
  readonly nowMillis: number;
  /** Last sequences of the existing Groups the batch locked. */
  readonly lastSequences: ReadonlyMap<string, number>;
  readonly states: ReadonlyMap<string, GroupState>;
  readonly receipts: ReadonlyMap<string, ReceiptRow>;
  readonly sessions: ReadonlyMap<string, number>;
  readonly takenGroups: ReadonlySet<string>;
  readonly missions: ReadonlyMap<string, MissionFacts>;
  /** The ancestor Groups (locked and loaded) of the Groups whose Commands charge budgets (§12). */
  readonly ancestries: ReadonlyMap<string, Ancestry>;
  /** First-Admission Records of the embedded documents the batch's Commands carry, by signing hash. */
  readonly embeddedRecords: ReadonlyMap<string, EmbeddedAdmissionRow>;
  /** Stored histories of the Groups whose kinds preload one (archival), as of the batch's start. */
  readonly histories: ReadonlyMap<string, GroupHistory>;
  /** Completely stored Artifact contents the batch's kinds preload, by content hash. */
  readonly contents: ReadonlyMap<string, StoredContentFacts>;
  /** Registered major versions of the Extension Profiles the batch's pins name (§18). */
  readonly profileMajors: ReadonlyMap<string, readonly number[]>;
  /**
   * Stored Context Packages of the replacement Coordinators the batch's assignments name
   * (`coordinatorContexts.ts`); absent where the Organization issues none.
   */
  readonly coordinatorPackages?: ReadonlySet<string>;
  readonly agent: (agentId: string) => AgentFacts | undefined;
}

/** Per Command: an outcome, or the stored Events of the original it repeats. */
export type PlannedOutcome = CommandOutcome | { readonly ok: 'stored'; readonly eventIds: readonly string[] };

/** An appended Event waiting for its signature: filled in place once signed. */
export interface PendingEvent {
  readonly document: Record<string, unknown>;
  readonly row: { -readonly [K in keyof EventRow]: EventRow[K] };
  readonly delivered: { -readonly [K in keyof DeliveredEvent]: DeliveredEvent[K] };
}

export interface BatchPlan {
  readonly outcomes: PlannedOutcome[];
  readonly events: EventRow[];
  readonly pending: PendingEvent[];
  readonly receipts: ReceiptRow[];
  /** First-Admission Records of embedded documents first admitted by this batch. */
  readonly admissions: EmbeddedAdmissionRow[];
  /** Groups created, each with its parent Mission's Group (null for a root Mission's). */
  readonly newGroups: { groupId: string; missionId: string; parentGroupId: string | null }[];
  readonly before: Map<string, GroupState | null>;
  readonly after: Map<string, GroupState>;
  readonly lastSequences: Map<string, number>;
  /** What each Command's rules decided, when asked for (conformance evidence, §22). */
  readonly evidence?: EvidenceFact[];
}

/** Notes in `evidence` (when it is kept) what a Command's rules refused, and about what. */
function recordRefusal(evidence: EvidenceFact[] | undefined, kinds: KindRegistry, state: GroupState | null, command: VerifiedCommand, error: WireError, reason?: string): void {
  if (evidence === undefined) return;
  const details = error.details as { reason?: unknown } | undefined;
  const why = reason ?? (typeof details?.reason === 'string' ? details.reason : error.code);
  evidence.push({ fact: 'refused', kind: command.envelope.kind, code: error.code, reason: why, ...refusalTarget(kinds, state, command.envelope) });
}

/**
 * With `keepEvidence`, the plan also says what each Command's rules decided (`plan.evidence`),
 * for the conformance report; the caller records it once the batch commits.
 */
export function planGroupBatch(items: readonly VerifiedCommand[], facts: BatchFacts, settings: AuthoritySettings, kinds: KindRegistry, keepEvidence = false): BatchPlan {
  const now = new Date(facts.nowMillis).toISOString();
  const plan: BatchPlan = {
    outcomes: [],
    events: [],
    pending: [],
    receipts: [],
    admissions: [],
    newGroups: [],
    before: new Map(),
    after: new Map(facts.states),
    lastSequences: new Map(facts.lastSequences),
    ...(keepEvidence ? { evidence: [] } : {}),
  };
  const evidence = plan.evidence;
  const accepted = new Map<string, { signingHash: string; keyId: string; events: DeliveredEvent[] }>();
  const taken = new Set(facts.takenGroups);
  const admitted = new Map(facts.embeddedRecords);
  for (const group of facts.lastSequences.keys()) taken.add(group);
  const packages = facts.coordinatorPackages;

  for (const command of items) {
    const key = receiptKey(receiptKeyOf(command));
    const hash = command.verified.signingHash;
    const related = { relatedActionId: command.envelope.actionId };
    const stored = facts.receipts.get(key);
    const earlier = accepted.get(key);
    const found = stored ?? earlier;
    if (found !== undefined) {
      const mismatch = checkFoundReceipt(found, command);
      if (mismatch !== null) {
        plan.outcomes.push({ ok: false, error: mismatch });
        recordRefusal(evidence, kinds, plan.after.get(command.envelope.groupId as string) ?? null, command, mismatch);
      }
      else if (stored !== undefined) plan.outcomes.push({ ok: 'stored', eventIds: stored.eventIds });
      else plan.outcomes.push({ ok: true, events: earlier?.events ?? [], duplicate: true });
      continue;
    }
    const refused = checkAdmission(command, facts.nowMillis, settings.freshness) ?? checkSession(command, facts.sessions);
    if (refused !== null) {
      plan.outcomes.push({ ok: false, error: refused });
      recordRefusal(evidence, kinds, plan.after.get(command.envelope.groupId as string) ?? null, command, refused);
      continue;
    }
    const embedded = admitAllEmbedded(command, (signingHash) => admitted.get(signingHash), {
      nowMillis: facts.nowMillis,
      now,
      acceptedBy: settings.services.authority,
      newRecordId: newUrn,
    });
    if (!embedded.ok) {
      plan.outcomes.push({ ok: false, error: embedded.error });
      recordRefusal(evidence, kinds, plan.after.get(command.envelope.groupId as string) ?? null, command, embedded.error);
      continue;
    }
    const groupId = command.envelope.groupId as string;
    const state = plan.after.get(groupId) ?? null;
    const ancestry = facts.ancestries.get(groupId);
    if (ancestry?.tooDeep === true) {
      const error = wireError('INVALID_COMMAND', 'the Mission ancestry is deeper than the budget ledger charges', { ...related, groupId, details: { reason: 'ancestry-too-deep', maxAncestry: MAX_LEDGER_ANCESTRY } });
      plan.outcomes.push({ ok: false, error });
      recordRefusal(evidence, kinds, state, command, error);
      continue;
    }
    const context: DecisionContext = {
      now,
      nowMillis: facts.nowMillis,
      newId: newUrn,
      agent: facts.agent,
      mission: (missionId) => facts.missions.get(missionId),
      groupExists: (id) => taken.has(id),
      services: settings.services,
      groupHistory: (id) => facts.histories.get(id),
      ...(ancestry === undefined ? {} : { ancestors: ancestry.groupIds.map((id) => plan.after.get(id)).filter((a): a is GroupState => a !== undefined) }),
      storedContent: (contentHash) => facts.contents.get(contentHash),
      registeredMajors: (profileUri) => facts.profileMajors.get(profileUri) ?? [],
      ...(settings.cooperationLimits === undefined ? {} : { cooperationLimits: settings.cooperationLimits }),
      ...(packages === undefined ? {} : { coordinatorPackageStored: (epoch: number) => packages.has(coordinatorPackageKey(groupId, epoch)) }),
    };
    const decision = decideWithKinds(kinds, state, command.envelope, context);
    if (!decision.ok) {
      const { code, message, details } = decision.error;
      const error = wireError(code, message, { ...related, groupId, ...(details === undefined ? {} : { details }) });
      plan.outcomes.push({ ok: false, error });
      recordRefusal(evidence, kinds, state, command, error, decision.error.reason);
      continue;
    }
    const delivered: DeliveredEvent[] = [];
    // The states this decision starts from, per Group it appends to: only kept for the evidence.
    const prior = evidence === undefined ? undefined : new Map<string, GroupState | null>();
    decision.events.forEach((draft, index) => {
      const target = draft.groupId ?? groupId;
      // An existing Group is appended to only when it was locked and loaded (the Command's own or
      // an ancestor); any other is a Group this decision founds, at sequence 1.
      if (!plan.lastSequences.has(target) && taken.has(target)) throw new Error(`a draft names the Group ${target}, which the batch did not load`);
      if (!plan.before.has(target)) plan.before.set(target, plan.after.get(target) ?? null);
      if (prior !== undefined && !prior.has(target)) prior.set(target, plan.after.get(target) ?? null);
      const sequence = (plan.lastSequences.get(target) ?? 0) + 1;
      plan.lastSequences.set(target, sequence);
      const unsigned = eventDocument(draft, { command, now, authority: settings.services.authority, key: settings.authorityKey, primary: index === 0 }, { groupId: target, sequence });
      plan.after.set(target, kinds.evolve(plan.after.get(target) ?? null, unsigned.recorded));
      const row = {
        groupId: target,
        sequence,
        eventId: unsigned.eventId,
        kind: draft.kind,
        aggregateType: draft.aggregate.type,
        aggregateId: draft.aggregate.id,
        aggregateRevision: draft.aggregate.revision,
        document: '',
        signingHash: '',
        admissionRecordId: newUrn(),
        trustedAcceptedAt: now,
        keyId: settings.authorityKey.keyId,
      };
      const event = { eventId: unsigned.eventId, groupId: target, sequence, text: '' };
      plan.events.push(row);
      plan.pending.push({ document: unsigned.document, row, delivered: event });
      delivered.push(event);
    });
    if (prior !== undefined) evidence?.push(...acceptedFacts(command.envelope, decision.events, prior, (id) => plan.after.get(id)));
    const created = createdGroupOf(kinds, command);
    if (created !== undefined) {
      // A child Mission is created by a Command in its parent's Group; a new-group kind founds a root.
      plan.newGroups.push({ ...created, parentGroupId: kinds.groupKind(command.envelope.kind)?.scope === 'new-group' ? null : groupId });
      taken.add(created.groupId);
    }
    accepted.set(key, { signingHash: hash, keyId: command.verified.keyId, events: delivered });
    for (const record of embedded.records) {
      plan.admissions.push(record);
      admitted.set(record.signingHash, record);
    }
    plan.receipts.push({
      ...receiptKeyOf(command),
      signingHash: hash,
      kind: command.envelope.kind,
      groupId,
      command: command.canonical,
      eventIds: delivered.map((e) => e.eventId),
      keyId: command.verified.keyId,
      admissionRecordId: newUrn(),
      trustedAcceptedAt: now,
    });
    plan.outcomes.push({ ok: true, events: delivered, duplicate: false });
  }
  return plan;
}
