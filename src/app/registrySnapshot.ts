/**
 * A copy of the Agent Registry at one revision (`RegistrySnapshot`), read whole from the
 * database, and what changed between two copies: the bindings the crypto workers lack and the
 * Agents whose open sessions must be re-checked. `registryCache.ts` holds the current copy.
 */

import type { AgentFacts } from '../domain/model.js';
import { LayeredMap } from '../protocol/layeredMap.js';
import { KeyRegistry, type KeyBindingEvidence } from '../protocol/signing/keyRegistry.js';
import type { JsonObject } from '../protocol/strictJson.js';
import type { Queryable } from '../store/pool.js';
import { readLatestAgentCards } from '../store/sql/organization.js';
import { readBindings, readRegistryRevision } from '../store/sql/registry.js';

export interface RegistrySnapshot {
  readonly revision: number;
  readonly registry: KeyRegistry;
  readonly agents: ReadonlyMap<string, AgentFacts>;
}

export function agentFactsOf(card: JsonObject): AgentFacts {
  const capabilities = new Map<string, string[]>();
  for (const capability of (card['capabilities'] ?? []) as JsonObject[]) {
    const id = String(capability['id']);
    capabilities.set(id, [...(capabilities.get(id) ?? []), String(capability['version'])]);
  }
  const displayName = card['displayName'];
  return {
    agentId: String(card['agentId']),
    cardVersion: Number(card['cardVersion']),
    status: card['status'] as AgentFacts['status'],
    ...(typeof displayName === 'string' ? { displayName } : {}),
    capabilities,
  };
}

/** Reads the whole Registry at the revision the database holds now. */
export async function loadRegistrySnapshot(db: Queryable, organizationId: string): Promise<RegistrySnapshot> {
  const revision = await readRegistryRevision(db, organizationId);
  const bindings = await readBindings(db);
  const registry = KeyRegistry.fromEvidence({ organizationId, bindings }, { pointsAlreadyProven: true });
  const agents = new Map<string, AgentFacts>();
  for (const row of await readLatestAgentCards(db)) {
    agents.set(row.agentId, agentFactsOf(JSON.parse(row.document) as JsonObject));
  }
  return { revision, registry, agents: LayeredMap.of(agents) };
}

/**
 * The Agents whose card facts or key bindings changed from `previous` to `next`, when both
 * snapshots can tell (`changedSince`: `next` extended from `previous` in this process); undefined
 * when only a full comparison could (a snapshot reloaded from the database).
 */
export function affectedAgents(previous: RegistrySnapshot, next: RegistrySnapshot): Set<string> | undefined {
  const bindings = next.registry.changedSince(previous.registry);
  const agents = next.agents instanceof LayeredMap ? next.agents.changedSince(previous.agents) : undefined;
  if (bindings === undefined || agents === undefined) return undefined;
  const ids = new Set(agents.map(([agentId]) => agentId));
  for (const binding of bindings) if (binding.principal.type === 'agent') ids.add(binding.principal.id);
  return ids;
}

/**
 * Bindings that are new in `next`, or whose validity history grew, since `previous`. A snapshot
 * this process extended names its changes (`changedSince`, O(changes)); one reloaded from the
 * database is compared binding by binding.
 */
export function registryDelta(previous: RegistrySnapshot, next: RegistrySnapshot): KeyBindingEvidence[] {
  const candidates = next.registry.changedSince(previous.registry) ?? next.registry.evidence().bindings;
  return candidates.filter((binding) => {
    const before = previous.registry.resolve(binding.keyId);
    return before === undefined || before.binding.validityHistory.length !== binding.validityHistory.length;
  });
}
