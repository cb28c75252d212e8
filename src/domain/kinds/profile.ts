/**
 * The plug-in point for Extension Profiles (§18). A profile brings its own Command and Event
 * kinds (named `ext.<organization>.<profile>.<name>`), its own slice of Group state, the
 * evolve functions of that slice and the delivery facts of its Events (addressees, mentions,
 * announcements); it
 * is registered with the Group Authority, never edited into core files.
 *
 * A profile cannot weaken the §18 list. Its kinds are wrapped into ordinary Group kinds, so the
 * core checks (Membership and its epoch, envelope targets, a live Mission, authority, Mission
 * state, `expectedRevision`) run before any profile code, and receipts, idempotency, ordering and
 * signatures are the pipeline's. Its decide sees core state read-only, may emit only its own
 * declared Event kinds, and its evolve receives and returns its own slice only: it has no way to
 * change Memberships, leases, budgets, Approvals or another Group.
 */

import type { MissionState } from '../documents.js';
import type { DomainModule } from './domainModule.js';
import { withEntry, type ExtensionSlice, type GroupState } from './groupState.js';
import { refuse, type DecisionContext, type EventDraft, type EventMeta, type Refusal } from '../model.js';
import type { AnyEventType, AnyGroupKind, CommandOf, DeliveryFacts, GroupEventType, GroupKind } from './kindTypes.js';
import { KIND_REASONS } from './kindReasons.js';

/**
 * The delivery facts a profile's Event type may declare, as a core Event type does (§8): the
 * Agents it is addressed to, the Principals it mentions, whether it is an announcement. Not `changesMembership`: a profile's
 * evolve sees its own slice only, so none of its Events can change a Membership (§18).
 */
export type ProfileDeliveryFacts<P> = Omit<DeliveryFacts<P>, 'changesMembership'>;

/** An Event type of a profile: it folds into the profile's slice only. */
export interface ProfileEventType<S, K extends string, P> extends ProfileDeliveryFacts<P> {
  readonly kind: K;
  evolve(slice: S, payload: P, meta: EventMeta): S;
}

/** What a profile's decide returns: the pipeline adds the aggregate (the profile's slice). */
export interface ProfileDraft<K extends string, P> {
  readonly kind: K;
  readonly payload: P;
  readonly conversationId?: string;
  readonly workItemId?: string;
}

// `any` erases payload types for the registry; each profile kind is typed where it is defined.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyProfileEvent<S> = ProfileEventType<S, string, any>;

export type ProfileDecision<D> = { readonly ok: true; readonly events: readonly D[] } | Refusal;

/** A profile decision that appends `events` (their kinds stay literal, so they are checked). */
export function emit<const D extends ProfileDraft<string, unknown>>(...events: D[]): ProfileDecision<D> {
  return { ok: true, events };
}

export type ProfileDraftOf<E> = E extends ProfileEventType<infer _S, infer K, infer P> ? ProfileDraft<K, P> : never;

export interface ProfileKind<S, K extends string, P, E extends AnyProfileEvent<S>> {
  readonly kind: K;
  /** Profiles act through Memberships: no founding, no service authority. */
  readonly authority: readonly ('member' | 'mission-owner' | 'coordinator')[];
  readonly missionStates?: readonly MissionState[];
  /** The payload's JSON Schema (2020-12); it is compiled with the core schemas at start. */
  readonly payloadSchema: Record<string, unknown>;
  readonly events: readonly E[];
  decide(slice: S, group: Readonly<GroupState>, command: CommandOf<K, P>, ctx: DecisionContext): ProfileDecision<ProfileDraftOf<E>>;
}

export interface ExtensionProfile<S> {
  /** The profile URI, the key of its entry in a Command's `extensions` (§18). */
  readonly uri: string;
  /** `ext.<organization>.<profile>.`: every kind of the profile starts with it. */
  readonly namespace: string;
  /** The major version of the profile this code implements; a Group must pin it (§18). Absent: 1. */
  readonly majorVersion?: number;
  initialState(): S;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly kinds: readonly ProfileKind<S, string, any, AnyProfileEvent<S>>[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyExtensionProfile = ExtensionProfile<any>;

/** Defines a profile kind with its types inferred: `K` from `kind`, `E` from `events`. */
export function defineProfileKind<S, P>() {
  return <const K extends string, E extends AnyProfileEvent<S>>(kind: ProfileKind<S, K, P, E>): ProfileKind<S, K, P, E> => kind;
}

const NAMESPACE = /^ext\.[a-z0-9_]+\.[a-z0-9_]+\.$/;

function sliceOf(profile: AnyExtensionProfile, state: GroupState): ExtensionSlice {
  return state.extensions.get(profile.uri) ?? { revision: 0, state: profile.initialState() };
}

/**
 * IDs a profile's delivery fact yields per Event. A profile's code is not the core's: whatever
 * its function returns, delivery gets at most this many strings, and an empty list if it throws,
 * so one profile cannot make every subscription scan a huge list or stop a Group's live feed.
 */
export const MAX_PROFILE_FACT_IDS = 512;

function guardedIds(fact: ((payload: unknown) => readonly string[]) | undefined): ((payload: unknown) => readonly string[]) | undefined {
  if (fact === undefined) return undefined;
  return (payload) => {
    let ids: unknown;
    try {
      ids = fact(payload);
    } catch {
      return [];
    }
    if (!Array.isArray(ids)) return [];
    const strings: string[] = [];
    for (const id of ids as unknown[]) {
      if (strings.length >= MAX_PROFILE_FACT_IDS) break;
      if (typeof id === 'string') strings.push(id);
    }
    return strings;
  };
}

function guardedFlag(fact: ((payload: unknown) => boolean) | undefined): ((payload: unknown) => boolean) | undefined {
  if (fact === undefined) return undefined;
  return (payload) => {
    try {
      return fact(payload) === true;
    } catch {
      return false;
    }
  };
}

/** The delivery facts `type` declares, guarded (`MAX_PROFILE_FACT_IDS`). */
function profileFacts(type: AnyProfileEvent<unknown>): ProfileDeliveryFacts<unknown> {
  const addressees = guardedIds(type.addressees?.bind(type));
  const mentions = guardedIds(type.mentions?.bind(type));
  const announces = guardedFlag(type.announces?.bind(type));
  return {
    ...(addressees === undefined ? {} : { addressees }),
    ...(mentions === undefined ? {} : { mentions }),
    ...(announces === undefined ? {} : { announces }),
  };
}

function wrapEvent(profile: AnyExtensionProfile, type: AnyProfileEvent<unknown>): GroupEventType<string, unknown> {
  return {
    kind: type.kind,
    ...profileFacts(type),
    evolve(state, payload, meta) {
      const slice = sliceOf(profile, state);
      const next: ExtensionSlice = { revision: slice.revision + 1, state: type.evolve(slice.state, payload, meta) };
      return { ...state, extensions: withEntry(state.extensions, profile.uri, next) };
    },
  };
}

function wrapKind(profile: AnyExtensionProfile, kind: ExtensionProfile<unknown>['kinds'][number], events: ReadonlyMap<string, AnyEventType>): AnyGroupKind {
  const entry: GroupKind<string, CommandOf<string, unknown>, AnyEventType> = {
    scope: 'group',
    kind: kind.kind,
    authority: kind.authority,
    ...(kind.missionStates === undefined ? {} : { missionStates: kind.missionStates }),
    events: kind.events.map((e) => events.get(e.kind) as AnyEventType),
    target: (state) => sliceOf(profile, state).revision,
    decide(state, command, ctx) {
      const slice = sliceOf(profile, state);
      const decision = kind.decide(slice.state, state, command, ctx);
      if (!decision.ok) return decision;
      const declared = new Set(kind.events.map((e) => e.kind));
      const drafts: EventDraft[] = [];
      for (const [index, draft] of decision.events.entries()) {
        // Typed profiles cannot get here; plain JavaScript ones can.
        if (!declared.has(draft.kind)) return refuse('INTERNAL_ERROR', KIND_REASONS.profileUndeclaredEvent, `${kind.kind} emitted an undeclared Event kind`);
        drafts.push({
          kind: draft.kind,
          payload: draft.payload,
          aggregate: { type: 'extension', id: profile.uri, revision: slice.revision + index + 1 },
          ...(draft.conversationId === undefined ? {} : { conversationId: draft.conversationId }),
          ...(draft.workItemId === undefined ? {} : { workItemId: draft.workItemId }),
        });
      }
      return { ok: true, events: drafts };
    },
  };
  return entry;
}

/**
 * A profile as a domain module, the contract the core modules share: its key is its URI, its
 * kinds are Group kinds like any other, and its slice is its entry of `GroupState.extensions`
 * (stored by the framework's `EXTENSIONS_MODULE`, so the module declares no codec of its own).
 * Throws when the profile is malformed.
 */
export function profileModule(profile: AnyExtensionProfile): DomainModule<object> {
  return { key: profile.uri, kinds: profileEntries(profile) };
}

/** A profile's kinds as Group kinds of the registry; throws when the profile is malformed. */
export function profileEntries(profile: AnyExtensionProfile): AnyGroupKind[] {
  if (!NAMESPACE.test(profile.namespace)) throw new Error(`profile namespace ${profile.namespace} is not ext.<organization>.<profile>.`);
  const events = new Map<string, AnyEventType>();
  for (const kind of profile.kinds) {
    for (const name of [kind.kind, ...kind.events.map((e) => e.kind)]) {
      if (!name.startsWith(profile.namespace) || name.length === profile.namespace.length) {
        throw new Error(`profile kind ${name} is outside its namespace ${profile.namespace}`);
      }
    }
    for (const type of kind.events) if (!events.has(type.kind)) events.set(type.kind, wrapEvent(profile, type));
  }
  return profile.kinds.map((kind) => wrapKind(profile, kind, events));
}
