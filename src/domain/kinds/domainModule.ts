/**
 * One contract for every part of the domain, core and Extension Profile alike: a domain module
 * owns a typed slice of Group state with its initial state and its row codec, the Command kinds
 * that decide against it, and the Event types those kinds declare (each with its evolve and the
 * delivery facts of `kindTypes.ts`: addressees, mentions, whether it changes a Membership).
 *
 * A core module's slice is a set of members of `GroupState`, declared in the module's own folder
 * by augmenting `kinds/groupState.ts`; an Extension Profile's slice is one entry of
 * `GroupState.extensions` (`profile.ts` turns a profile into a module). `src/domain/coreModules.ts`
 * lists the core modules; `encodeGroupState` / `decodeGroupState` store and rebuild a state from
 * the modules it is given, so no file here names an aggregate.
 */

import { fromJson, toJson } from '../documents.js';
import type { AggregateRow, ExtensionSlice, GroupState, StoredAggregateRow } from './groupState.js';
import type { AnyGroupKind, OrganizationKindEntry } from './kindTypes.js';
import type { EventMeta } from '../model.js';

/** How a module's slice is stored: one row per aggregate, of the row types it claims. */
export interface SliceCodec<S extends object> {
  /** The aggregate row types of the slice; no two modules claim the same one. */
  readonly rowTypes: readonly string[];
  /** The slice of a Group with none of its aggregates (absent where the founding Event builds it). */
  initialState?(): S;
  /** The slice's rows, in a stable order. */
  encode(slice: S): AggregateRow[];
  /** The slice from its rows (any order); throws when they cannot be one Group's: corrupt storage. */
  decode(rows: readonly StoredAggregateRow[], groupId: string): S;
}

export interface DomainModule<S extends object> {
  /** The module's name (core) or profile URI (Extension Profile). */
  readonly key: string;
  /** The slice the module owns; absent for a module that decides over other modules' slices. */
  readonly slice?: SliceCodec<S>;
  /** Its Command kinds, each with the Event types it declares. */
  readonly kinds: readonly (AnyGroupKind | OrganizationKindEntry)[];
  /**
   * Folds every Group Event into the module's slice after the Event's own evolve, whichever
   * module's kind emitted it; returns `state` itself when nothing changed.
   */
  observe?(state: GroupState, kind: string, meta: EventMeta): GroupState;
}

// `any` erases a module's slice type for the composition; each module is typed where it is defined.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDomainModule = DomainModule<any>;

/** Defines a module with its slice type checked against its codec. */
export function defineModule<S extends object>(module: DomainModule<S>): DomainModule<S> {
  return module;
}

/** The one-member slice `{ [member]: values }`. */
function sliceOf<K extends string, V>(member: K, values: ReadonlyMap<string, V>): { readonly [M in K]: ReadonlyMap<string, V> } {
  return Object.fromEntries([[member, values]]) as { readonly [M in K]: ReadonlyMap<string, V> };
}

/** A codec for a slice that is one map of documents, each its own row. */
export function mapCodec<K extends string, V>(
  member: K,
  rowType: string,
  row: (value: V, key: string) => { readonly id: string; readonly revision: number },
  keyOf: (value: V, id: string) => string = (_value, id) => id,
): SliceCodec<{ readonly [M in K]: ReadonlyMap<string, V> }> {
  return {
    rowTypes: [rowType],
    initialState: () => sliceOf(member, new Map<string, V>()),
    encode: (slice) => [...slice[member]].map(([key, value]) => ({ type: rowType, ...row(value, key), document: toJson(value as object) })),
    decode(rows) {
      const values = new Map<string, V>();
      for (const stored of rows) {
        const value = fromJson<V>(stored.document);
        values.set(keyOf(value, stored.id), value);
      }
      return sliceOf(member, values);
    },
  };
}

/** One codec for two slices stored side by side (their row types stay distinct). */
export function joinCodecs<A extends object, B extends object>(a: SliceCodec<A>, b: SliceCodec<B>): SliceCodec<A & B> {
  const aTypes = new Set(a.rowTypes);
  return {
    rowTypes: [...a.rowTypes, ...b.rowTypes],
    ...(a.initialState === undefined || b.initialState === undefined
      ? {}
      : { initialState: () => ({ ...(a.initialState as () => A)(), ...(b.initialState as () => B)() }) }),
    encode: (slice) => [...a.encode(slice), ...b.encode(slice)],
    decode: (rows, groupId) => ({
      ...a.decode(rows.filter((r) => aTypes.has(r.type)), groupId),
      ...b.decode(rows.filter((r) => !aTypes.has(r.type)), groupId),
    }),
  };
}

/** The Extension Profiles' slices (§18): one `extension` row per profile that folded an Event, by URI. */
export const EXTENSIONS_MODULE = defineModule({
  key: 'extensions',
  slice: mapCodec<'extensions', ExtensionSlice>('extensions', 'extension', (slice, uri) => ({ id: uri, revision: slice.revision })),
  kinds: [],
});

/** Every aggregate of `state`, with the document the store keeps for it, module by module. */
export function encodeGroupState(modules: readonly AnyDomainModule[], state: GroupState): AggregateRow[] {
  const rows: AggregateRow[] = [];
  for (const module of modules) if (module.slice !== undefined) rows.push(...module.slice.encode(state));
  return rows;
}

/**
 * Rebuilds a Group's state from its rows, each module decoding the row types it claims.
 * Throws when a row's type is claimed by no module: that is corrupt storage, not a refusal.
 */
export function decodeGroupState(modules: readonly AnyDomainModule[], groupId: string, lastSequence: number, rows: readonly StoredAggregateRow[]): GroupState {
  const byType = new Map<string, StoredAggregateRow[]>();
  const slices = modules.flatMap((m) => (m.slice === undefined ? [] : [m.slice]));
  for (const slice of slices) for (const type of slice.rowTypes) byType.set(type, []);
  for (const row of rows) {
    const list = byType.get(row.type);
    if (list === undefined) throw new Error(`unknown aggregate row type ${row.type}`);
    list.push(row);
  }
  let state: object = { groupId, lastSequence };
  for (const slice of slices) state = { ...state, ...slice.decode(slice.rowTypes.flatMap((type) => byType.get(type) ?? []), groupId) };
  // The modules together declare every member of GroupState (coreModules.ts lists them all).
  return state as GroupState;
}
