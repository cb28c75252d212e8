/**
 * disput v0 on a node (issue 15): registered as a code profile next to Parley, pinned by a
 * Mission as major 0, its turns run through the real pipeline on PostgreSQL. The log keeps each
 * turn file whole, a refusal carries `details.reason`, and the item state is folded from the
 * stored Events alone.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { listProfiles } from '../src/app/extensionProfiles.js';
import { codeProfileDocument, NODE_CODE_PROFILES, NODE_PROFILES, registerNodeProfiles } from '../src/app/nodeProfiles.js';
import { DISPUT_URI } from '../src/domain/disput/disputProfile.js';
import type { RecordedTurn } from '../src/domain/disput/disputTypes.js';
import { foldItems } from '../src/domain/disput/items.js';
import { PARLEY_URI } from '../src/domain/parley/parleyProfile.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import { configFor, submission, T1, T2, type Play } from './domain/disput/disputFixtures.js';
import type { TestDatabase } from './support/database.js';
import type { Harness, Actor } from './support/harness.js';
import { createMission, eventsOf, type MissionRefs } from './support/missions.js';
import { world } from './support/world.js';

const TURN = 'ext.missionweave.disput.turn';
let db: TestDatabase;
let h: Harness;
let owner: Actor;
let players: Record<string, Actor>;
let mission: MissionRefs;

beforeAll(async () => {
  ({ db, h, owner } = await world({ humans: { owner: 'owner' }, profiles: NODE_CODE_PROFILES }));
  const coordinator = await h.agent('coordinator');
  players = { claude: await h.agent('claude'), vibe: await h.agent('vibe'), codex: await h.agent('codex'), user: owner };
  await registerNodeProfiles(h.authority, db.pool, owner);
  mission = await createMission(h, owner, coordinator, { pinnedProfiles: [{ profileUri: DISPUT_URI, majorVersion: 0 }] });
  for (const [name, role] of [['claude', 'worker'], ['vibe', 'worker'], ['codex', 'reviewer']] as const) {
    await h.expectOk(h.send(owner, 'membership.change', { principal: { ...(players[name] as Actor).principal }, roles: [role] }, { groupId: mission.groupId, membershipEpoch: 1 }));
  }
});

function turn(play: Play, as: string = play.who) {
  const principals = Object.fromEntries(Object.entries(players).map(([name, actor]) => [name, actor.principal]));
  const sent = submission(play.config === undefined ? play : { ...play, config: configFor(principals) });
  return h.send(players[as] as Actor, TURN, sent as unknown as JsonObject, { groupId: mission.groupId, membershipEpoch: 1 });
}

describe('disput v0 on a node', () => {
  it('is registered next to Parley, as major 0, with its kinds', async () => {
    const entry = NODE_PROFILES.find((p) => p.profile.uri === DISPUT_URI);
    if (entry === undefined) throw new Error('disput is not a code profile');
    expect(codeProfileDocument(entry, owner, h.now())).toMatchObject({
      profileUri: DISPUT_URI,
      version: '0.1.0',
      commandKinds: [TURN],
      eventKinds: ['ext.missionweave.disput.config_pinned', 'ext.missionweave.disput.turn_recorded'],
      overridesCoreInvariants: false,
    });
    expect((await listProfiles(db.pool)).map((row) => [row.profileUri, row.majorVersion])).toEqual([
      [DISPUT_URI, 0],
      [PARLEY_URI, 1],
    ]);
  });

  it('records turns through the pipeline, refuses out of turn with details.reason, and folds items from the stored Events', async () => {
    await h.expectOk(turn(T1));
    const refused = await turn(T2, 'codex');
    expect(!refused.ok && [refused.error.code, refused.error.details?.['reason']]).toEqual(['AUTH_FORBIDDEN', 'participant_not_actor']);
    const early = await turn({ ...T2, who: 'codex' });
    expect(!early.ok && [early.error.code, early.error.details?.['reason'], early.error.details?.['participant']]).toEqual(['INVALID_STATE_TRANSITION', 'not_your_turn', 'vibe']);
    await h.expectOk(turn(T2));
    const again = await turn({ ...T2, items: [] });
    expect(!again.ok && again.error.details?.['reason']).toBe('turn_recorded');

    const stored = (await eventsOf(db.pool, mission.groupId)).filter((e) => e['kind'] === 'ext.missionweave.disput.turn_recorded');
    const payloads = stored.map((e) => e['payload'] as unknown as { fileName: string; text: string; turn: RecordedTurn });
    expect(payloads.map((p) => p.fileName)).toEqual(['0001-claude-implementer.md', '0002-vibe-reviewer.md']);
    expect(payloads[1]?.text).toBe(submission(T2).text);
    expect(foldItems(payloads.map((p) => p.turn)).map((i) => [i.id, i.status, i.author, i.to])).toEqual([
      ['I-0002-1', 'OUVERT', 'vibe', { kind: 'participant', name: 'claude' }],
      ['I-0002-2', 'OUVERT', 'vibe', { kind: 'participant', name: 'claude' }],
    ]);
  });
});
