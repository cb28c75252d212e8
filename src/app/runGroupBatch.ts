/**
 * One Group write transaction for a batch of verified Commands (verify → authorize → load →
 * decide → append): lock the Groups' counter rows, load what the deciders need (in few round
 * trips: see `batchReads`), plan every Command in memory, then append Events, aggregates and
 * receipts and advance the counters — all or nothing. One NOTIFY per batch wakes other nodes' readers; it is a hint only.
 */

import { changedAggregates, type GroupStateCache } from './groupStates.js';
import type { GroupState } from '../domain/kinds/groupState.js';
import type { MissionNotes } from '../domain/mission/missionSlice.js';
import type { KindRegistry } from '../domain/kinds/kindRegistry.js';
import type { GroupHistory, MissionFacts } from '../domain/model.js';
import { readGroupHistory } from './groupSnapshots.js';
import type { Principal } from '../protocol/principal.js';
import type { JsonObject } from '../protocol/strictJson.js';
import type pg from 'pg';
import { inPipelinedTransaction, type Pool, type PoolClient } from '../store/pool.js';
import type { PipelinedTransaction } from '../store/pipeline.js';
import { EVENTS_CHANNEL, eventsHint } from '../store/channels.js';
import { readMissionDocuments } from '../store/sql/aggregates.js';
import { appendBatchStatement, type AggregateWrite } from '../store/sql/appendBatch.js';
import { readEventsById, readTreeEventsById } from '../store/sql/events.js';
import { lockGroupsStatements, parseLockedGroups, parseReceiptsAndSessions, parseRoutedReads, receiptsAndSessionsStatement, routedReadStatements, type ReceiptsAndSessions } from '../store/sql/batchReads.js';
import { appendRoutedStatements } from '../store/sql/appendRouted.js';
import { findTakenIds, insertGroups } from '../store/sql/groups.js';
import { readStoredContents } from '../store/sql/artifactContents.js';
import { DEFAULT_ARTIFACT_LIMITS } from './artifacts/artifactLimits.js';
import { insertEmbeddedAdmissions, readEmbeddedAdmissions } from '../store/sql/embeddedAdmissions.js';
import { insertPolicyLogRows } from '../store/sql/policyLog.js';
import { cooperationPolicyLogRows } from './policy/cooperationPolicyLog.js';
import { receiptKeyOf } from './admissionChecks.js';
import { BatchConflict, deliveredFromText, type CommandOutcome } from './outcomes.js';
import { batchPreloads, lockedGroupsOf, type BatchPreloads } from './batchPreloads.js';
import { ancestriesOf, type AncestorGroupCache, type Ancestry } from './ancestorGroups.js';
import type { GroupTreeCache } from './groupTrees.js';
import { planGroupBatch, type BatchPlan } from './planGroupBatch.js';
import type { RegistryCache } from './registryCache.js';
import type { AuthoritySettings, Clock } from './settings.js';
import { verifyCommandValue, type VerifiedCommand } from './verifyCommand.js';
import { signEventDocuments } from './eventFactory.js';
import { rendersRedactions, renderRedactions } from './redactEvents.js';
import type { CryptoPool } from './workers/cryptoPool.js';
import type { SchemaRegistry } from '../protocol/schemas/registry.js';
import { readRegisteredMajors } from '../store/sql/extensionProfiles.js';
import type { PipelineEvidence } from './evidence/pipelineEvidence.js';
import { readCoordinatorContexts } from './coordinatorContexts.js';
import type { BatchPhases } from './tracing/tracing.js';

export interface GroupBatchDependencies {
  readonly crypto: CryptoPool | undefined;
  readonly pool: Pool;
  readonly settings: AuthoritySettings;
  readonly clock: Clock;
  readonly registry: RegistryCache;
  readonly states: GroupStateCache;
  /** The ancestor Groups of Missions whose Commands charge the budget ledger (§12). */
  readonly ancestry: AncestorGroupCache;
  /** Each Group's Mission tree, which every statement of the batch names (migration 0021). */
  readonly trees: GroupTreeCache;
  readonly schemas: SchemaRegistry;
  /** The Command and Event kinds accepted: the core ones and the registered profiles'. */
  readonly kinds: KindRegistry;
  /** Told what each committed batch's Commands decided, under `npm test` only (conformance evidence, §22). */
  readonly evidence?: PipelineEvidence;
}

/** What a decision may know of another Group's Mission, from its stored `{ mission, notes }` row. */
function missionFactsOf(groupId: string, document: unknown): MissionFacts | undefined {
  const record = document as { mission?: JsonObject; notes?: MissionNotes } & JsonObject;
  const mission = (record.mission ?? record) as JsonObject;
  if (typeof mission['missionId'] !== 'string') return undefined;
  const parent = mission['parent'] as { missionId: string; workItemId: string } | undefined;
  const { approval, closureReason } = record.notes ?? {};
  return {
    missionId: mission['missionId'],
    groupId,
    state: String(mission['state']),
    missionOwner: mission['missionOwner'] as Principal,
    ...(parent === undefined ? {} : { parent: { missionId: parent.missionId, workItemId: parent.workItemId } }),
    ...(approval === undefined ? {} : { approval: { approvalId: approval.approvalId, artifactHashes: approval.artifactHashes } }),
    ...(closureReason === undefined ? {} : { closureReason }),
  };
}

/** Re-runs the stateless checks of Commands verified under an older Registry revision. */
function reverify(items: readonly VerifiedCommand[], deps: GroupBatchDependencies): (VerifiedCommand | CommandOutcome)[] {
  const snapshot = deps.registry.current;
  return items.map((item) => {
    if (item.registryRevision === snapshot.revision) return item;
    const again = verifyCommandValue(item.document, snapshot, deps.schemas, deps.kinds);
    if (again.ok) return item.traceContext === undefined ? again.command : { ...again.command, traceContext: item.traceContext };
    return { ok: false, error: again.diagnostic === undefined ? again.error : { ...again.error, diagnostic: { stage: again.diagnostic.stage, reason: again.diagnostic.reason } } };
  });
}

/** Plans the batch; the Groups of `items` are already locked (`locked` holds their counters). */
async function plan(
  client: PoolClient,
  items: readonly VerifiedCommand[],
  locked: ReadonlyMap<string, number>,
  ancestries: ReadonlyMap<string, Ancestry>,
  trees: ReadonlyMap<string, string>,
  preloads: BatchPreloads,
  { receipts, sessions }: ReceiptsAndSessions,
  deps: GroupBatchDependencies,
  nowMillis: number,
  phases: BatchPhases | undefined,
): Promise<BatchPlan> {
  // The Groups decisions read and append to: the Commands' own and their ancestors (§12).
  const named = new Set([...items.map((c) => c.envelope.groupId as string), ...[...ancestries.values()].flatMap((a) => a.groupIds)]);
  const lastSequences = new Map([...locked].filter(([groupId]) => named.has(groupId)));
  // Actors' epochs are checked; appointed Coordinators' epochs go into their lease.
  const { created, missions: referenced, messagesByGroup, histories: historyRequests, contents: contentHashes, profiles } = preloads;
  const taken = created.length === 0 ? { groups: new Set<string>(), missions: new Set<string>() } : await findTakenIds(client, created.map((c) => c.groupId), created.map((c) => c.missionId));
  const missions = new Map<string, MissionFacts>();
  for (const row of await readMissionDocuments(client, referenced)) {
    const facts = missionFactsOf(row.groupId, row.document);
    if (facts !== undefined) missions.set(facts.missionId, facts);
  }
  const states = new Map<string, GroupState>();
  for (const [groupId, last] of lastSequences) {
    // A locked Group's tree is known: the lock statement named it.
    states.set(groupId, await deps.states.load(client, groupId, trees.get(groupId) ?? groupId, last, messagesByGroup.get(groupId) ?? []));
  }
  // A replacement Coordinator's assignments wait for its Context Package, where packages are issued (§7.2).
  const coordinatorPackages = deps.settings.contextGenerator === undefined ? undefined : await readCoordinatorContexts(client, deps.kinds, items, states, trees);
  const histories = new Map<string, GroupHistory>();
  for (const [groupId, entryIds] of historyRequests) {
    if (lastSequences.has(groupId)) histories.set(groupId, await readGroupHistory(client, groupId, entryIds));
  }
  const snapshot = deps.registry.current;
  const embeddedHashes = items.flatMap((c) => (c.embedded ?? []).map((e) => e.signingHash));
  // Who holds each content, for the Agents of the batch (§13.3 possession).
  const contents = await readStoredContents(client, deps.settings.services.organizationId, contentHashes, preloads.agents, DEFAULT_ARTIFACT_LIMITS.maxPublishingGroupsChecked);
  const profileMajors = profiles.length === 0 ? new Map<string, number[]>() : await readRegisteredMajors(client, profiles);
  const embeddedRecords = await readEmbeddedAdmissions(client, deps.settings.services.organizationId, embeddedHashes);
  const takenGroups = new Set([...taken.groups]);
  for (const missionId of taken.missions) {
    // A Mission ID in use makes its creation fail like a Group ID in use.
    for (const c of created) if (c.missionId === missionId) takenGroups.add(c.groupId);
  }
  if (phases !== undefined) phases.planned = performance.now();
  return planGroupBatch(items, {
    nowMillis,
    lastSequences,
    states,
    receipts,
    sessions,
    takenGroups,
    missions,
    ancestries,
    embeddedRecords,
    histories,
    contents,
    profileMajors,
    ...(coordinatorPackages === undefined ? {} : { coordinatorPackages }),
    agent: (agentId) => {
      const facts = snapshot.agents.get(agentId);
      const sessionEpoch = sessions.get(agentId);
      return facts === undefined || sessionEpoch === undefined ? facts : { ...facts, sessionEpoch };
    },
  }, deps.settings, deps.kinds, deps.evidence !== undefined);
}

/**
 * Appends the batch and commits. In the common case — no Group created, no grant to log, no
 * embedded document to admit, no redaction to render, no duplicate to answer — the append and
 * COMMIT are one round trip: the statement's success is its whole check (`appendBatchStatement`).
 * Otherwise each step runs and is checked in turn, and COMMIT follows on its own.
 */
async function writeAndCommit(tx: PipelinedTransaction, batch: BatchPlan, trees: Map<string, string>, onCitus: boolean, deps: GroupBatchDependencies): Promise<Map<string, string>> {
  const client = tx.client;
  // A root Mission's Group is its own tree; a child's is in its parent's.
  const newGroups = batch.newGroups.map((g) => ({ ...g, treeId: (g.parentGroupId === null ? undefined : trees.get(g.parentGroupId)) ?? g.groupId }));
  for (const g of newGroups) trees.set(g.groupId, g.treeId);
  const created = await insertGroups(client, newGroups);
  if (created.size !== batch.newGroups.length) throw new BatchConflict('a Group ID or Mission ID was taken concurrently');
  const stored = batch.outcomes.flatMap((o) => (o.ok === 'stored' ? o.eventIds : []));
  if (batch.receipts.length === 0) return readStoredEvents(client, trees, stored);
  const aggregates: AggregateWrite[] = [];
  for (const [groupId, state] of batch.after) {
    const before = batch.before.get(groupId);
    if (before === undefined) continue;
    for (const row of changedAggregates(deps.kinds, before, state)) aggregates.push({ groupId, ...row, sequence: state.lastSequence });
  }
  const advanced = new Map([...batch.lastSequences].filter(([groupId]) => batch.before.has(groupId)));
  const write = {
    events: batch.events,
    aggregates,
    receipts: batch.receipts,
    sequences: advanced,
    trees,
    notify: advanced.size === 0 ? undefined : { channel: EVENTS_CHANNEL, payload: eventsHint(advanced) },
  };
  // On Citus, one routed statement per tree and table (appendRouted.ts); else the one statement.
  const append = onCitus ? appendRoutedStatements(write) : [appendBatchStatement(write)];
  // Grant issuance and consumption go to the Policy Log with their Events, in this transaction (§20).
  const policyRows = cooperationPolicyLogRows(batch.events);
  const redacts = rendersRedactions(batch.events);
  if (policyRows.length === 0 && batch.admissions.length === 0 && !redacts && stored.length === 0) {
    await tx.commitWith(append);
    return new Map();
  }
  await tx.run(append);
  await insertPolicyLogRows(client, policyRows);
  // Append-or-return-existing: a record another transaction appended first is found on the re-run.
  if ((await insertEmbeddedAdmissions(client, deps.settings.services.organizationId, batch.admissions)) !== batch.admissions.length) {
    throw new BatchConflict('an embedded document was admitted concurrently');
  }
  await renderRedactions(client, batch.events, deps.settings.authorityKey);
  return readStoredEvents(client, trees, stored);
}

/**
 * The Events of duplicates (`stored` outcomes): each lies in its Command's Group's tree, one of
 * the batch's, so the read names those trees (on Citus, their shards alone); any not found there
 * are looked for everywhere.
 */
async function readStoredEvents(client: PoolClient, trees: ReadonlyMap<string, string>, eventIds: readonly string[]): Promise<Map<string, string>> {
  if (eventIds.length === 0) return new Map();
  const found = await readTreeEventsById(client, [...trees.values()], eventIds);
  const missing = eventIds.filter((id) => !found.has(id));
  if (missing.length > 0) for (const [id, text] of await readEventsById(client, missing)) found.set(id, text);
  return found;
}

/** Signs the batch's Events (on the crypto workers when there are any) and fills them in. */
async function signPending(pending: BatchPlan['pending'], deps: GroupBatchDependencies): Promise<void> {
  if (pending.length === 0) return;
  const documents = pending.map((p) => p.document as JsonObject);
  const { texts, hashes } = deps.crypto === undefined ? signEventDocuments(documents, deps.settings.authorityKey) : await deps.crypto.sign(documents);
  pending.forEach((p, i) => {
    p.row.document = texts[i] as string;
    p.row.signingHash = hashes[i] as string;
    p.delivered.text = texts[i] as string;
  });
}

/**
 * Runs one batch in one transaction; throws `BatchConflict` when it must be re-run. With
 * `phases` (tracing on), notes when each phase ended.
 */
export async function runGroupBatch(items: readonly VerifiedCommand[], deps: GroupBatchDependencies, phases?: BatchPhases): Promise<CommandOutcome[]> {
  const nowMillis = deps.clock.nowMillis();
  // Ancestries are fixed once a Group exists, so they are read before the transaction (ancestorGroups.ts).
  const ancestries = await ancestriesOf(deps.pool, deps.ancestry, deps.kinds, items);
  // What the decisions read is known from the Commands alone, so it is named before the locks.
  const preloads = batchPreloads(deps.kinds, items);
  const ancestors = [...ancestries.values()].flatMap((a) => a.groupIds);
  const groupIds = [...new Set([...items.flatMap((c) => lockedGroupsOf(deps.kinds, c)), ...ancestors])].sort();
  const onCitus = await deps.trees.onCitus(deps.pool);
  const keys = items.map(receiptKeyOf);
  const single = onCitus ? undefined : receiptsAndSessionsStatement(keys, preloads.agents);
  const reads = onCitus ? routedReadStatements(keys, preloads.agents) : single === undefined ? [] : [single];
  const trees = await deps.trees.of(deps.pool, groupIds);
  const byTree = new Map<string, string[]>();
  for (const groupId of groupIds) {
    const tree = trees.get(groupId);
    if (tree !== undefined) byTree.set(tree, [...(byTree.get(tree) ?? []), groupId]);
  }
  // On Citus, fenced on the coordinator as well (batchReads.ts): the trees locked, and those of
  // Groups not created yet (a new root's tree is itself; a new child's is its parent's, locked).
  const fenced = [...byTree.keys(), ...groupIds.filter((g) => !trees.has(g))];
  const locks = lockGroupsStatements(byTree, deps.settings.services.organizationId, onCitus, fenced);
  const { outcomes, states, evidence } = await inPipelinedTransaction(deps.pool, async (tx) => {
    // BEGIN, the locks (every Group any item names, and the ancestors of those that charge
    // budgets, in one order) and the reads under them, in one round trip.
    const results = (await tx.run([...locks, ...reads])) as pg.QueryResult[];
    const locked = parseLockedGroups(results.slice(0, locks.length));
    const readResults = results.slice(locks.length);
    const readRows = onCitus ? parseRoutedReads(readResults) : parseReceiptsAndSessions(readResults[0]);
    await deps.registry.ensure(tx.client, locked.registryRevision);
    const checked = reverify(items, deps);
    const batch = await plan(tx.client, checked.filter((c): c is VerifiedCommand => 'envelope' in c), locked.lastSequences, ancestries, trees, preloads, readRows, deps, nowMillis, phases);
    if (phases !== undefined) phases.decided = performance.now();
    await signPending(batch.pending, deps);
    const texts = await writeAndCommit(tx, batch, new Map(trees), onCitus, deps);
    if (phases !== undefined) phases.appended = performance.now();
    let next = 0;
    const all = checked.map((c): CommandOutcome => {
      if (!('envelope' in c)) return c;
      const outcome = batch.outcomes[next++] as BatchPlan['outcomes'][number];
      if (outcome.ok !== 'stored') return outcome;
      return { ok: true, duplicate: true, events: outcome.eventIds.map((id) => deliveredFromText(texts.get(id) ?? '{}')) };
    });
    return { outcomes: all, states: batch.after, evidence: batch.evidence };
  });
  if (phases !== undefined) phases.committed = performance.now();
  deps.states.commit(states);
  for (const fact of evidence ?? []) deps.evidence?.record(fact);
  return outcomes;
}
