/**
 * A Registry copy caught up from revision r to R by the rows registered in (r, R] — the key
 * bindings and validity records, and the Agent Cards, each stored with the revision that wrote it
 * — instead of re-reading every card and binding. Another process or node registering one card
 * made this one reload the whole Registry: at 30,000 Agents, every card document parsed and
 * every public key imported again, seconds of main-thread CPU per registration elsewhere
 * (`serve --processes N` counts: BENCHMARKS.md, "Scaling curves").
 *
 * The result equals a full reload at R (test/registryCatchUp.int.test.ts): the Registry's writes
 * are serialized on the Organization row and commit with its revision, so once R is read every
 * row of (r, R] is visible, and none past R is read.
 */

import { withLayeredEntry } from '../protocol/layeredMap.js';
import type { JsonObject } from '../protocol/strictJson.js';
import type { Queryable } from '../store/pool.js';
import { readAgentCardsBetween } from '../store/sql/organization.js';
import { readBindingsChangedBetween } from '../store/sql/registry.js';
import { agentFactsOf, type RegistrySnapshot } from './registrySnapshot.js';
import { applyRegistryDelta } from './workers/applyRegistryDelta.js';

/** Revisions caught up by rows at most; a longer gap (a node long away) reloads in full. */
export const MAX_CATCH_UP_REVISIONS = 1_000;

/** `current` moved to `revision`, or undefined when only a full reload can (a gap too long, or backwards). */
export async function catchUpRegistry(db: Queryable, current: RegistrySnapshot, revision: number): Promise<RegistrySnapshot | undefined> {
  if (revision <= current.revision || revision - current.revision > MAX_CATCH_UP_REVISIONS) return undefined;
  const bindings = await readBindingsChangedBetween(db, current.revision, revision);
  const cards = await readAgentCardsBetween(db, current.revision, revision);
  const registry = applyRegistryDelta(current.registry, bindings);
  let agents = current.agents;
  for (const card of cards) {
    const known = agents.get(card.agentId);
    if (known === undefined || card.cardVersion > known.cardVersion) {
      agents = withLayeredEntry(agents, card.agentId, agentFactsOf(JSON.parse(card.document) as JsonObject));
    }
  }
  return { revision, registry, agents };
}
