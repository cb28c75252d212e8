/**
 * This process's copy of the Organization state the Organization decider needs (latest Agent
 * Card per Agent, current Session Epochs), valid for one Organization Event position.
 */

import { initialOrganizationState, type OrganizationState } from '../domain/organization/organization.js';
import type { AgentFacts } from '../domain/model.js';
import type { Queryable } from '../store/pool.js';
import { readLatestAgentCards } from '../store/sql/organization.js';
import { readAllSessionEpochs } from '../store/sql/sessions.js';

export class OrganizationStateCache {
  private cached: { position: number; state: OrganizationState } | undefined;

  async load(db: Queryable, position: number): Promise<OrganizationState> {
    if (this.cached !== undefined && this.cached.position === position) return this.cached.state;
    const agents = new Map<string, { cardVersion: number; status: AgentFacts['status'] }>();
    for (const row of await readLatestAgentCards(db)) {
      agents.set(row.agentId, { cardVersion: row.cardVersion, status: row.status as AgentFacts['status'] });
    }
    return { ...initialOrganizationState(), agents, sessions: await readAllSessionEpochs(db) };
  }

  commit(position: number, state: OrganizationState): void {
    this.cached = { position, state };
  }
}
