/**
 * Commands counted by kind and §19 code, with labels an outsider cannot grow: a kind is its own
 * label only when this Group Authority registers it, anything else is `other`; a code is its
 * own label only when the catalogue (src/protocol/errorCodes.ts) has it. So the series are at
 * most (known kinds + 1) × catalogue codes, whatever is sent. Counting is a Map lookup and an
 * addition per Command; the Prometheus counters read these totals on scrape.
 */

import { isErrorCode } from '../../protocol/errorCodes.js';

/** The label of every kind this Group Authority does not register (and of an unparsed Command). */
export const OTHER_KIND = 'other';

/** The label of a code outside the catalogue — none is ever sent, so this only bounds a bug. */
const UNCATALOGUED_CODE = 'INTERNAL_ERROR';

function add<K>(totals: Map<K, number>, key: K): void {
  totals.set(key, (totals.get(key) ?? 0) + 1);
}

export class CommandTally {
  /** New Commands accepted, by kind label. */
  readonly accepted = new Map<string, number>();
  /** Retries answered with their original Events (§9 idempotency), by kind label. */
  readonly retried = new Map<string, number>();
  /** Refusals, by kind label, then code. */
  readonly refused = new Map<string, Map<string, number>>();

  constructor(private readonly isKnownKind: (kind: string) => boolean) {}

  /** A kind's label: itself when registered, else `other`. The claim may come from an unverified document. */
  kindLabel(kind: unknown): string {
    return typeof kind === 'string' && this.isKnownKind(kind) ? kind : OTHER_KIND;
  }

  accept(kind: string, duplicate: boolean): void {
    add(duplicate ? this.retried : this.accepted, this.kindLabel(kind));
  }

  refuse(kind: unknown, code: string): void {
    const label = this.kindLabel(kind);
    let byCode = this.refused.get(label);
    if (byCode === undefined) {
      byCode = new Map();
      this.refused.set(label, byCode);
    }
    add(byCode, isErrorCode(code) ? code : UNCATALOGUED_CODE);
  }
}

/**
 * The kind a submitted document claims, for the refusal label of a Command refused before it was
 * verified: only a parsed object's `kind` (a byte submission, from in-process callers, is not
 * parsed again to count it).
 */
export function claimedKind(input: unknown): unknown {
  return typeof input === 'object' && input !== null && !(input instanceof Uint8Array) && !Array.isArray(input) ? (input as { kind?: unknown }).kind : undefined;
}
