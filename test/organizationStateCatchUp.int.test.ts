/**
 * The Organization state cache catching up with Events another process wrote
 * (src/app/organizationStates.ts): folding the missed Organization Events gives the state a full
 * reload reads from the card and session tables, and a gap it cannot cover reloads in full.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { OrganizationStateCache } from '../src/app/organizationStates.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { Harness } from './support/harness.js';

let db: TestDatabase;
let h: Harness;

beforeAll(async () => {
  db = await createTestDatabase();
  h = await Harness.start(db.pool);
});

async function position(): Promise<number> {
  const result = await db.pool.query<{ last_position: number }>('select last_position from organization_state');
  return Number(result.rows[0]?.last_position);
}

describe('OrganizationStateCache', () => {
  it('folds the Organization Events written elsewhere into the state a full reload reads', async () => {
    const first = await h.agent('early');
    const before = await position();
    const cache = new OrganizationStateCache();
    cache.commit(before, await cache.load(db.pool, before));
    // Elsewhere: a new Agent (card and session), and a second session of the first.
    const later = await h.agent('late');
    await h.openSession(first);
    const after = await position();
    expect(after - before).toBeGreaterThanOrEqual(3);
    const caughtUp = await cache.load(db.pool, after);
    const reloaded = await new OrganizationStateCache().load(db.pool, after);
    expect(new Map(caughtUp.agents)).toEqual(new Map(reloaded.agents));
    expect(new Map(caughtUp.sessions)).toEqual(new Map(reloaded.sessions));
    expect(caughtUp.sessions.get(first.principal.id)).toBe(2);
    expect(caughtUp.agents.get(later.principal.id)?.status).toBe('active');
  });

  it('reloads in full when the Events read do not cover the gap', async () => {
    const now = await position();
    const cache = new OrganizationStateCache();
    const truth = await cache.load(db.pool, now);
    // A cached state claiming a position the Events cannot lead from (one beyond what is stored).
    cache.commit(now - 1, { ...truth, sessions: new Map() });
    const loaded = await cache.load(db.pool, now + 1);
    // The same Session Epochs; in no particular order (on Citus a full read gathers them from
    // every shard of agent_sessions, in whichever order the workers answer).
    expect(Object.fromEntries(loaded.sessions)).toEqual(Object.fromEntries(truth.sessions));
  });
});
