/**
 * This process's copy of the Agent Registry: the validated key bindings used at stage 4 and
 * the Agent facts deciders consult. The database's `registry_revision` says whether it is
 * current; write transactions compare it and reload before deciding on stale evidence.
 */

import type { AgentFacts } from '../domain/model.js';
import { LayeredMap } from '../protocol/layeredMap.js';
import { KeyRegistry, type KeyBindingEvidence } from '../protocol/signing/keyRegistry.js';
import type { JsonObject } from '../protocol/strictJson.js';
import type { Queryable } from '../store/pool.js';
import { readLatestAgentCards } from '../store/sql/organization.js';
import { readBindings, readRegistryRevision } from '../store/sql/registry.js';
import { catchUpRegistry } from './registryCatchUp.js';

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
  return {
    agentId: String(card['agentId']),
    cardVersion: Number(card['cardVersion']),
    status: card['status'] as AgentFacts['status'],
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

/** Told when the snapshot changes, with the previous one (to send deltas to workers). */
export type RegistryListener = (previous: RegistrySnapshot, next: RegistrySnapshot) => void;

/** Holds the current snapshot and reloads it when the database has moved on. */
export class RegistryCache {
  private readonly listeners: RegistryListener[] = [];
  private refreshing: Promise<RegistrySnapshot> | undefined;
  private following: Promise<RegistrySnapshot> | undefined;

  constructor(
    private snapshot: RegistrySnapshot,
    private readonly organizationId: string,
  ) {}

  get current(): RegistrySnapshot {
    return this.snapshot;
  }

  onChange(listener: RegistryListener): void {
    this.listeners.push(listener);
  }

  private replace(next: RegistrySnapshot): void {
    const previous = this.snapshot;
    this.snapshot = next;
    for (const listener of this.listeners) listener(previous, next);
  }

  /** Installs a snapshot this process produced itself (after its own commit). */
  install(snapshot: RegistrySnapshot): void {
    if (snapshot.revision >= this.snapshot.revision) this.replace(snapshot);
  }

  /** Reloads when `revision` (read in the caller's transaction) is newer than ours. */
  async ensure(db: Queryable, revision: number): Promise<RegistrySnapshot> {
    if (revision === this.snapshot.revision) return this.snapshot;
    const from = this.snapshot;
    const next = (await catchUpRegistry(db, from, revision)) ?? (await loadRegistrySnapshot(db, this.organizationId));
    // Another caller may have moved it on meanwhile: install this one only over an older copy,
    // and answer the caller with the revision it asked for.
    if (this.snapshot === from || next.revision > this.snapshot.revision) this.replace(next);
    return next;
  }

  /**
   * Catches up with the database outside any write: one small read of the revision, reloading
   * when another node has moved it (a card registered there, a key revoked there). A caller
   * always sees a read that started after it asked; concurrent callers share reads.
   */
  refresh(db: Queryable): Promise<RegistrySnapshot> {
    if (this.refreshing === undefined) return this.startRefresh(db);
    this.following ??= this.refreshing.catch(() => undefined).then(() => {
      this.following = undefined;
      return this.startRefresh(db);
    });
    return this.following;
  }

  private startRefresh(db: Queryable): Promise<RegistrySnapshot> {
    const run: Promise<RegistrySnapshot> = this.readAndEnsure(db).finally(() => {
      if (this.refreshing === run) this.refreshing = undefined;
    });
    this.refreshing = run;
    return run;
  }

  private async readAndEnsure(db: Queryable): Promise<RegistrySnapshot> {
    return this.ensure(db, await readRegistryRevision(db, this.organizationId));
  }
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
