/**
 * What a Command kind is, in one self-describing entry (../shared/STYLE.md, "A Command kind is
 * one module"): its payload type (generated from `schemas/payloads/`), who may send it, what the
 * app preloads and which Groups it locks, the Signed Document it embeds, its decide function, and
 * the Event types it may emit, each with its evolve function. The pipeline, preloader, lock
 * planner, delivery, verifier and fault checker read these entries; nothing else names a kind.
 *
 * Entries are typed end to end: `kind` must be a kind of `schemas/payloads/`, `decide` sees the
 * payload of that kind, may return drafts of the declared Event kinds only, and each `evolve`
 * sees its own Event's payload type.
 */

import type { CommandPayloads } from '../../protocol/schemas/payloadTypes.js';
import type { DocumentKind } from '../../protocol/signing/profiles.js';
import type { MissionState, Principal } from '../documents.js';
import type { GroupState } from './groupState.js';
import type { CommandEnvelope, Decision, DecisionContext, EventDraft, EventMeta } from '../model.js';

/** Every core Command kind, from the payload schemas. */
export type CoreCommandKind = keyof CommandPayloads;

/**
 * Who may send a kind. `creator`: a human founding a Group (no Membership yet). `member`: any
 * active member. `mission-owner`, `coordinator` (the lease holder, under its live lease and
 * current epoch), `organization-authority` (the Group Authority service, the only service that
 * acts in Groups) and `subject` (the Principal the payload names) as docs/transitions.md lists.
 * `delegate`: an Agent citing a Delegation Grant (`payload.delegationGrantId`); the kind's own
 * rules judge the Grant (§9.1), since a role alone conveys no work-authoring authority.
 * `ancestor-owner`: a human MissionOwner of an ancestor Mission (§14, `group/ancestorOwners.ts`),
 * acting under its Membership there; the kind's entry declares `ancestry` so that the app loads
 * the ancestor Groups.
 */
export type Authority = 'creator' | 'member' | 'mission-owner' | 'ancestor-owner' | 'coordinator' | 'organization-authority' | 'subject' | 'delegate';

/** A Command that passed its kind's payload schema, typed by kind. */
export type CommandOf<K extends string, P = K extends CoreCommandKind ? CommandPayloads[K] : never> = Omit<CommandEnvelope, 'kind' | 'payload'> & {
  readonly kind: K;
  readonly payload: P;
};

/**
 * What delivery needs to know of an Event, declared by its type rather than guessed from the
 * payload's shape (§8): whether subscribers re-check their Membership after it, the Agents it is
 * addressed to (they receive it through any attention filter), the Principals it mentions, and
 * whether it is an announcement (it reaches a subscription that asks for announcements).
 */
export interface DeliveryFacts<P> {
  /** Subscribers re-check their Membership after it (§8). */
  readonly changesMembership?: boolean;
  /** Agent IDs the Event is about (an offer's candidates, a lease's holder); absent: none declared. */
  addressees?(payload: P): readonly string[];
  /** Principal IDs the Event's Message mentions; absent: none. */
  mentions?(payload: P): readonly string[];
  /** Whether the Event is an announcement for attention filters (§8: "important announcements"); absent: never. */
  announces?(payload: P): boolean;
}

/** An Event type that changes an existing Group. */
export interface GroupEventType<K extends string, P> extends DeliveryFacts<P> {
  readonly kind: K;
  readonly founds?: false;
  evolve(state: GroupState, payload: P, meta: EventMeta): GroupState;
}

/** An Event type that is the first Event of a Group (sequence 1) and builds its state from nothing. */
export interface FoundingEventType<K extends string, P> extends DeliveryFacts<P> {
  readonly kind: K;
  readonly founds: true;
  found(payload: P, meta: EventMeta): GroupState;
}

export type EventType<K extends string, P> = GroupEventType<K, P> | FoundingEventType<K, P>;

// `any` here erases an Event type's payload for the registry; each entry stays typed where defined.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEventType = EventType<string, any>;

/** The drafts a decider may return for the declared Event types `E`. */
export type DraftOf<E> = E extends EventType<infer K, infer P> ? EventDraft<K, P> : never;

/** Which stored facts the app reads before deciding; every list is bounded by the payload schema. */
export interface Preload<C> {
  /** Messages of the Group the Command refers to (a Group's Messages are loaded on demand). */
  messages?(command: C): readonly (string | undefined)[];
  /** Missions of other Groups the Command refers to. */
  missions?(command: C): readonly (string | undefined)[];
  /** Agents whose current Session Epoch the decision needs besides the actor's. */
  agents?(command: C): readonly (string | undefined)[];
  /**
   * The Group whose stored history the decision compares (`ctx.groupHistory`), with the Policy
   * Log entry IDs it cites: a snapshot is judged against the store it claims to summarize (§7.4).
   * The list is bounded by the payload schema.
   */
  history?(command: C): { readonly groupId: string; readonly policyLogEntryIds: readonly string[] } | undefined;
  /**
   * Artifact content hashes whose stored facts the decision reads (`ctx.storedContent`): the
   * content must be in the Artifact store before its manifest is published (§13.1).
   */
  contents?(command: C): readonly (string | undefined)[];
  /** Extension Profile URIs whose registered major versions the decision reads (`ctx.registeredMajors`, §18). */
  profiles?(command: C): readonly (string | undefined)[];
}

/**
 * A Signed Document inside the payload, verified with the same six stages as the Command; with
 * `many`, the member is an array of them (the Evidence of a submission, §13.2), each element
 * verified alike. The payload schema's `maxItems` bounds the array, and so the verification
 * work one Command can cause.
 */
export interface EmbeddedDocument {
  readonly member: string;
  readonly document: DocumentKind;
  readonly many?: true;
}

/**
 * A kind's example payload, told in the one story of `exampleStory.ts`, with the members its
 * payload schema requires: the payload tests derive their tables from these (each required
 * member's absence is refused, every other member is optional), so no test list names a kind.
 */
// `any` lets a variant reach into the example's nested members; it is a test fixture's change.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PayloadDraft = Record<string, any>;

/** A change to a clone of a kind's example payload, with what it makes of the payload. */
export type PayloadVariant = readonly [label: string, change: (payload: PayloadDraft) => void];

export interface KindExamples {
  /** A payload that passes the kind's payload schema (its nested signatures need not verify). */
  readonly payload: Readonly<Record<string, unknown>>;
  /** The members the payload schema requires. */
  readonly required: readonly string[];
  /** Optional members that are only valid together. */
  readonly coupled?: readonly string[];
  /** Kind-specific changes the payload schema must refuse (each kind has several). */
  readonly invalid?: readonly PayloadVariant[];
  /** Kind-specific changes the payload schema must accept. */
  readonly valid?: readonly PayloadVariant[];
}

interface KindBase<K extends string, C, E extends AnyEventType> {
  readonly kind: K;
  /** The kind's example payload (`KindExamples`); every core kind has one. */
  readonly examples?: KindExamples;
  readonly authority: readonly Authority[];
  readonly events: readonly E[];
  readonly embedded?: EmbeddedDocument;
  readonly preload?: Preload<C>;
  /**
   * The decision reads and writes the Group states of the Mission's ancestry (`ctx.ancestors`):
   * the app locks every ancestor Group with the Command's own, in one global order, and loads
   * them (§12 budget consumption over the complete WorkItem/Mission ancestry). A function says it
   * per Command, for a kind that charges only sometimes (a Message buffered offline with its
   * usage, §11.5), so that its other Commands lock no ancestor Group.
   */
  readonly ancestry?: true | ((command: C) => boolean);
  /**
   * An assignment of the Coordinator's (§7.2: authorize or assign WorkItems, accept Worker results,
   * create child Missions): a replacement Coordinator issues none before its Context Package is
   * stored, since it "MUST receive a signed Context Package … before issuing new assignments".
   */
  readonly assigns?: true;
  /** The Group and Mission the Command brings into being, if any (their IDs must be fresh). */
  creates?(command: C): { readonly groupId: string; readonly missionId: string };
  /** The Conversation / WorkItem an envelope `conversationId` / `workItemId` must name. */
  conversationOf?(state: GroupState | null, command: C): string | undefined;
  workItemOf?(state: GroupState | null, command: C): string | undefined;
}

/** A Command judged against an existing Group. */
export interface GroupKind<K extends string, C, E extends AnyEventType> extends KindBase<K, C, E> {
  readonly scope: 'group';
  /** Mission states the kind needs beyond not being terminal (absent: any live state). */
  readonly missionStates?: readonly MissionState[];
  /**
   * The current revision of the aggregate the Command changes, compared with `expectedRevision`;
   * 0 for one that does not exist yet, `undefined` when the kind's own rules refuse the target.
   */
  target(state: GroupState, command: C): number | undefined;
  /** The Principal the payload names, for `subject` authority. */
  subject?(command: C): Principal;
  /** Groups besides the Command's own that the transaction locks (in one global order). */
  locks?(command: C): readonly string[];
  decide(state: GroupState, command: C, ctx: DecisionContext): Decision<DraftOf<E>>;
}

/** A Command that founds a new Group; `state` is the named Group's, `null` when it is fresh. */
export interface NewGroupKind<K extends string, C, E extends AnyEventType> extends KindBase<K, C, E> {
  readonly scope: 'new-group';
  creates(command: C): { readonly groupId: string; readonly missionId: string };
  target(state: GroupState | null, command: C): number | undefined;
  decide(state: GroupState | null, command: C, ctx: DecisionContext): Decision<DraftOf<E>>;
}

/** The typed entry of a core Group kind `K`. */
export type CoreGroupKind<K extends CoreCommandKind, E extends AnyEventType> = GroupKind<K, CommandOf<K>, E> | NewGroupKind<K, CommandOf<K>, E>;

// Erased forms for the registry: the entry was checked against its own types where it is defined.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyGroupKind = GroupKind<string, any, AnyEventType> | NewGroupKind<string, any, AnyEventType>;

/**
 * Defines a core Group kind. `K` is inferred from `kind` and must be a kind of
 * `schemas/payloads/`; `E` from `events`.
 */
export function defineKind<K extends CoreCommandKind, const E extends readonly AnyEventType[]>(
  entry: (GroupKind<K, NoInfer<CommandOf<K>>, E[number]> | NewGroupKind<K, NoInfer<CommandOf<K>>, E[number]>) & { readonly events: E },
): CoreGroupKind<K, E[number]> {
  return entry;
}

/** Defines an Event type; call as `defineEvent<Payload>()({ kind, evolve })`. */
export function defineEvent<P>() {
  return <const K extends string>(type: EventType<K, P>): EventType<K, P> => type;
}

/** The Organization-scoped kinds (§15.1): no Group, no Group sequence. */
export interface OrganizationKindEntry {
  readonly scope: 'organization';
  readonly kind: string;
  readonly examples?: KindExamples;
  readonly embedded?: EmbeddedDocument;
}

export type KindEntry = AnyGroupKind | OrganizationKindEntry;

/** The entries' drafts are plain EventDrafts to the app. */
export type AnyDecision = Decision<EventDraft>;
