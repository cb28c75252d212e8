/**
 * The read API over real TLS (docs/human-api.md): a human signed in with their key reads what
 * their Memberships allow — their Groups, a Group's Events, its view and Mission tree, and a
 * live event stream that resumes with Last-Event-ID and ends with `refused` when the Membership
 * ends — through the same read rule as Agents. A human without a Membership is told the Group
 * does not exist, exactly as for a missing one; a late joiner gets the limited view; a full
 * stream bound refuses with RATE_LIMITED; an Agent's HELLO token reads the same way; an
 * archived Group's signed final snapshot is served to its readers. The root MissionOwner reads the
 * Groups of the child and grandchild Missions below its own (§14) as a member with complete
 * visibility would; nobody else does.
 */

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveGroup } from '../src/app/archiveGroup.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import { httpStatusOf } from '../src/protocol/errorCodes.js';
import { verifySignedDocument } from '../src/protocol/signing/verifySignedDocument.js';
import type { Actor } from './support/harness.js';
import { httpJson, signIn, SseReader } from './support/humanReader.js';
import { childMission, createMission, type MissionRefs } from './support/missions.js';
import { activeWork, publishedArtifact, WORKER_CAPABILITIES } from './support/publishedWork.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let coordinator: Actor;
let mission: MissionRefs;
const humans: Record<'stranger' | 'late' | 'leaver', Actor> = {} as never;
const tokens: Record<'owner' | 'stranger' | 'late' | 'leaver', string> = {} as never;
const open: SseReader[] = [];

const groupPath = (what: string, groupId = mission.groupId) => `/v1/groups/${encodeURIComponent(groupId)}/${what}`;

function post(content: string) {
  return server.harness.expectOk(server.harness.send(owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content }, { groupId: mission.groupId, membershipEpoch: 1 }));
}

function grant(human: Actor, visibility: { visibilityAfterSequence?: number } = {}) {
  return server.harness.expectOk(server.harness.send(owner, 'membership.change', { principal: { ...human.principal }, roles: ['observer'], ...visibility }, { groupId: mission.groupId, membershipEpoch: 1 }));
}

async function stream(token: string | undefined, query = '', headers: Record<string, string> = {}, groupId = mission.groupId): Promise<SseReader & { body?: string }> {
  const reader = await SseReader.open(server, groupPath(`stream${query}`, groupId), token, headers);
  open.push(reader);
  return reader;
}

beforeAll(async () => {
  ({ server, owner, coordinator, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
    limits: { streamHeartbeatMs: 300, maxStreamsPerReader: 3 },
  }));
  for (const handle of ['stranger', 'late', 'leaver'] as const) humans[handle] = await server.harness.human(handle);
  await grant(humans.leaver, { visibilityAfterSequence: 0 });
  await post('before the late joiner');
  await grant(humans.late);
  await post('after the late joiner');
  tokens.owner = (await signIn(server, owner)).token;
  for (const handle of ['stranger', 'late', 'leaver'] as const) tokens[handle] = (await signIn(server, humans[handle])).token;
});

afterAll(() => {
  for (const reader of open) reader.close();
});

describe('a human with a Membership', () => {
  it('lists their Groups', async () => {
    const me = await httpJson(server, 'GET', '/v1/me', { token: tokens.owner });
    expect(me.status).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
    expect(me.body).toEqual({
      principal: owner.principal,
      groups: [{ groupId: mission.groupId, missionId: mission.missionId, title: 'Migrate billing to the ledger', missionState: 'active', role: 'mission_owner', membershipState: 'active', membershipEpoch: 1, parentMissionId: null }],
      truncated: false,
    });
  });

  it('reads the Events as stored, page by page', async () => {
    const page = await httpJson(server, 'GET', `${groupPath('events')}?after=0&limit=2`, { token: tokens.owner });
    expect(page.status).toBe(200);
    expect(page.body.events.map((e: { sequence: number }) => e.sequence)).toEqual([1, 2]);
    expect(page.body.events[0]).toMatchObject({ kind: 'mission.created', groupId: mission.groupId, signature: { algorithm: 'Ed25519' } });
    const rest = await httpJson(server, 'GET', `${groupPath('events')}?after=2`, { token: tokens.owner });
    const last = rest.body.events.at(-1).sequence as number;
    expect(rest.body.lastSequence).toBe(last);
    expect((await httpJson(server, 'GET', `${groupPath('events')}?after=${last}`, { token: tokens.owner })).body).toEqual({ events: [], lastSequence: last });
    const malformed = await httpJson(server, 'GET', `${groupPath('events')}?limit=lots`, { token: tokens.owner });
    expect({ status: malformed.status, code: malformed.body.error.code }).toEqual({ status: 400, code: 'PROTOCOL_VIOLATION' });
  });

  it('reads the view of the Group', async () => {
    const view = await httpJson(server, 'GET', groupPath('view'), { token: tokens.owner });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      groupId: mission.groupId,
      viewer: { principal: owner.principal, role: 'mission_owner', limited: false, visibilityStartSequence: 0 },
      group: { state: 'active', mainConversationId: mission.mainConversationId },
      mission: { missionId: mission.missionId, state: 'active', revision: 1, coordinator: { agentId: coordinator.principal.id } },
      missionNotes: { title: 'Migrate billing to the ledger' },
      pendingApproval: null,
      coordinatorLease: { leaseType: 'coordinator', holderAgentId: coordinator.principal.id, state: 'active' },
      workItems: [],
      artifacts: [],
      budgets: [
        { dimension: 'financialMicrounits', limit: 500_000_000, used: 0, remaining: 500_000_000, currency: 'EUR' },
        { dimension: 'modelTokens', limit: 1_000_000, used: 0, remaining: 1_000_000, currency: null },
      ],
      presence: [{ agentId: coordinator.principal.id, connected: false, record: null }],
    });
    const members = view.body.memberships.map((m: { member: { id: string } }) => m.member.id).sort();
    expect(members).toEqual([owner, coordinator, humans.late, humans.leaver].map((a) => a.principal.id).sort());
    expect(view.body.conversations.map((c: { conversationId: string }) => c.conversationId)).toEqual([mission.mainConversationId]);
    const events = await httpJson(server, 'GET', groupPath('events'), { token: tokens.owner });
    expect(view.body.lastSequence).toBe(events.body.lastSequence);
  });

  it('reads the Mission tree', async () => {
    const tree = await httpJson(server, 'GET', groupPath('mission-tree'), { token: tokens.owner });
    expect(tree.status).toBe(200);
    expect(tree.body).toMatchObject({ rootMissionId: mission.missionId, truncated: false, missions: [{ missionId: mission.missionId, children: [] }] });
  });

  it('gives a late joiner the limited view and only the Events from its visibility on', async () => {
    const view = await httpJson(server, 'GET', groupPath('view'), { token: tokens.late });
    expect(view.body.viewer).toMatchObject({ principal: humans.late.principal, role: 'observer', limited: true });
    expect(view.body.memberships.map((m: { member: { id: string } }) => m.member.id)).toEqual([humans.late.principal.id]);
    expect(view.body.presence.map((p: { agentId: string }) => p.agentId)).toEqual([coordinator.principal.id]);
    const events = await httpJson(server, 'GET', `${groupPath('events')}?after=0`, { token: tokens.late });
    const start = view.body.viewer.visibilityStartSequence as number;
    expect(start).toBeGreaterThan(1);
    expect(events.body.events[0].sequence).toBe(start);
  });
});

describe('live Events', () => {
  it('streams a new Event, beats, and resumes after a cut with Last-Event-ID', async () => {
    const head = (await httpJson(server, 'GET', groupPath('events'), { token: tokens.owner })).body.lastSequence as number;
    const live = await stream(tokens.owner, `?after=${head}`);
    expect(live.status).toBe(200);
    expect(live.headers['content-type']).toBe('text/event-stream');
    await post('live one');
    await live.until((r) => r.frames.length >= 1);
    const [first] = live.frames;
    expect(first).toMatchObject({ id: String(head + 1), event: 'event' });
    expect(JSON.parse(first?.data ?? '{}')).toMatchObject({ sequence: head + 1, kind: 'message.posted', groupId: mission.groupId });
    await live.until((r) => r.comments >= 3);
    live.close();
    await post('while away');
    const resumed = await stream(tokens.owner, '', { 'last-event-id': String(head + 1) });
    await resumed.until((r) => r.frames.length >= 1);
    expect(resumed.frames.map((f) => f.id)).toEqual([String(head + 2)]);
    resumed.close();
  });

  it('ends with `refused` when the Membership ends', async () => {
    const live = await stream(tokens.leaver);
    await live.until((r) => r.frames.length >= 1);
    await server.harness.expectOk(server.harness.send(owner, 'membership.end', { principal: { ...humans.leaver.principal } }, { groupId: mission.groupId, membershipEpoch: 1 }));
    await live.until((r) => r.ended);
    const refused = live.frames.at(-1);
    expect(refused?.event).toBe('refused');
    expect(JSON.parse(refused?.data ?? '{}').error).toMatchObject({ code: 'MEMBERSHIP_REQUIRED', groupId: mission.groupId });
  });

  it('ends with `refused` AUTH_REQUIRED when the session ends', async () => {
    const session = await signIn(server, owner);
    const live = await stream(session.token);
    await live.until((r) => r.frames.length >= 1);
    expect((await httpJson(server, 'DELETE', '/v1/human-sessions/current', { token: session.token })).status).toBe(204);
    await live.until((r) => r.ended);
    const refused = live.frames.at(-1);
    expect({ event: refused?.event, code: JSON.parse(refused?.data ?? '{}').error?.code }).toEqual({ event: 'refused', code: 'AUTH_REQUIRED' });
  });

  it('refuses a stream beyond the reader’s bound with RATE_LIMITED', async () => {
    const held = [await stream(tokens.owner), await stream(tokens.owner), await stream(tokens.owner)];
    expect(held.map((r) => r.status)).toEqual([200, 200, 200]);
    const refused = await stream(tokens.owner);
    expect({ status: refused.status, code: JSON.parse(refused.body ?? '{}').error.code }).toEqual({ status: httpStatusOf('RATE_LIMITED'), code: 'RATE_LIMITED' });
    for (const reader of held) reader.close();
    // A closed stream gives its slot back.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await stream(tokens.owner);
    expect(again.status).toBe(200);
    again.close();
  });
});

describe('the archival Group Snapshot (§7.4)', () => {
  it('is served to a human reader, at its hash and as the Group’s archive, signed by the Group Authority; a stranger is told it does not exist', async () => {
    const h = server.harness;
    const ended = await createMission(h, owner, await h.agent('archive-coordinator'));
    await h.expectOk(h.send(owner, 'mission.cancel', { reason: 'called off' }, { groupId: ended.groupId, membershipEpoch: 1 }));
    const { snapshotHash } = await archiveGroup(h.authority, h.pool, ended.groupId);

    const byHash = await httpJson(server, 'GET', groupPath(`snapshots/${snapshotHash}`, ended.groupId), { token: tokens.owner });
    expect(byHash.status, byHash.text).toBe(200);
    expect(sha256ContentHash(byHash.text)).toBe(snapshotHash);
    const archive = await httpJson(server, 'GET', groupPath('archive', ended.groupId), { token: tokens.owner });
    expect(archive.status, archive.text).toBe(200);
    expect(archive.text).toBe(byHash.text);
    const verified = verifySignedDocument('group-snapshot', Buffer.from(JSON.stringify(archive.body.snapshot)), h.authority.registry.current.registry, h.authority.schemas);
    expect(verified.ok && verified.verified.principal).toEqual(h.settings.services.authority);

    for (const path of [groupPath(`snapshots/${snapshotHash}`, ended.groupId), groupPath('archive', ended.groupId), groupPath('archive')]) {
      const hidden = await httpJson(server, 'GET', path, { token: path === groupPath('archive') ? tokens.owner : tokens.stranger });
      expect({ path, status: hidden.status, code: hidden.body.error.code }).toEqual({ path, status: httpStatusOf('GROUP_NOT_FOUND'), code: 'GROUP_NOT_FOUND' });
    }
  });
});

describe('a reader without a Membership or a session', () => {
  it('is told the Group does not exist, exactly as for a missing Group', async () => {
    const missing = 'urn:missionweave:group:nowhere';
    for (const what of ['events', 'view', 'mission-tree']) {
      const hidden = await httpJson(server, 'GET', groupPath(what), { token: tokens.stranger });
      const absent = await httpJson(server, 'GET', groupPath(what, missing), { token: tokens.stranger });
      expect({ what, status: hidden.status, code: hidden.body.error.code }).toEqual({ what, status: httpStatusOf('GROUP_NOT_FOUND'), code: 'GROUP_NOT_FOUND' });
      expect({ status: absent.status, code: absent.body.error.code, message: absent.body.error.message }).toEqual({ status: hidden.status, code: hidden.body.error.code, message: hidden.body.error.message });
    }
    const hiddenStream = await stream(tokens.stranger);
    expect({ status: hiddenStream.status, code: JSON.parse(hiddenStream.body ?? '{}').error.code }).toEqual({ status: httpStatusOf('GROUP_NOT_FOUND'), code: 'GROUP_NOT_FOUND' });
    expect((await httpJson(server, 'GET', '/v1/me', { token: tokens.stranger })).body.groups).toEqual([]);
  });

  it('needs a live session token', async () => {
    for (const token of [undefined, 'bogus-token']) {
      for (const path of ['/v1/me', groupPath('events'), groupPath('view'), groupPath('mission-tree')]) {
        const answer = await httpJson(server, 'GET', path, token === undefined ? {} : { token });
        expect({ path, status: answer.status, code: answer.body.error.code }).toEqual({ path, status: httpStatusOf('AUTH_REQUIRED'), code: 'AUTH_REQUIRED' });
      }
      const refused = await stream(token);
      expect(refused.status).toBe(httpStatusOf('AUTH_REQUIRED'));
    }
  });
});

describe('an Agent’s HELLO session', () => {
  it('reads through the same rule', async () => {
    const client = await RawClient.open(server.url, server.ca);
    await client.hello(coordinator);
    const me = await httpJson(server, 'GET', '/v1/me', { token: client.sessionToken });
    expect(me.body.groups).toEqual([expect.objectContaining({ groupId: mission.groupId, role: 'coordinator', membershipState: 'active', membershipEpoch: 1 })]);
    const view = await httpJson(server, 'GET', groupPath('view'), { token: client.sessionToken });
    expect(view.body.viewer).toMatchObject({ principal: coordinator.principal, role: 'coordinator' });
    expect(view.body.presence).toEqual([expect.objectContaining({ agentId: coordinator.principal.id, connected: true })]);
    client.close();
  });
});

describe('the root MissionOwner, below its Mission (§14)', () => {
  let child: MissionRefs;
  let grandchild: MissionRefs;
  let childCoordinator: Actor;
  let contentHash: string;

  beforeAll(async () => {
    const h = server.harness;
    // The Coordinator said HELLO above: it acts under a Session Epoch of its own again.
    await h.openSession(coordinator);
    childCoordinator = await h.agent('child-coordinator');
    const worker = await h.agent('worker', WORKER_CAPABILITIES);
    child = await childMission(h, mission, coordinator, childCoordinator);
    grandchild = await childMission(h, child, childCoordinator, await h.agent('grandchild-coordinator'), 4, 5);
    const work = await activeWork(h, child, { owner: coordinator, coordinator: childCoordinator, worker }, { financialLimit: 5, deadlineSeconds: 3600 });
    contentHash = await publishedArtifact(h, work, 'the child’s draft of the ledger schema');
  });

  it('reads a grandchild’s Events and view as a member with complete visibility', async () => {
    const events = await httpJson(server, 'GET', `${groupPath('events', grandchild.groupId)}?after=0`, { token: tokens.owner });
    expect(events.status).toBe(200);
    expect(events.body.events[0]).toMatchObject({ sequence: 1, kind: 'mission.created', groupId: grandchild.groupId });
    const view = await httpJson(server, 'GET', groupPath('view', grandchild.groupId), { token: tokens.owner });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      groupId: grandchild.groupId,
      lastSequence: events.body.lastSequence,
      mission: { missionId: grandchild.missionId, missionOwner: childCoordinator.principal },
      viewer: { principal: owner.principal, role: 'ancestor_mission_owner', visibilityStartSequence: 0, limited: false, via: { groupId: mission.groupId, missionId: mission.missionId, membershipEpoch: 1 } },
    });
    // The reader's own Groups are the Groups it holds Memberships in; the tree reaches the rest.
    const own = (await httpJson(server, 'GET', '/v1/me', { token: tokens.owner })).body.groups.map((g: { groupId: string }) => g.groupId);
    expect(own).toContain(mission.groupId);
    expect(own).not.toContain(child.groupId);
    expect(own).not.toContain(grandchild.groupId);
  });

  it('follows a child Group live over the stream', async () => {
    const head = (await httpJson(server, 'GET', groupPath('events', child.groupId), { token: tokens.owner })).body.lastSequence as number;
    const live = await stream(tokens.owner, '', {}, child.groupId);
    expect(live.status).toBe(200);
    await live.until((r) => r.frames.length >= head);
    await server.harness.expectOk(server.harness.send(childCoordinator, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: child.mainConversationId, content: 'schema ported' }, { groupId: child.groupId, membershipEpoch: 1 }));
    await live.until((r) => r.frames.length >= head + 1);
    expect(JSON.parse(live.frames.at(-1)?.data ?? '{}')).toMatchObject({ sequence: head + 1, kind: 'message.posted', groupId: child.groupId });
    live.close();
  });

  it('reads the whole tree from any of its Groups, and a child’s Artifacts', async () => {
    for (const from of [mission, child]) {
      const tree = await httpJson(server, 'GET', groupPath('mission-tree', from.groupId), { token: tokens.owner });
      expect(tree.status).toBe(200);
      expect(tree.body.missions.map((m: { missionId: string }) => m.missionId)).toEqual((from === mission ? [mission, child, grandchild] : [child, grandchild]).map((m) => m.missionId));
    }
    const content = await httpJson(server, 'GET', `/v1/artifacts/${contentHash}`, { token: tokens.owner });
    expect({ status: content.status, text: content.text }).toEqual({ status: 200, text: 'the child’s draft of the ledger schema' });
    const provenance = await httpJson(server, 'GET', groupPath(`artifacts/${contentHash}/provenance`, child.groupId), { token: tokens.owner });
    expect(provenance.status).toBe(200);
    expect(provenance.body).toMatchObject({ groupId: child.groupId, contentHash, artifacts: [{ contentHash, depth: 0 }] });
  });

  it('is the only one: an unrelated human, and a member of the root Group who owns nothing, are told the Groups do not exist', async () => {
    for (const token of [tokens.stranger, tokens.late]) {
      for (const what of ['events', 'view', 'mission-tree', `artifacts/${contentHash}/provenance`]) {
        const hidden = await httpJson(server, 'GET', groupPath(what, child.groupId), { token });
        expect({ what, status: hidden.status, code: hidden.body.error.code }).toEqual({ what, status: httpStatusOf('GROUP_NOT_FOUND'), code: 'GROUP_NOT_FOUND' });
      }
      const hiddenStream = await stream(token, '', {}, grandchild.groupId);
      expect({ status: hiddenStream.status, code: JSON.parse(hiddenStream.body ?? '{}').error.code }).toEqual({ status: httpStatusOf('GROUP_NOT_FOUND'), code: 'GROUP_NOT_FOUND' });
      expect((await httpJson(server, 'GET', `/v1/artifacts/${contentHash}`, { token })).status).toBe(httpStatusOf('GROUP_NOT_FOUND'));
    }
  });
});
