/**
 * A Registry copy caught up by the rows of the revisions it missed (src/app/registryCatchUp.ts)
 * equals a full reload at the same revision: new Agents' cards and keys, a human key enrolled,
 * a key revoked and a card revoked by re-registration. A gap it may not cover reloads in full.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { RegistryCache } from '../src/app/registryCache.js';
import { loadRegistrySnapshot } from '../src/app/registrySnapshot.js';
import { catchUpRegistry, MAX_CATCH_UP_REVISIONS } from '../src/app/registryCatchUp.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { readRegistryRevision } from '../src/store/sql/registry.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { Harness, ORGANIZATION_ID, type Actor } from './support/harness.js';
import { revisedCard as revisedCardOf } from './support/revisedCards.js';

let db: TestDatabase;
let h: Harness;

beforeAll(async () => {
  db = await createTestDatabase();
  h = await Harness.start(db.pool);
});

/** The Agent's card again as version 2, `status` as given, its key revoked at `revokedAt` when given. */
function revisedCard(agent: Actor, status: 'active' | 'revoked', revokedAt?: string): JsonObject {
  return revisedCardOf(h, agent, status, revokedAt);
}

async function register(card: JsonObject): Promise<void> {
  await h.expectOk(h.send(h.registry, 'ext.missionweaveprotocol.registry.agent_card_register', { card }));
}

function sameSnapshot(a: Awaited<ReturnType<typeof loadRegistrySnapshot>>, b: Awaited<ReturnType<typeof loadRegistrySnapshot>>): void {
  expect(a.revision).toBe(b.revision);
  const byKey = (s: typeof a) => new Map(s.registry.evidence().bindings.map((binding) => [binding.keyId, binding]));
  expect(byKey(a)).toEqual(byKey(b));
  expect(new Map(a.agents)).toEqual(new Map(b.agents));
}

describe('catchUpRegistry', () => {
  it('given cards, keys and revocations registered elsewhere, when caught up by rows, then it equals a full reload at that revision', async () => {
    const keyRevoked = await h.agent('key-revoked');
    const cardRevoked = await h.agent('card-revoked');
    const earlier = await loadRegistrySnapshot(db.pool, ORGANIZATION_ID);
    // Elsewhere: two new Agents, a human key, a key revoked, a card revoked.
    const fresh = [await h.agent('fresh-1'), await h.agent('fresh-2')];
    await h.human('enrolled');
    await register(revisedCard(keyRevoked, 'active', h.now()));
    await register(revisedCard(cardRevoked, 'revoked'));
    const revision = await readRegistryRevision(db.pool, ORGANIZATION_ID);
    expect(revision - earlier.revision).toBeGreaterThanOrEqual(5);

    const caughtUp = await catchUpRegistry(db.pool, earlier, revision);
    const reloaded = await loadRegistrySnapshot(db.pool, ORGANIZATION_ID);
    expect(caughtUp).toBeDefined();
    sameSnapshot(caughtUp as typeof reloaded, reloaded);
    expect(caughtUp?.registry.resolve(keyRevoked.key.keyId)?.revokedAt).toBeDefined();
    expect(earlier.registry.resolve(keyRevoked.key.keyId)?.revokedAt).toBeUndefined();
    expect(caughtUp?.agents.get(cardRevoked.principal.id)?.status).toBe('revoked');
    for (const agent of fresh) expect(caughtUp?.registry.resolve(agent.key.keyId)?.principal.id).toBe(agent.principal.id);
  });

  it('given a copy at the current revision, a newer one, or one too far behind, when asked, then it leaves it to a full reload', async () => {
    const current = await loadRegistrySnapshot(db.pool, ORGANIZATION_ID);
    expect(await catchUpRegistry(db.pool, current, current.revision)).toBeUndefined();
    expect(await catchUpRegistry(db.pool, current, current.revision - 1)).toBeUndefined();
    expect(await catchUpRegistry(db.pool, { ...current, revision: current.revision - MAX_CATCH_UP_REVISIONS - 1 }, current.revision)).toBeUndefined();
  });

  it('given a RegistryCache behind the database, when ensured, then it holds the revision asked for, equal to a full reload', async () => {
    const cache = new RegistryCache(await loadRegistrySnapshot(db.pool, ORGANIZATION_ID), ORGANIZATION_ID);
    await h.agent('after-cache');
    const revision = await readRegistryRevision(db.pool, ORGANIZATION_ID);
    const ensured = await cache.ensure(db.pool, revision);
    expect(cache.current).toBe(ensured);
    sameSnapshot(ensured, await loadRegistrySnapshot(db.pool, ORGANIZATION_ID));
  });
});
