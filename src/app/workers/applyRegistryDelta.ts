/**
 * A crypto worker's copy of the Registry, moved forward by a delta from the main thread: new
 * bindings are added, and bindings already known get the validity records they lack. New
 * bindings in a row are added in one `extend`: the Registry is immutable and each `extend`
 * copies its indexes, so adding them one at a time cost O(n²) — 144 s of a worker's CPU for
 * the 30,000 bindings a scaling curve registered at once (BENCHMARKS.md, "Setup for the full
 * sizes"). The order of the delta is kept: a binding that is new and then updated in the same
 * delta is added first.
 */

import type { KeyBindingEvidence, KeyRegistry } from '../../protocol/signing/keyRegistry.js';

export function applyRegistryDelta(registry: KeyRegistry, bindings: readonly KeyBindingEvidence[]): KeyRegistry {
  let current = registry;
  const fresh: KeyBindingEvidence[] = [];
  const freshIds = new Set<string>();
  const addFresh = (): void => {
    if (fresh.length === 0) return;
    // Points were proven by the main thread's Registry before it sent them.
    current = current.extend(fresh, { pointsAlreadyProven: true });
    fresh.length = 0;
    freshIds.clear();
  };
  for (const binding of bindings) {
    if (!freshIds.has(binding.keyId) && current.resolve(binding.keyId) === undefined) {
      fresh.push(binding);
      freshIds.add(binding.keyId);
      continue;
    }
    addFresh();
    const existing = current.resolve(binding.keyId);
    if (existing === undefined) continue;
    for (const record of binding.validityHistory.slice(existing.binding.validityHistory.length)) {
      const { sequence: _sequence, ...change } = record;
      current = current.recordValidity(binding.keyId, change);
    }
  }
  addFresh();
  return current;
}
