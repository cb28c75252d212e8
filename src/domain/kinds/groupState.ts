/**
 * The state one Group's decider judges Commands against, as the framework below every aggregate
 * sees it: the Group's ID, the sequence of the last Event folded in, and the Extension Profiles'
 * slices. Every other member is a slice that its domain module declares beside its codec, by
 * augmenting this interface (`declare module '../kinds/groupState.js'`): the mission module owns
 * `mission`, `missionNotes` and the Coordinator leases, the work module `workItems`, `proposals`
 * and `delegationGrants`, and so on. `src/domain/coreModules.ts` composes them, so this file names
 * no aggregate and no aggregate folder.
 *
 * States are immutable: evolve returns new objects for exactly what an Event changed and shares
 * everything else, so the app keeps the previous state when a commit fails and tells changed
 * aggregates by identity.
 */

import type { JsonObject, JsonValue } from '../../protocol/strictJson.js';

/** An Extension Profile's slice of Group state and how many of its profile's Events it has folded (§18). */
export interface ExtensionSlice {
  readonly revision: number;
  readonly state: unknown;
}

/** One Group's state: this core plus the slices the domain modules declare (see above). */
export interface GroupState {
  readonly groupId: string;
  /** The sequence of the last Event folded in. */
  readonly lastSequence: number;
  /** Extension Profiles' slices of Group state, by profile URI (§18). */
  readonly extensions: ReadonlyMap<string, ExtensionSlice>;
}

/** A copy of `map` with `key` set: evolve never mutates the state it was given. */
export function withEntry<V>(map: ReadonlyMap<string, V>, key: string, value: V): ReadonlyMap<string, V> {
  const next = new Map(map);
  next.set(key, value);
  return next;
}

/** One stored aggregate of a Group: its module names the type and writes the document. */
export interface AggregateRow {
  readonly type: string;
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
