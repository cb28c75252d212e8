/**
 * The registry of Command and Event kinds one Group Authority accepts: the core kinds and those
 * of the Extension Profiles it was given (§18). Every question the pipeline asks about a kind —
 * its scope, what to preload, which Groups to lock, its embedded document, how to decide it and
 * how its Events fold — is answered from the kind's entry here.
 */

import type { JsonObject } from '../../protocol/strictJson.js';
import { fromJson } from '../documents.js';
import type { AggregateRow, GroupState, StoredAggregateRow } from './groupState.js';
import { decodeGroupState, encodeGroupState, type AnyDomainModule } from './domainModule.js';
import type { EventMeta, RecordedEvent } from '../model.js';
import type { AnyEventType, AnyGroupKind, EmbeddedDocument, KindEntry } from './kindTypes.js';
import { OFFLINE_EXECUTION_EXTENSION } from '../../protocol/offlineExecution.js';
import { profileModule, type AnyExtensionProfile } from './profile.js';

export type { KindEntry, OrganizationKindEntry } from './kindTypes.js';

function metaOf(event: RecordedEvent): EventMeta {
  if (event.sequence === undefined) throw new Error(`Group Event ${event.eventId} has no sequence`);
  return { actor: event.actor, occurredAt: event.occurredAt, sequence: event.sequence, eventId: event.eventId };
}

export class KindRegistry {
  private readonly kinds = new Map<string, KindEntry>();
  private readonly events = new Map<string, AnyEventType>();
  /** The core modules, in the order their slices are stored. */
  readonly modules: readonly AnyDomainModule[];
  /** The profiles by URI, with the payload schemas their kinds declare. */
  readonly profiles: readonly AnyExtensionProfile[];
  private readonly observers: readonly NonNullable<AnyDomainModule['observe']>[];

  constructor(modules: readonly AnyDomainModule[], profiles: readonly AnyExtensionProfile[] = []) {
    this.modules = modules;
    this.profiles = profiles;
    this.observers = modules.flatMap((m) => (m.observe === undefined ? [] : [m.observe]));
    const all: KindEntry[] = [...modules, ...profiles.map(profileModule)].flatMap((m) => m.kinds);
    for (const entry of all) {
      if (this.kinds.has(entry.kind)) throw new Error(`Command kind ${entry.kind} is registered twice`);
      this.kinds.set(entry.kind, entry);
      if (entry.scope === 'organization') continue;
      for (const type of entry.events) {
        const known = this.events.get(type.kind);
        // Several kinds may emit one Event type (the same object); two definitions of a kind may not.
        if (known !== undefined && known !== type) throw new Error(`Event kind ${type.kind} is defined twice`);
        this.events.set(type.kind, type);
      }
    }
  }

  /** A new registry with `profiles` added to this one's kinds. */
  withProfiles(profiles: readonly AnyExtensionProfile[]): KindRegistry {
    return new KindRegistry(this.modules, [...this.profiles, ...profiles]);
  }

  kind(name: string): KindEntry | undefined {
    return this.kinds.get(name);
  }

  groupKind(name: string): AnyGroupKind | undefined {
    const entry = this.kinds.get(name);
    return entry === undefined || entry.scope === 'organization' ? undefined : entry;
  }

  /** Organization-scoped kinds have no Group; every other kind, known or not, is judged in one. */
  scopeOf(name: string): 'group' | 'organization' {
    return this.kinds.get(name)?.scope === 'organization' ? 'organization' : 'group';
  }

  /** The Signed Document a kind's payload embeds, verified before any decision. */
  embeddedOf(name: string): EmbeddedDocument | undefined {
    return this.kinds.get(name)?.embedded;
  }

  event(name: string): AnyEventType | undefined {
    return this.events.get(name);
  }

  get kindNames(): string[] {
    return [...this.kinds.keys()].sort();
  }

  get eventNames(): string[] {
    return [...this.events.keys()].sort();
  }

  /**
   * URIs of the critical extensions this Authority interprets (§18): the profiles', and the core
   * bounded offline execution binding (§11.5), which the Group decider reconciles.
   */
  get extensionUris(): ReadonlySet<string> {
    return new Set([OFFLINE_EXECUTION_EXTENSION, ...this.profiles.map((p) => p.uri)]);
  }

  /**
   * Every aggregate of `state`, with the document the store keeps for it, module by module: the
   * app writes a Group's state through its registry, never through the list of modules.
   */
  encodeState(state: GroupState): AggregateRow[] {
    return encodeGroupState(this.modules, state);
  }

  /**
   * Rebuilds a Group's state from its rows (`messages` holds whichever Message rows were loaded).
   * Throws when the rows cannot be one Group's state: that is corrupt storage, not a refusal.
   */
  decodeState(groupId: string, lastSequence: number, rows: readonly StoredAggregateRow[]): GroupState {
    return decodeGroupState(this.modules, groupId, lastSequence, rows);
  }

  /**
   * Folds one recorded Group Event into the Group's state, from the Event alone. An Event it
   * cannot fold is corrupt history, not a refusal: it throws.
   */
  evolve(state: GroupState | null, event: RecordedEvent): GroupState {
    const type = this.events.get(event.kind);
    if (type === undefined) throw new Error(`unknown Group Event kind ${event.kind}`);
    const meta = metaOf(event);
    // The storage boundary: a recorded payload is what the typed decider drafted for this kind.
    const payload = fromJson<unknown>(event.payload as JsonObject);
    if (type.founds === true) {
      if (state !== null) throw new Error(`${event.kind} in the existing Group ${state.groupId}`);
      return type.found(payload, meta);
    }
    if (state === null) throw new Error(`${event.kind} before the Group was created`);
    let next = type.evolve({ ...state, lastSequence: meta.sequence }, payload, meta);
    // Modules that fold every Event whichever kind emitted it (the policy module's rate windows, §20).
    for (const observe of this.observers) next = observe(next, event.kind, meta);
    return next;
  }
}
