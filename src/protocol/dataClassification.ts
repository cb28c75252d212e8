/**
 * Data classification (`common#/$defs/classification`): the four levels, in the order the protocol
 * lists them, each one more sensitive than the one before — public < internal < confidential <
 * restricted. A bound on what may be seen is a level: data at it or below is within the bound.
 * Shared by the deciders (a WorkItem's bound, narrowed down the Mission tree) and the tool-side
 * verifier (a capability token's bound per resource), so it lives here.
 */

export const DATA_CLASSIFICATIONS = ['public', 'internal', 'confidential', 'restricted'] as const;
export type DataClassification = (typeof DATA_CLASSIFICATIONS)[number];

/** Where a Work Contract or a resource grant states its bound: in its free `constraints` object. */
export const MAX_DATA_CLASSIFICATION = 'maxDataClassification';

export function isDataClassification(value: unknown): value is DataClassification {
  return typeof value === 'string' && (DATA_CLASSIFICATIONS as readonly string[]).includes(value);
}

/** True when data classified `level` lies within the bound `bound`. */
export function withinClassification(level: DataClassification, bound: DataClassification): boolean {
  return DATA_CLASSIFICATIONS.indexOf(level) <= DATA_CLASSIFICATIONS.indexOf(bound);
}

/** The tighter of two bounds; `undefined` states no bound. */
export function tighterClassification(a: DataClassification | undefined, b: DataClassification | undefined): DataClassification | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return withinClassification(a, b) ? a : b;
}
