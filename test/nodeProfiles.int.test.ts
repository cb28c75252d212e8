/**
 * The node's code profiles (`app/nodeProfiles.ts`) on real PostgreSQL: Parley v1's document, as
 * `init` and `serve` sign it, passes the six-stage registration; registering again, or from two
 * starts at once, leaves exactly one document per major and fails neither start.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { listProfiles } from '../src/app/extensionProfiles.js';
import { codeProfileDocument, NODE_CODE_PROFILES, NODE_PROFILES, registerNodeProfiles } from '../src/app/nodeProfiles.js';
import { PARLEY_URI } from '../src/domain/parley/parleyProfile.js';
import type { TestDatabase } from './support/database.js';
import type { Harness, Actor } from './support/harness.js';
import { world } from './support/world.js';

let db: TestDatabase;
let h: Harness;
let first: Actor;
let second: Actor;

beforeAll(async () => {
  ({ db, h, first, second } = await world({ humans: { first: 'approver-1', second: 'approver-2' }, profiles: NODE_CODE_PROFILES }));
});

describe('the node registers its code profiles', () => {
  it('describes Parley v1 by its kinds and a hash of its payload schemas', () => {
    const [parley] = NODE_PROFILES;
    if (parley === undefined) throw new Error('no code profile');
    const document = codeProfileDocument(parley, first, h.now());
    expect(document).toMatchObject({
      profileUri: PARLEY_URI,
      version: '1.0.0',
      critical: true,
      commandKinds: ['ext.missionweave.parley.post', 'ext.missionweave.parley.claim'],
      eventKinds: ['ext.missionweave.parley.posted', 'ext.missionweave.parley.claimed'],
      overridesCoreInvariants: false,
    });
    expect(document['schemaHash']).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('stores one document per major when two starts race, and none again afterwards', async () => {
    const outcomes = await Promise.all([registerNodeProfiles(h.authority, db.pool, first), registerNodeProfiles(h.authority, db.pool, second)]);
    expect(outcomes.flat().length).toBeGreaterThanOrEqual(1);
    const rows = await listProfiles(db.pool, PARLEY_URI);
    expect(rows.map((row) => [row.version, row.majorVersion])).toEqual([['1.0.0', 1]]);
    expect(await registerNodeProfiles(h.authority, db.pool, first)).toEqual([]);
    expect((await listProfiles(db.pool, PARLEY_URI)).map((row) => row.signingHash)).toEqual(rows.map((row) => row.signingHash));
  });
});
