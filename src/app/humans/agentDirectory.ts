/**
 * The Organization's Agents as people name them (`GET /v1/agents`, docs/human-api.md): each Agent
 * Card's `agentId`, `displayName`, `status` and capabilities, sorted by name then ID, at most
 * `max` of them. Pure: the route hands it the Registry copy the Authority decides with.
 */

import type { AgentFacts } from '../../domain/model.js';

export interface DirectoryEntry {
  readonly agentId: string;
  /** The card's `displayName`; the Agent ID when the card has none. */
  readonly displayName: string;
  readonly status: AgentFacts['status'];
  /** `id@version`, as the card declares them. */
  readonly capabilities: readonly string[];
}

const order = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The directory of `agents`, by name then ID, at most `max` entries. */
export function agentDirectory(agents: Iterable<AgentFacts>, max: number): { agents: DirectoryEntry[]; truncated: boolean } {
  const entries = [...agents].map((facts): DirectoryEntry => ({
    agentId: facts.agentId,
    displayName: facts.displayName ?? facts.agentId,
    status: facts.status,
    capabilities: [...facts.capabilities].flatMap(([id, versions]) => versions.map((version) => `${id}@${version}`)),
  }));
  entries.sort((a, b) => order(a.displayName, b.displayName) || order(a.agentId, b.agentId));
  return { agents: entries.slice(0, max), truncated: entries.length > max };
}
