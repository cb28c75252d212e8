/**
 * This process's copy of the Organization state the Organization decider needs (latest Agent
 * Card per Agent, current Session Epochs), valid for one Organization Event position.
 *
 * When another process or node wrote meanwhile (`serve --processes N`: every HELLO elsewhere is
 * one), the copy catches up by folding the Organization Events it missed, as the decider's own
 * `evolveOrganization` does, rather than re-reading every Agent's card and Session Epoch: at
 * 20,000 Agents that reload made each session open elsewhere cost this process O(Agents), and
 * three processes opened sessions at 55/s (BENCHMARKS.md, "Setup for the full sizes"). Past
 * `MAX_CATCH_UP_EVENTS`, or when the Events read do not cover the gap, it reloads in full.
 */

import { evolveOrganization, initialOrganizationState, type OrganizationState } from '../domain/organization/organization.js';
import type { AgentFacts, RecordedEvent } from '../domain/model.js';
import { LayeredMap } from '../protocol/layeredMap.js';
import type { Queryable } from '../store/pool.js';
import { readLatestAgentCardFacts, readOrganizationEventsBetween } from '../store/sql/organization.js';
import { readAllSessionEpochs } from '../store/sql/sessions.js';

/** Missed Events folded one by one at most (each O(√Agents), `LayeredMap`); a longer gap reloads instead. */
export const MAX_CATCH_UP_EVENTS = 256;

export class OrganizationStateCache {
  private cached: { position: number; state: OrganizationState } | undefined;

  async load(db: Queryable, position: number): Promise<OrganizationState> {
    const cached = this.cached;
    if (cached !== undefined && cached.position === position) return cached.state;
    if (cached !== undefined && cached.position < position && position - cached.position <= MAX_CATCH_UP_EVENTS) {
      const missed = await readOrganizationEventsBetween(db, cached.position, position);
      if (missed.length === position - cached.position) {
        let state = cached.state;
        // The Authority's own signed Events, written by the same decider: their kind and payload.
        for (const row of missed) state = evolveOrganization(state, JSON.parse(row.document) as RecordedEvent);
        return state;
      }
    }
    const agents = new Map<string, { cardVersion: number; status: AgentFacts['status'] }>();
    for (const row of await readLatestAgentCardFacts(db)) {
      agents.set(row.agentId, { cardVersion: row.cardVersion, status: row.status as AgentFacts['status'] });
    }
    return { ...initialOrganizationState(), agents: LayeredMap.of(agents), sessions: LayeredMap.of(await readAllSessionEpochs(db)) };
  }

  commit(position: number, state: OrganizationState): void {
    this.cached = { position, state };
  }
}
