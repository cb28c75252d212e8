/**
 * Folds one recorded Group Event into the Group's state with the core kinds' evolve functions
 * (each Event type's own, in its kind's module). Each returns new objects for exactly what the
 * Event changed and shares everything else, so the app can keep the previous state when a commit
 * fails and tell changed aggregates by identity.
 */

import { coreKinds } from './coreModules.js';
import type { RecordedEvent } from './model.js';
import type { GroupState } from './kinds/groupState.js';

export function evolveGroup(state: GroupState | null, event: RecordedEvent): GroupState {
  return coreKinds.evolve(state, event);
}
