/**
 * The vocabulary shared by every decider: the verified Command a decider judges, what the
 * Group Authority tells it about the world (time, new identifiers, registry facts), the Event
 * drafts it returns, and the error it returns instead of throwing.
 *
 * Protocol objects inside state and Event payloads are the normative documents of
 * `schemas/` (Mission, Group, Membership, Conversation, Message, Lease, WorkItem); they are
 * typed loosely here as JSON objects and built by the per-aggregate modules.
 */

import type { ErrorCode } from '../protocol/errorCodes.js';
import type { Principal } from '../protocol/principal.js';
import type { JsonObject } from '../protocol/strictJson.js';
import type { Extensions, MissionWeaveCommand, Signature } from '../protocol/schemas/wireTypes.js';

/**
 * The members of the wire Command (`command.schema.json`, generated into `wireTypes.ts`) that
 * a decider reads, all of them but two: `protocolVersion`, which intake checked and the domain
 * never branches on, and `signature`, which is optional here (below).
 */
type DecidedCommandMembers = Omit<MissionWeaveCommand, 'protocolVersion' | 'signature' | 'extensions'>;

/**
 * A Command that passed parsing, schemas and signature verification: the wire Command, read
 * only, so a member the schema adds or retypes reaches the deciders without an edit here.
 */
export type CommandEnvelope = Readonly<DecidedCommandMembers> & {
  /**
   * Extension data by profile URI (§18). Only the critical extensions this Authority interprets
   * reach a decider; others were refused (critical) or are relayed unread (noncritical).
   */
  readonly extensions?: Readonly<Record<string, Readonly<Extensions[string]>>>;
  /**
   * The Command's own verified signature envelope. Every verified Command has one; it is optional
   * only so that Commands built in process compile. `mission.approve` without an embedded signed
   * Approval records it as the Approval's signature.
   */
  readonly signature?: CommandSignature;
};

/** A Command's Ed25519 signature envelope (`common#/$defs/signature`). */
export type CommandSignature = Readonly<Signature>;

/** What the Organization knows about an Agent, from its latest registered Agent Card. */
export interface AgentFacts {
  readonly agentId: string;
  readonly cardVersion: number;
  readonly status: 'active' | 'deprecated' | 'revoked';
  /** The card's `displayName`: how people name the Agent (the console's pickers and labels); deciders never read it. */
  readonly displayName?: string;
  /** Capability id → versions the card declares. */
  readonly capabilities: ReadonlyMap<string, readonly string[]>;
  /**
   * The Agent's current Session Epoch; absent when it never opened a session. A Coordinator lease
   * granted to an Agent records it (the first session it will open, 1, when absent).
   */
  readonly sessionEpoch?: number;
}

/** A read-only summary of a Mission in another Group (for follow-up and child links). */
export interface MissionFacts {
  readonly missionId: string;
  readonly groupId: string;
  readonly state: string;
  readonly missionOwner: Principal;
  /** The parent link of a child Mission (§14). */
  readonly parent?: { readonly missionId: string; readonly workItemId: string };
  /** An approved Mission's Approval: what its parent WorkItem takes as Evidence (§14). */
  readonly approval?: { readonly approvalId: string; readonly artifactHashes: readonly string[] };
  /** Why a cancelled or failed Mission ended. */
  readonly closureReason?: string;
}

/**
 * Artifact content the Artifact store holds completely (§13.1: content lives outside the Event
 * log), as far as a decision needs it: `artifact.publish` admits a manifest only for content
 * already stored whole, with the size the manifest states, from a publisher that holds it (§13.3).
 */
export interface StoredContentFacts {
  readonly contentHash: string;
  readonly sizeBytes: number;
  /** The Agents of the batch that uploaded these bytes themselves, and so hold them. None when absent. */
  readonly heldBy?: ReadonlySet<string>;
  /** Publications of the content whose publisher held it, in Groups where an Agent of the batch has a Membership (a bounded few). */
  readonly publications?: readonly ContentPublicationFacts[];
}

/** A Group's publication of a stored content, with the Memberships there that the read rule judges. */
export interface ContentPublicationFacts {
  readonly groupId: string;
  /** The `artifact.published` Event and its Group sequence. */
  readonly eventId: string;
  readonly publishedSequence: number;
  readonly classification: string;
  /** The Memberships in that Group of the batch's Agents, by Agent ID. */
  readonly memberships: ReadonlyMap<string, { readonly state: string; readonly visibilityStartSequence: number }>;
}

/** Services the Organization authorizes, by the role they play. */
export interface OrganizationServices {
  readonly organizationId: string;
  /** Issues Agent Cards and registers keys. */
  readonly registry: Principal;
  /** The Group Authority: signs Events, opens sessions, applies Organization policy. */
  readonly authority: Principal;
}

/** Everything outside the Command a decision may depend on. Pure data. */
export interface DecisionContext {
  /** The trusted acceptance time, as UTC `Z` text (millisecond precision). */
  readonly now: string;
  /** The same instant in milliseconds since the epoch. */
  readonly nowMillis: number;
  /** Fresh identifiers, handed out in call order (the app supplies URNs). */
  readonly newId: () => string;
  readonly agent: (agentId: string) => AgentFacts | undefined;
  /** Missions of other Groups the Command refers to (follow-up source, child parent). */
  readonly mission: (missionId: string) => MissionFacts | undefined;
  /** Whether a Group ID is already taken (creation Commands must name a fresh one). */
  readonly groupExists: (groupId: string) => boolean;
  readonly services: OrganizationServices;
  /**
   * The Group states of the Command's Mission ancestry, nearest parent Group first, for kinds
   * whose entry declares `ancestry: true` (a budget charge updates every ancestor, §12); the app
   * locks and loads them in the same transaction. Absent or empty for a root Mission and for
   * every other kind. Each is a `GroupState`, typed by its Group ID only here (this module
   * cannot import the Group state's): read them with `ancestorsOf(ctx)` (`workItem/ledger.ts`).
   */
  readonly ancestors?: readonly { readonly groupId: string }[];
  /**
   * The stored history of a Group, for kinds whose entry preloads it (`preload.history`): what a
   * signed Group Snapshot must match before it archives the Group (§7.4, §15.2). Absent for every
   * other kind, and for a Group the app did not load.
   */
  readonly groupHistory?: (groupId: string) => GroupHistory | undefined;
  /**
   * Completely stored Artifact content, for the hashes the kind's `preload.contents` names (the
   * app reads them in the same transaction). Absent, or `undefined` for a hash, when none is
   * stored: a decision then treats the content as missing.
   */
  readonly storedContent?: (contentHash: string) => StoredContentFacts | undefined;
  /**
   * The major versions of an Extension Profile the Organization registered (§18), for the URIs
   * the kind's `preload.profiles` names; empty when none is registered. A Group pins only these.
   */
  readonly registeredMajors?: (profileUri: string) => readonly number[];
  // `cooperationLimits`, the Organization's limits (§20), is declared by the policy module
  // (`policy/cooperationLimits.ts`), which augments this interface.
  /**
   * Whether the Context Package owed to the Coordinator of the Command's Group at this Coordinator
   * Epoch is stored (§7.2, §13.3), for kinds that assign work (`assigns`); absent where the
   * Organization issues no packages (no context generator), and then nothing waits for one.
   */
  readonly coordinatorPackageStored?: (coordinatorEpoch: number) => boolean;
}

/** A Group's stored history at the sequence its state was loaded at (§7.4). */
export interface GroupHistory {
  readonly groupId: string;
  /** Every Event ID of the Group, in sequence order. */
  readonly eventIds: readonly string[];
  /** The trusted acceptance time of the last Event. */
  readonly lastOccurredAt: string;
  /** `sha256:` of the JCS text of the Group's stored aggregates, sorted by type and ID. */
  readonly stateHash: string;
  /** The Policy Log records of this Group a snapshot cites, entry ID → §19 code. */
  readonly policyLog: ReadonlyMap<string, string>;
}

/**
 * One Event a decision wants appended, tagged by kind: `K` and `P` come from the Event type the
 * Command kind declares (`src/domain/kinds`), so a decider cannot emit an undeclared kind or a
 * payload of the wrong shape. The app adds identity, order and signature.
 */
export interface EventDraft<K extends string = string, P = unknown> {
  readonly kind: K;
  readonly payload: P;
  /** The aggregate the Event changed and the revision it produced. */
  readonly aggregate: { readonly type: AggregateType; readonly id: string; readonly revision: number };
  readonly conversationId?: string;
  readonly workItemId?: string;
  /** A Group other than the Command's (a child Mission's `mission.created`). */
  readonly groupId?: string;
  /**
   * An Event ID the decision already took from `ctx.newId()` because another Event of the same
   * decision names it (a child `mission.created` carries its `parentEventId`); the app uses it
   * instead of allocating one.
   */
  readonly eventId?: string;
}

export type AggregateType =
  | 'mission'
  | 'coordinator-lease'
  | 'membership'
  | 'conversation'
  | 'work-item'
  /** A Work Proposal (§10.2) and a Delegation Grant (§9.1): Group state rows of their own. */
  | 'work-proposal'
  | 'delegation-grant'
  | 'organization'
  /** An Extension Profile's slice of Group state (§18). */
  | 'extension'
  /** A published Artifact's manifest, by content hash (§13.1). */
  | 'artifact'
  /** The Group document itself: archival changes it (§7.4). */
  | 'group'
  /** A Cooperation Override Grant (§20). */
  | 'cooperation-override-grant';

/** A refused transition: the §19 code and a reason that may be shown to the actor. */
export interface DomainError {
  readonly code: ErrorCode;
  readonly reason: string;
  readonly message: string;
  readonly details?: JsonObject;
}

export type Decision<D extends EventDraft = EventDraft> =
  | { readonly ok: true; readonly events: readonly D[] }
  | { readonly ok: false; readonly error: DomainError };

/** A refusal fits every decision type. */
export type Refusal = { readonly ok: false; readonly error: DomainError };

export function refuse(code: ErrorCode, reason: string, message: string, details?: JsonObject): Refusal {
  return details === undefined
    ? { ok: false, error: { code, reason, message } }
    : { ok: false, error: { code, reason, message, details } };
}

export function accept<const D extends EventDraft>(...events: D[]): Decision<D> {
  return { ok: true, events };
}

/** What an Event's evolve may read besides its payload: what the Group Authority assigned. */
export interface EventMeta {
  readonly actor: Principal;
  readonly occurredAt: string;
  readonly sequence: number;
  readonly eventId: string;
}

/** An appended Event as evolve sees it: the draft plus what the Group Authority assigned. */
export interface RecordedEvent {
  readonly kind: string;
  readonly payload: JsonObject;
  readonly actor: Principal;
  readonly occurredAt: string;
  /** Group sequence; absent for Organization-scoped Events. */
  readonly sequence?: number;
  readonly eventId: string;
}
