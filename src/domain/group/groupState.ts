/**
 * The state one Group's decider judges Commands against: the normative documents of its Mission,
 * Group, current Coordinator lease, Memberships, Conversations, WorkItems, and the Messages a
 * Command refers to.
 *
 * `messages` is a partial view. A Group's Messages grow without bound and a Command touches at
 * most two (the one it posts or amends and the amendment's own ID), so the app loads only those
 * its kind's entry preloads; evolve adds the ones an Event posts or amends.
 */

import { principalKey } from '../../protocol/principal.js';
import type { JsonObject, JsonValue } from '../../protocol/strictJson.js';
import {
  fromJson,
  toJson,
  type Approval,
  type Conversation,
  type Group,
  type Lease,
  type Membership,
  type Message,
  type Mission,
  type WorkItem,
} from '../documents.js';
import type { DelegationGrant, WorkProposal } from '../workItem/workItemDocuments.js';
import type { PublishedArtifact } from '../artifact/artifactDocuments.js';
import { grantRevision, type CooperationOverrideGrant } from '../policy/overrideGrants.js';
import type { RateWindow } from '../policy/rateWindows.js';

/** What the protocol keeps about a Mission outside its normative document. */
export interface MissionNotes {
  readonly title: string;
  /** Operations the Mission may authorize; a child's are a subset (§14). */
  readonly permissions: readonly string[];
  /** The revision and Artifact set awaiting approval (§7.3); cleared by a change request. */
  readonly submission?: {
    readonly missionRevision: number;
    readonly artifactHashes: readonly string[];
    readonly submittedAt: string;
  };
  readonly approval?: Approval;
  /** Why a cancelled or failed Mission ended: a parent reads it as the child's failure (§14). */
  readonly closureReason?: string;
}

/** A Message or amendment and where its own history stands. */
export interface MessageFacts {
  readonly message: Message;
  readonly status: MessageStatus;
}

/** Forward-only: a retracted Message is never corrected again, a redacted one never changes. */
export const MESSAGE_STATUSES = ['posted', 'corrected', 'retracted', 'redacted'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** An Extension Profile's slice of Group state and how many of its profile's Events it has folded (§18). */
export interface ExtensionSlice {
  readonly revision: number;
  readonly state: unknown;
}

/** One Group's state; `toAggregates` / `fromAggregates` persist it. */
export interface GroupState {
  readonly groupId: string;
  /** The sequence of the last Event folded in. */
  readonly lastSequence: number;
  readonly group: Group;
  readonly mission: Mission;
  readonly missionNotes: MissionNotes;
  /** The current Coordinator lease (`leaseType: coordinator`). */
  readonly coordinatorLease: Lease;
  /**
   * The closed leases of earlier Coordinator Epochs, by lease ID: one per replacement. Kept so
   * that their stored rows say they are closed rather than staying `active` forever.
   */
  readonly formerCoordinatorLeases: ReadonlyMap<string, Lease>;
  /** By `principalKey(member)`: one Membership per Principal. */
  readonly memberships: ReadonlyMap<string, Membership>;
  readonly conversations: ReadonlyMap<string, Conversation>;
  readonly messages: ReadonlyMap<string, MessageFacts>;
  readonly workItems: ReadonlyMap<string, WorkItem>;
  /** Work Proposals by ID (§10.2): open ones and those a `work.authorize` took up. */
  readonly proposals: ReadonlyMap<string, WorkProposal>;
  /** Delegation Grants by Grant ID (§9.1); validity is judged at each use, not stored. */
  readonly delegationGrants: ReadonlyMap<string, DelegationGrant>;
  /** Extension Profiles' slices of Group state, by profile URI (§18). */
  readonly extensions: ReadonlyMap<string, ExtensionSlice>;
  /** Artifacts published in this Group, by content hash (§13.1). */
  readonly artifacts: ReadonlyMap<string, PublishedArtifact>;
  /** Cooperation Override Grants by grant ID (§20), consumed and lapsed ones included. */
  readonly cooperationGrants: ReadonlyMap<string, CooperationOverrideGrant>;
  /**
   * Recent rate-counted Events per actor and policy (§20), derived and never stored as rows: see
   * `policy/rateWindows.ts`. Empty after a load from rows.
   */
  readonly rateWindows: ReadonlyMap<string, RateWindow>;
}

/** A copy of `map` with `key` set: evolve never mutates the state it was given. */
export function withEntry<V>(map: ReadonlyMap<string, V>, key: string, value: V): ReadonlyMap<string, V> {
  const next = new Map(map);
  next.set(key, value);
  return next;
}

// ---- Persistence: one row per aggregate ----------------------------------------------------

export type AggregateRowType =
  | 'group'
  | 'mission'
  | 'coordinator-lease'
  | 'membership'
  | 'conversation'
  | 'message'
  | 'work-item'
  | 'work-proposal'
  | 'delegation-grant'
  | 'extension'
  | 'artifact'
  | 'cooperation-override-grant';

export interface AggregateRow {
  readonly type: AggregateRowType;
  readonly id: string;
  readonly revision: number;
  readonly document: JsonObject;
}

/** A row as the store hands it back: the same members, typed no narrower than JSON. */
export interface StoredAggregateRow {
  readonly type: string;
  readonly id: string;
  readonly revision: number;
  readonly document: JsonValue;
}

/** A lease starts at revision 1 and each renewal adds one (docs/transitions.md). */
export function leaseRevision(lease: Lease): number {
  return lease.renewalCount + 1;
}

/**
 * A Group document is written at creation (1) and changed once more, by archival, whose two
 * Events take revisions 2 (`group.snapshot.created`) and 3 (`group.archived`, docs/transitions.md).
 */
export function groupRevision(group: Group): number {
  return group.state === 'archived' ? 3 : 1;
}

/** A Message changes only by its status, which moves forward; the row revision follows it. */
function messageRevision(facts: MessageFacts): number {
  return MESSAGE_STATUSES.indexOf(facts.status) + 1;
}

/** Every aggregate of `state`, with the document the store keeps for it. */
/**
 * The stored `{ mission, notes }` document, the same object while neither part changed: states
 * are immutable, so `changedAggregates` compares rows by identity first and serializes only
 * rows whose object changed (the other rows are the state's own objects already).
 */
const missionDocuments = new WeakMap<Mission, { readonly notes: MissionNotes; readonly document: JsonObject }>();
function missionDocument(mission: Mission, notes: MissionNotes): JsonObject {
  const known = missionDocuments.get(mission);
  if (known !== undefined && known.notes === notes) return known.document;
  const document = toJson({ mission, notes });
  missionDocuments.set(mission, { notes, document });
  return document;
}

export function toAggregates(state: GroupState): AggregateRow[] {
  const rows: AggregateRow[] = [
    { type: 'group', id: state.group.groupId, revision: groupRevision(state.group), document: toJson(state.group) },
    {
      type: 'mission',
      id: state.mission.missionId,
      revision: state.mission.revision,
      document: missionDocument(state.mission, state.missionNotes),
    },
    {
      type: 'coordinator-lease',
      id: state.coordinatorLease.leaseId,
      revision: leaseRevision(state.coordinatorLease),
      document: toJson(state.coordinatorLease),
    },
  ];
  for (const lease of state.formerCoordinatorLeases.values()) {
    rows.push({ type: 'coordinator-lease', id: lease.leaseId, revision: leaseRevision(lease), document: toJson(lease) });
  }
  for (const m of state.memberships.values()) {
    rows.push({ type: 'membership', id: m.membershipId, revision: m.membershipEpoch, document: toJson(m) });
  }
  for (const c of state.conversations.values()) {
    rows.push({ type: 'conversation', id: c.conversationId, revision: c.revision, document: toJson(c) });
  }
  for (const f of state.messages.values()) {
    rows.push({ type: 'message', id: f.message.messageId, revision: messageRevision(f), document: toJson(f) });
  }
  for (const w of state.workItems.values()) {
    rows.push({ type: 'work-item', id: w.workItemId, revision: w.revision, document: toJson(w) });
  }
  for (const p of state.proposals.values()) {
    rows.push({ type: 'work-proposal', id: p.proposalId, revision: p.revision, document: toJson(p) });
  }
  for (const g of state.delegationGrants.values()) {
    rows.push({ type: 'delegation-grant', id: g.grantId, revision: g.revision, document: toJson(g) });
  }
  for (const [uri, slice] of state.extensions) {
    rows.push({ type: 'extension', id: uri, revision: slice.revision, document: toJson(slice) });
  }
  for (const a of state.artifacts.values()) {
    rows.push({ type: 'artifact', id: a.contentHash, revision: a.revision, document: toJson(a) });
  }
  for (const g of state.cooperationGrants.values()) {
    rows.push({ type: 'cooperation-override-grant', id: g.id, revision: grantRevision(g), document: toJson(g) });
  }
  return rows;
}

/**
 * Rebuilds a Group's state from its rows (`messages` holds whichever Message rows were loaded).
 * Throws when the rows cannot be one Group's state: that is corrupt storage, not a refusal.
 */
export function fromAggregates(groupId: string, lastSequence: number, rows: readonly StoredAggregateRow[]): GroupState {
  let group: Group | undefined;
  let missionRow: { mission: Mission; notes: MissionNotes } | undefined;
  const leases: Lease[] = [];
  const memberships = new Map<string, Membership>();
  const conversations = new Map<string, Conversation>();
  const messages = new Map<string, MessageFacts>();
  const workItems = new Map<string, WorkItem>();
  const proposals = new Map<string, WorkProposal>();
  const delegationGrants = new Map<string, DelegationGrant>();
  const extensions = new Map<string, ExtensionSlice>();
  const artifacts = new Map<string, PublishedArtifact>();
  const cooperationGrants = new Map<string, CooperationOverrideGrant>();
  for (const row of rows) {
    const type = row.type as AggregateRowType;
    switch (type) {
      case 'group':
        group = fromJson<Group>(row.document);
        break;
      case 'mission':
        missionRow = fromJson<{ mission: Mission; notes: MissionNotes }>(row.document);
        break;
      case 'coordinator-lease':
        leases.push(fromJson<Lease>(row.document));
        break;
      case 'membership': {
        const membership = fromJson<Membership>(row.document);
        memberships.set(principalKey(membership.member), membership);
        break;
      }
      case 'conversation':
        conversations.set(row.id, fromJson<Conversation>(row.document));
        break;
      case 'message':
        messages.set(row.id, fromJson<MessageFacts>(row.document));
        break;
      case 'work-item':
        workItems.set(row.id, fromJson<WorkItem>(row.document));
        break;
      case 'work-proposal':
        proposals.set(row.id, fromJson<WorkProposal>(row.document));
        break;
      case 'delegation-grant':
        delegationGrants.set(row.id, fromJson<DelegationGrant>(row.document));
        break;
      case 'extension':
        extensions.set(row.id, fromJson<ExtensionSlice>(row.document));
        break;
      case 'artifact':
        artifacts.set(row.id, fromJson<PublishedArtifact>(row.document));
        break;
      case 'cooperation-override-grant':
        cooperationGrants.set(row.id, fromJson<CooperationOverrideGrant>(row.document));
        break;
      default: {
        const _exhaustive: never = type;
        throw new Error(`unknown aggregate row type ${String(_exhaustive)}`);
      }
    }
  }
  const currentLeaseId = missionRow?.mission.coordinator.leaseId;
  const coordinatorLease = leases.find((lease) => lease.leaseId === currentLeaseId);
  if (group === undefined || missionRow === undefined || coordinatorLease === undefined) {
    throw new Error(`Group ${groupId}: the group, mission and current coordinator-lease rows are required`);
  }
  if (group.groupId !== groupId) throw new Error(`rows of Group ${group.groupId} loaded as ${groupId}`);
  return {
    groupId,
    lastSequence,
    group,
    mission: missionRow.mission,
    missionNotes: missionRow.notes,
    coordinatorLease,
    formerCoordinatorLeases: new Map(leases.filter((l) => l !== coordinatorLease).map((l) => [l.leaseId, l])),
    memberships,
    conversations,
    messages,
    workItems,
    proposals,
    delegationGrants,
    extensions,
    artifacts,
    cooperationGrants,
    rateWindows: new Map(),
  };
}
