/**
 * Parley's limits bound its slice (parleyLimits.ts), and Parley is an Extension Profile (§18):
 * its kinds live in its namespace and every core check runs before its decide.
 */

import { describe, expect, it } from 'vitest';
import { profileSchemaDocuments, schemaRegistryWith } from '../../../src/app/profiles.js';
import { profileEntries } from '../../../src/domain/kinds/profile.js';
import { parleyManifest } from '../../../src/domain/parley/manifest.js';
import { parleyLimits } from '../../../src/domain/parley/parleyLimits.js';
import { PARLEY_NAMESPACE, parleyProfile } from '../../../src/domain/parley/parleyProfile.js';
import type { RecordedEvent } from '../../../src/domain/model.js';
import { COORD2, envelope, history, steps, WORKER as MEMBER } from '../fixtures.js';
import { ASKED, GROUP_EVENTS, OWNER, POST, WORKER, WORKER2, parley, parleySpec, say, sliceOf, talk, when, type Turn } from './parleyFixtures.js';
import { GROUP_REASONS } from '../../../src/domain/group/groupReasons.js';
import { buildKindRegistry } from '../../../src/domain/coreModules.js';

describe('Parley limits', () => {
  it('are published in the manifest, every one a positive number', () => {
    expect(parleyManifest().limits).toEqual(parleyLimits);
    for (const value of Object.values(parleyLimits)) expect(value).toBeGreaterThan(0);
    expect(parleyLimits.bodyMaxChars).toBe(500);
  });

  it('bound the replies\' depth', () => {
    const turns: Turn[] = [];
    for (let n = 1; n <= parleyLimits.maxDepth; n++) turns.push([n % 2 === 1 ? WORKER2 : WORKER, say('clarify', `step ${n}`, { parent: n })]);
    const deep: RecordedEvent[] = talk(ASKED, ...turns);
    expect(sliceOf(deep).messages[String(parleyLimits.maxDepth + 1)]?.depth).toBe(parleyLimits.maxDepth);
    const next = parleyLimits.maxDepth + 1;
    when(deep, next % 2 === 1 ? WORKER2 : WORKER, say('clarify', 'one more', { parent: next })).thenFails('INVALID_COMMAND', 'parley_limit');
  });

  it('bound the messages of a thread', () => {
    const turns: Turn[] = [];
    for (let n = 1; n < parleyLimits.maxMessagesPerThread; n++) turns.push([n % 2 === 1 ? WORKER2 : WORKER, say('answer', `a${n}`, { parent: 1 }, `x${n}`)]);
    const full = talk(ASKED, ...turns);
    expect(sliceOf(full).threads['1']?.messages).toHaveLength(parleyLimits.maxMessagesPerThread);
    when(full, OWNER, say('answer', 'one too many', { parent: 1 })).thenFails('INVALID_COMMAND', 'parley_limit');
  });

  it('bound the threads of a Group', () => {
    const turns: Turn[] = [];
    for (let n = 0; n < parleyLimits.maxThreads; n++) turns.push([WORKER, say('ask', `q${n}`)]);
    const full = talk(GROUP_EVENTS, ...turns);
    when(full, WORKER, say('ask', 'one too many')).thenFails('INVALID_COMMAND', 'parley_limit');
  }, 60_000);
});

describe('the manifest', () => {
  it('names every refusal with the §19 code it travels under, the inbox\'s invalid_cursor and invalid_since among them', () => {
    const { refusals, profiles } = parleyManifest();
    expect(refusals).toEqual({
      invalid_body: 'SCHEMA_VALIDATION_FAILED',
      thread_authority_missing: 'AUTH_FORBIDDEN',
      token_right_missing: 'AUTH_FORBIDDEN',
      thread_closed: 'INVALID_STATE_TRANSITION',
      thread_ended: 'INVALID_STATE_TRANSITION',
      not_forward: 'INVALID_STATE_TRANSITION',
      too_many_steps: 'INVALID_STATE_TRANSITION',
      not_ended: 'INVALID_STATE_TRANSITION',
      nothing_to_confirm: 'INVALID_STATE_TRANSITION',
      self_reply: 'INVALID_COMMAND',
      unknown_thread: 'INVALID_COMMAND',
      unknown_parent: 'INVALID_COMMAND',
      parley_limit: 'INVALID_COMMAND',
      invalid_cursor: 'INVALID_COMMAND',
      invalid_since: 'INVALID_COMMAND',
    });
    expect(profiles.dialectic.refusals).toEqual({
      claim_settled: 'INVALID_STATE_TRANSITION',
      claim_expired: 'INVALID_STATE_TRANSITION',
      claim_unsupported: 'INVALID_STATE_TRANSITION',
      self_attest: 'INVALID_COMMAND',
      already_attested: 'INVALID_COMMAND',
      self_verify: 'INVALID_COMMAND',
      unknown_claim: 'INVALID_COMMAND',
    });
  });
});

describe('Parley as an Extension Profile', () => {
  it('declares its kinds inside ext.<organization>.parley.', () => {
    expect(PARLEY_NAMESPACE).toBe('ext.missionweave.parley.');
    expect(profileEntries(parleyProfile).map((k) => k.kind)).toEqual(['ext.missionweave.parley.post', 'ext.missionweave.parley.claim']);
  });

  it('registers as the app registers profiles: its payload schemas compile with the core ones', () => {
    const documents = profileSchemaDocuments([parleyProfile]);
    expect(documents.map((d) => d.name)).toEqual(['ext.missionweave.parley.post', 'ext.missionweave.parley.claim']);
    expect(() => schemaRegistryWith(documents)).not.toThrow();
    expect(buildKindRegistry([parleyProfile]).groupKind('ext.missionweave.parley.post')?.kind).toBe('ext.missionweave.parley.post');
  }, 60_000);

  it('runs the core checks first: a Principal without Membership is refused before Parley reads the envelope', () => {
    const cmd = envelope(POST, COORD2, { kind: 'nonsense' }, { sessionEpoch: 1 });
    const refusal = parleySpec.given(GROUP_EVENTS).when(cmd).decision;
    expect(refusal.ok).toBe(false);
    // A non-member does not even learn that the Group exists (the core's answer, not Parley's).
    expect(!refusal.ok && refusal.error.code).toBe('GROUP_NOT_FOUND');
  });

  it('is refused in a Group that has not pinned it (§18 UNKNOWN_CRITICAL_EXTENSION)', () => {
    const unpinned = history([steps.create, steps.addMember(MEMBER)]);
    parleySpec.given(unpinned).when(parley(unpinned, MEMBER, say('ask', 'Anyone?'))).thenFails('UNKNOWN_CRITICAL_EXTENSION', GROUP_REASONS.profileNotPinned);
  });
});
