/**
 * Issues one Context Package (§13.3) to a recipient the reactor's sweep found owed one: a late
 * joiner or provisional member at its current Membership Epoch (§8), or a replacement
 * Coordinator at its Coordinator Epoch (§7.2). Reads the Group's state and newest Events in one
 * snapshot, builds the package for the recipient's view (src/domain/context/), signs it with the
 * key of the Organization's context generator Agent (`contextGenerator.ts`: the published schema
 * makes an Agent the `generatedBy`), and stores it for the recipient to read over HTTPS.
 *
 * Safe on every node at once and twice over: the store keeps one package per cause (its unique
 * key), so concurrent issuers store one and the others find it there. Package IDs are fresh, not
 * derived from the cause: an ID anyone can compute could be claimed first by a provisional
 * grant naming it, and would then block the package it belongs to. A recipient whose Membership or Coordinator Epoch moved on
 * since the sweep looked is skipped; the next sweep finds it at its new epoch.
 */

import { randomUUID } from 'node:crypto';
import { buildContextPackage } from '../../domain/context/buildContextPackage.js';
import { sourceEventOf } from '../../domain/context/contextFacts.js';
import { MAX_SOURCE_EVENTS } from '../../domain/context/contextLimits.js';
import { contextViewOf, scopeKey, type ContextScope, type ContextView } from '../../domain/context/contextScope.js';
import type { KindRegistry } from '../../domain/kinds/kindRegistry.js';
import type { GroupState } from '../../domain/kinds/groupState.js';
import { sha256ContentHash } from '../../protocol/contentHash.js';
import { canonicalize } from '../../protocol/jcs.js';
import { principalKey, type Principal } from '../../protocol/principal.js';
import { signDocument } from '../../protocol/signing/signDocument.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import { checkOut, type Pool } from '../../store/pool.js';
import { readGroupAggregates } from '../../store/sql/aggregates.js';
import {
  contextPackageIdTaken,
  insertContextPackage,
  readLatestContextPackage,
  type DueContextRecipient,
} from '../../store/sql/contextPackages.js';
import { readEventsAfter, type StoredEventText } from '../../store/sql/events.js';
import type { ContextGenerator } from '../settings.js';

export type IssueOutcome = 'issued' | 'duplicate' | 'skipped';

/** What the recipient may draw on, if it still holds the epoch that made it due. */
function viewFor(state: GroupState, due: DueContextRecipient): ContextView | undefined {
  if (due.cause === 'coordinator') {
    const { coordinator } = state.mission;
    const current = coordinator.coordinatorEpoch === due.causeEpoch && due.recipient.type === 'agent' && coordinator.agentId === due.recipient.id;
    // The Coordinator's Membership has complete visibility (§8).
    return current ? { firstSequence: 1, currentContent: true } : undefined;
  }
  const membership = state.memberships.get(principalKey(due.recipient as Principal));
  if (membership === undefined || membership.membershipEpoch !== due.causeEpoch) return undefined;
  return contextViewOf(membership);
}

interface GroupRead {
  readonly state: GroupState;
  readonly events: readonly StoredEventText[];
}

/** The Group's state and its newest Events the view allows, from one snapshot of the store. */
async function readGroup(pool: Pool, kinds: KindRegistry, groupId: string, firstSequence: (state: GroupState) => number | undefined): Promise<GroupRead | undefined> {
  const { client, release } = await checkOut(pool);
  try {
    await client.query('begin isolation level repeatable read read only');
    const head = await client.query<{ last_sequence: number }>('select last_sequence from groups where group_id = $1', [groupId]);
    const last = head.rows[0]?.last_sequence;
    if (last === undefined) {
      await client.query('commit');
      return undefined;
    }
    const state = kinds.decodeState(groupId, Number(last), await readGroupAggregates(client, groupId));
    const first = firstSequence(state);
    const after = first === undefined ? undefined : Math.max(first - 1, state.lastSequence - MAX_SOURCE_EVENTS);
    const events = after === undefined ? [] : await readEventsAfter(client, groupId, after, MAX_SOURCE_EVENTS);
    await client.query('commit');
    return { state, events };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    release();
  }
}

export async function issueContextPackage(pool: Pool, kinds: KindRegistry, due: DueContextRecipient, generator: ContextGenerator, nowMillis: number): Promise<IssueOutcome> {
  const read = await readGroup(pool, kinds, due.groupId, (state) => viewFor(state, due)?.firstSequence);
  const view = read === undefined ? undefined : viewFor(read.state, due);
  if (read === undefined || view === undefined) return 'skipped';
  const { state } = read;
  const scope: ContextScope = { missionId: state.mission.missionId };
  const key = scopeKey(scope);
  const previous = await readLatestContextPackage(pool, due.groupId, due.recipient, key);
  // A provisional grant names its package (§8): that name is the package's own unless already used.
  const named = due.namedPackageId !== undefined && !(await contextPackageIdTaken(pool, due.namedPackageId)) ? due.namedPackageId : undefined;
  const contextPackageId = named ?? `urn:uuid:${randomUUID()}`;
  const generatedAt = new Date(nowMillis).toISOString();
  const built = buildContextPackage({
    state,
    events: read.events.map((e) => sourceEventOf(Number(e.sequence), e.eventId, e.kind, JSON.parse(e.document) as JsonObject)),
    view,
    scope,
    ...(previous === undefined ? {} : { previous }),
    contextPackageId,
    generatedBy: generator.principal,
    generatedAt,
  });
  if (!built.ok) return 'skipped';
  const signed = signDocument('context-package', built.unsigned, generator.key);
  const document = canonicalize(signed);
  const stored = await insertContextPackage(pool, {
    contextPackageId,
    groupId: due.groupId,
    recipient: due.recipient,
    scopeKey: key,
    version: built.unsigned['version'] as number,
    cause: due.cause,
    causeEpoch: due.causeEpoch,
    packageHash: sha256ContentHash(document),
    document,
    createdAt: generatedAt,
  });
  return stored ? 'issued' : 'duplicate';
}
