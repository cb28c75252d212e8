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
  /**
   * The slice's rows, in a stable order. The array may be one the codec returned before for the
   * same (immutable) slice: callers read it and never change it.
   */
  encode(slice: S): readonly AggregateRow[];
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
  return { [member]: values } as { readonly [M in K]: ReadonlyMap<string, V> };
}

/** A codec for a slice that is one map of documents, each its own row. */
export function mapCodec<K extends string, V>(
  member: K,
  rowType: string,
  row: (value: V, key: string) => { readonly id: string; readonly revision: number },
  keyOf: (value: V, id: string) => string = (_value, id) => id,
): SliceCodec<{ readonly [M in K]: ReadonlyMap<string, V> }> {
  // States are immutable (kinds/groupState.ts): a map evolve did not replace encodes to the same
  // rows, so they are kept per map and a batch re-encodes only the maps its Events changed.
  const encoded = new WeakMap<ReadonlyMap<string, V>, readonly AggregateRow[]>();
  return {
    rowTypes: [rowType],
    initialState: () => sliceOf(member, new Map<string, V>()),
    encode(slice) {
      const values = slice[member];
      const known = encoded.get(values);
      if (known !== undefined) return known;
      const rows: AggregateRow[] = [];
      for (const [key, value] of values) {
        const { id, revision } = row(value, key);
        rows.push({ type: rowType, id, revision, document: toJson(value as object) });
      }
      encoded.set(values, rows);
      return rows;
    },
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
    encode(slice) {
      const first = a.encode(slice);
      const second = b.encode(slice);
      return second.length === 0 ? first : first.length === 0 ? second : [...first, ...second];
    },
    decode(rows, groupId) {
      const aRows: StoredAggregateRow[] = [];
      const bRows: StoredAggregateRow[] = [];
      for (const row of rows) (aTypes.has(row.type) ? aRows : bRows).push(row);
      // Object.assign, not spread: V8 copies these small objects several times faster that way.
      return Object.assign({}, a.decode(aRows, groupId), b.decode(bRows, groupId));
    },
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
  for (const module of modules) {
    if (module.slice === undefined) continue;
    for (const row of module.slice.encode(state)) rows.push(row);
  }
  return rows;
}

/** The slices of `modules` and the index of each row type's slice, worked out once per list. */
interface SliceIndex {
  readonly slices: readonly SliceCodec<object>[];
  readonly sliceOfType: ReadonlyMap<string, number>;
}

const sliceIndexes = new WeakMap<readonly AnyDomainModule[], SliceIndex>();

function sliceIndexOf(modules: readonly AnyDomainModule[]): SliceIndex {
  let index = sliceIndexes.get(modules);
  if (index === undefined) {
    const slices = modules.flatMap((m) => (m.slice === undefined ? [] : [m.slice as SliceCodec<object>]));
    const sliceOfType = new Map<string, number>();
    slices.forEach((slice, i) => {
      for (const type of slice.rowTypes) sliceOfType.set(type, i);
    });
    index = { slices, sliceOfType };
    sliceIndexes.set(modules, index);
  }
  return index;
}

/**
 * Rebuilds a Group's state from its rows, each module decoding the row types it claims.
 * Throws when a row's type is claimed by no module: that is corrupt storage, not a refusal.
 */
export function decodeGroupState(modules: readonly AnyDomainModule[], groupId: string, lastSequence: number, rows: readonly StoredAggregateRow[]): GroupState {
  const { slices, sliceOfType } = sliceIndexOf(modules);
  const bySlice = slices.map((): StoredAggregateRow[] => []);
  for (const row of rows) {
    const at = sliceOfType.get(row.type);
    if (at === undefined) throw new Error(`unknown aggregate row type ${row.type}`);
    (bySlice[at] as StoredAggregateRow[]).push(row);
  }
  // One object, its members added slice by slice in the modules' order (one shape for every load).
  const state: object = { groupId, lastSequence };
  slices.forEach((slice, i) => Object.assign(state, slice.decode(bySlice[i] as StoredAggregateRow[], groupId)));
  // The modules together declare every member of GroupState (coreModules.ts lists them all).
  return state as GroupState;
}
