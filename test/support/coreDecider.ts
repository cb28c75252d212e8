/**
 * The Group decider and evolve over the core kinds alone, for domain tests: the domain itself
 * takes its registry as an argument (`decideWithKinds(kinds, …)`, `kinds.evolve`), so no module
 * of src/domain reaches for a registry of its own.
 */

import { buildKindRegistry } from '../../src/domain/coreModules.js';
import { decideWithKinds } from '../../src/domain/decideGroup.js';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import type { KindRegistry } from '../../src/domain/kinds/kindRegistry.js';
import type { CommandEnvelope, Decision, DecisionContext, RecordedEvent } from '../../src/domain/model.js';

/** The core kinds, built once for the tests (test support is a composition root). */
const coreKinds = buildKindRegistry([]);

/** The registry of the core kinds, as a test gets it. */
export function coreRegistry(): KindRegistry {
  return coreKinds;
}

/** Decides a Group-scoped Command with the core kinds. */
export function decideGroupCommand(state: GroupState | null, command: CommandEnvelope, ctx: DecisionContext): Decision {
  return decideWithKinds(coreKinds, state, command, ctx);
}

/** Folds one recorded Group Event with the core kinds' evolve functions. */
export function evolveGroup(state: GroupState | null, event: RecordedEvent): GroupState {
  return coreKinds.evolve(state, event);
}
