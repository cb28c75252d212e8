/**
 * `artifact.publish` (§13.1, §11.3), given / when / then: the owner of an active WorkItem
 * publishes a signed manifest under its current Execution Lease, for content already stored whole,
 * with sources published here; and the Artifact rules of the kinds that read published Artifacts
 * (`work.submit`, `work.accept_result`: `workResults.unit.test.ts`; `mission.submit_for_approval`:
 * `missionLifecycle.unit.test.ts`). Possession (§13.3): the publisher uploaded the bytes, or may
 * read a Group that published them, and then the Event records the reuse.
 */

import { describe, expect, it } from 'vitest';
import type { GroupState } from '../../src/domain/kinds/groupState.js';
import { MAX_ARTIFACTS_PER_WORK_ITEM } from '../../src/domain/artifact/artifactLimits.js';
import type { ContentPublicationFacts, RecordedEvent } from '../../src/domain/model.js';
import type { Principal } from '../../src/protocol/principal.js';
import type { JsonObject } from '../../src/protocol/strictJson.js';
import { CONTENT_SIZE, GROUP, HASH_A, HASH_B, HASH_C, REVIEWER, WORK, WORKER, at, command, expectStateValid, groupSpec, stateOf } from './fixtures.js';
import { EXEC_EPOCH, EXEC_OLD_RUN_LEASE, EXEC_RUN_LEASE, execManifest, execState, publishedEvent } from './execFixtures.js';
import { CASES } from './kindCases.js';
import { ARTIFACT_REASONS } from '../../src/domain/artifact/artifactReasons.js';
import { WORK_REASONS } from '../../src/domain/workItem/workReasons.js';

const active = execState({ state: 'active' });

function publish(manifest: JsonObject = execManifest(HASH_C), extra: object = {}, actor: Principal = WORKER, from: GroupState = active.state, envelope: object = {}) {
  return command(from, actor, 'artifact.publish', { artifact: manifest, ownershipEpoch: EXEC_EPOCH, executionLeaseId: EXEC_RUN_LEASE, ...extra }, envelope);
}

describe('artifact.publish: the owner publishes under its current Execution Lease (§13.1, §11.3)', () => {
  it('records the manifest by content hash, with the WorkItem, epoch and lease it was published under', () => {
    const after = groupSpec.given(active.events).when(publish(execManifest(HASH_C, { sourceArtifactHashes: [HASH_A] }))).then(CASES['artifact.publish']!.events(active.state)) as GroupState;
    expect(after.artifacts.get(HASH_C)).toMatchObject({ contentHash: HASH_C, workItemId: WORK, ownershipEpoch: EXEC_EPOCH, executionLeaseId: EXEC_RUN_LEASE, publishedAt: at(0), revision: 1 });
    expect(after.artifacts.get(HASH_C)?.manifest.sourceArtifactHashes).toEqual([HASH_A]);
    expectStateValid(after);
  });

  it('needs the content stored whole first, with the size the manifest states (INVALID_COMMAND)', () => {
    groupSpec.given(active.events).when(publish(), { contents: [] }).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactContentNotStored);
    groupSpec.given(active.events).when(publish(execManifest(HASH_C, { sizeBytes: CONTENT_SIZE + 1 }))).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactSizeMismatch);
  });

  it('publishes a content hash once: the hash is the identity, whatever the URI (INVALID_STATE_TRANSITION, INVALID_COMMAND)', () => {
    groupSpec.given(active.events).when(publish(execManifest(HASH_A, { uri: 'https://elsewhere.example/a', artifactId: 'urn:x:other' }))).thenFails('INVALID_STATE_TRANSITION', ARTIFACT_REASONS.artifactAlreadyPublished);
    groupSpec.given(active.events).when(publish(execManifest(HASH_C, { artifactId: execManifest(HASH_A)['artifactId'] }))).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactIdTaken);
  });

  it('closes the provenance graph: every source is published in this Group and no less restricted (INVALID_COMMAND)', () => {
    const unknownSource = `sha256:${'d'.repeat(64)}`;
    groupSpec.given(active.events).when(publish(execManifest(HASH_C, { sourceArtifactHashes: [HASH_A, unknownSource] }))).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactSourceUnpublished);
    const secret = [...execState({ state: 'active' }).events.filter((e) => e.kind !== 'artifact.published')];
    const withSecret = [...secret, publishedEvent(secret, execManifest(HASH_A, { classification: 'restricted' }))];
    groupSpec.given(withSecret).when(publish(execManifest(HASH_C, { sourceArtifactHashes: [HASH_A], classification: 'confidential' }), {}, WORKER, stateOf(withSecret))).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactClassificationDowngrade);
  });

  it('names this Mission, Group and WorkItem, and its producer is the owner at its current Agent Card version', () => {
    groupSpec.given(active.events).when(publish(execManifest(HASH_C, { groupId: 'urn:x:other-group' }))).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactOtherMission);
    groupSpec.given(active.events).when(publish(execManifest(HASH_C, { missionId: 'urn:x:other-mission' }))).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactOtherMission);
    groupSpec.given(active.events).when(publish(execManifest(HASH_C, { workItemId: 'urn:x:none' }))).thenFails('INVALID_COMMAND', 'work-item-unknown');
    groupSpec.given(active.events).when(publish(execManifest(HASH_C, { producer: { agentId: REVIEWER.id, agentCardVersion: 3, capabilities: [{ id: 'acme.sql-migration', version: '1.4.0' }] } }))).thenFails('AUTH_FORBIDDEN', ARTIFACT_REASONS.artifactProducerNotOwner);
    groupSpec.given(active.events).when(publish(execManifest(HASH_C, { producer: { agentId: WORKER.id, agentCardVersion: 2, capabilities: [{ id: 'acme.sql-migration', version: '1.4.0' }] } }))).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactCardVersion);
  });

  it('is the current owner’s alone, under its current epoch and live Execution Lease, on an active WorkItem (§11.3, §11.5)', () => {
    groupSpec.given(active.events).when(publish(execManifest(HASH_C), {}, REVIEWER)).thenFails('AUTH_FORBIDDEN', WORK_REASONS.notTheOwner);
    groupSpec.given(active.events).when(publish(execManifest(HASH_C), { ownershipEpoch: EXEC_EPOCH - 1 })).thenFails('WORK_STALE_OWNERSHIP', 'ownership-epoch-stale');
    groupSpec.given(active.events).when(publish(execManifest(HASH_C), { executionLeaseId: EXEC_OLD_RUN_LEASE })).thenFails('WORK_LEASE_EXPIRED', 'execution-lease-not-current');
    groupSpec.given(active.events).when(publish(), { now: at(301) }).thenFails('WORK_LEASE_EXPIRED', 'execution-lease-expired');
    const queued = execState({ state: 'queued' });
    groupSpec.given(queued.events).when(publish(execManifest(HASH_C), { executionLeaseId: EXEC_OLD_RUN_LEASE }, WORKER, queued.state)).thenFails('INVALID_STATE_TRANSITION', WORK_REASONS.workItemState);
  });

  it(`stops a WorkItem at ${MAX_ARTIFACTS_PER_WORK_ITEM} Artifacts (RATE_LIMITED)`, () => {
    const many: RecordedEvent[] = [...active.events];
    for (let i = many.filter((e) => e.kind === 'artifact.published').length; i < MAX_ARTIFACTS_PER_WORK_ITEM; i += 1) {
      const hash = `sha256:${i.toString(16).padStart(64, '0')}`;
      many.push(publishedEvent(many, execManifest(hash, { artifactId: `urn:x:artifact:${i}` })));
    }
    groupSpec.given(many).when(publish(execManifest(HASH_C), {}, WORKER, stateOf(many))).thenFails('RATE_LIMITED', ARTIFACT_REASONS.artifactsPerWorkItem);
  });

  it('keeps the published Artifacts of the Group in its state rows (one `artifact` row per hash)', () => {
    const after = groupSpec.given(active.events).when(publish()).then(CASES['artifact.publish']!.events(active.state).map((e) => ({ ...e, payload: { ...(e.payload as object), artifact: execManifest(HASH_C) } }))) as GroupState;
    expect([...after.artifacts.keys()].sort()).toEqual([HASH_A, HASH_B, HASH_C]);
    expect(after.groupId).toBe(GROUP);
  });
});

describe('artifact.publish: the publisher holds the content (§4.9, §13.3)', () => {
  const SOURCE: ContentPublicationFacts = {
    groupId: 'urn:missionweave:group:other-mission',
    eventId: 'urn:missionweave:event:published-there',
    publishedSequence: 5,
    classification: 'internal',
    memberships: new Map([[WORKER.id, { state: 'active', visibilityStartSequence: 0 }]]),
  };
  const storedOnly = { contentHash: HASH_C, sizeBytes: CONTENT_SIZE };
  const reading = (source: Partial<ContentPublicationFacts>) => ({ contents: [{ ...storedOnly, publications: [{ ...SOURCE, ...source }] }] });

  it('refuses content stored but neither uploaded by the publisher nor readable to it, as content never stored', () => {
    groupSpec.given(active.events).when(publish(), { contents: [storedOnly] }).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactContentNotStored);
    groupSpec.given(active.events).when(publish(), { contents: [{ ...storedOnly, heldBy: new Set([REVIEWER.id]) }] }).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactContentNotStored);
  });

  it('publishes content read in another Mission as a reuse that names the source publication', () => {
    const expected = CASES['artifact.publish']!.events(active.state).map((e) => ({ ...e, payload: { ...(e.payload as object), artifact: execManifest(HASH_C), reusedFrom: { groupId: SOURCE.groupId, eventId: SOURCE.eventId } } }));
    const after = groupSpec.given(active.events).when(publish(), reading({})).then(expected) as GroupState;
    expect(after.artifacts.get(HASH_C)?.reusedFrom).toEqual({ groupId: SOURCE.groupId, eventId: SOURCE.eventId });
  });

  it('needs the read rule of the source Group: an active Membership whose visibility reaches the publication', () => {
    groupSpec.given(active.events).when(publish(), reading({ memberships: new Map([[WORKER.id, { state: 'ended', visibilityStartSequence: 0 }]]) })).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactContentNotStored);
    groupSpec.given(active.events).when(publish(), reading({ memberships: new Map([[WORKER.id, { state: 'active', visibilityStartSequence: 6 }]]) })).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactContentNotStored);
    groupSpec.given(active.events).when(publish(), reading({ memberships: new Map([[REVIEWER.id, { state: 'active', visibilityStartSequence: 0 }]]) })).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactContentNotStored);
  });

  it('never makes a reused Artifact less restricted than its source', () => {
    groupSpec.given(active.events).when(publish(), reading({ classification: 'confidential' })).thenFails('INVALID_COMMAND', ARTIFACT_REASONS.artifactReuseClassificationDowngrade);
  });
});
