/**
 * Principals: the authenticated Agents, humans and Organization services that act (§3). The
 * shape is `common#/$defs/principal`, generated into schemas/wireTypes.ts.
 */

import type { Principal as WirePrincipal } from './schemas/wireTypes.js';

export const PRINCIPAL_TYPES = ['agent', 'human', 'service'] as const;

export type PrincipalType = (typeof PRINCIPAL_TYPES)[number];

export type Principal = Readonly<WirePrincipal>;

export function isPrincipalType(value: unknown): value is PrincipalType {
  return typeof value === 'string' && (PRINCIPAL_TYPES as readonly string[]).includes(value);
}

/** Identifiers compare byte-for-byte; no normalization is invented (§2). */
export function samePrincipal(a: Principal, b: Principal): boolean {
  return a.type === b.type && a.id === b.id;
}

/** A stable text key for maps keyed by Principal. */
export function principalKey(p: Principal): string {
  return `${p.type} ${p.id}`;
}
