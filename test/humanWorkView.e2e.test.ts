/**
 * What a human reviewer sees of finished work over real TLS (docs/human-api.md "View shape"): the
 * view's WorkItem lines with owner, leases and usage, the published Artifacts, and the revision
 * and Artifact set awaiting approval; and the Artifact content and provenance read with the
 * human session token, as Agents read them — refused to a human without a Membership exactly as
 * for missing content.
 */

import { randomUUID } from 'node:crypto';
import { request } from 'node:https';
import { beforeAll, expect, it } from 'vitest';
import { httpStatusOf } from '../src/protocol/errorCodes.js';
import type { Actor } from './support/harness.js';
import { httpJson, signIn } from './support/humanReader.js';
import { createMission, type MissionRefs } from './support/missions.js';
import { acceptedResult, WORKER_CAPABILITIES } from './support/publishedWork.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let mission: MissionRefs;
let hashes: string[];
let ownerToken: string;
let strangerToken: string;
const contents = [`migration ${randomUUID()}`, `report ${randomUUID()}`];

beforeAll(async () => {
  server = await startTestServer();
  const h = server.harness;
  const owner: Actor = await h.human('owner');
  const coordinator = await h.agent('coordinator');
  const worker = await h.agent('worker', WORKER_CAPABILITIES);
  mission = await createMission(h, owner, coordinator);
  hashes = await acceptedResult(h, mission, { owner, coordinator, worker }, contents);
  await h.expectOk(h.send(coordinator, 'mission.submit_for_approval', { artifactHashes: hashes }, { groupId: mission.groupId, membershipEpoch: 1, coordinatorEpoch: 1 }));
  ownerToken = (await signIn(server, owner)).token;
  strangerToken = (await signIn(server, await h.human('stranger'))).token;
});

function download(path: string, token: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.httpsUrl), { method: 'GET', ca: server.ca, headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

it('shows the work, its Artifacts and what awaits approval', async () => {
  const view = await httpJson(server, 'GET', `/v1/groups/${encodeURIComponent(mission.groupId)}/view`, { token: ownerToken });
  expect(view.status).toBe(200);
  const { mission: m, pendingApproval, workItems, artifacts, budgets } = view.body;
  expect(m.state).toBe('awaiting_approval');
  expect(pendingApproval).toEqual({
    missionRevision: m.revision,
    submittedAt: expect.any(String),
    artifacts: [...hashes].sort().map((contentHash) => ({ contentHash, published: true, artifactId: expect.any(String), mediaType: expect.any(String), sizeBytes: expect.any(Number), workItemId: workItems[0].workItemId })),
  });
  expect(workItems).toHaveLength(1);
  expect(workItems[0]).toMatchObject({ state: 'verified', owner: { ownershipEpoch: 1 }, executionLease: null, childMission: null, budgetPause: null, submission: { artifactHashes: expect.any(Array) } });
  expect(Object.keys(workItems[0].usage).sort()).toEqual(['computeSeconds', 'externalActions', 'financialMicrounits', 'modelTokens', 'toolCalls', 'wallClockSeconds']);
  expect(artifacts.map((a: { contentHash: string }) => a.contentHash).sort()).toEqual([...hashes].sort());
  expect(artifacts[0]).toMatchObject({ workItemId: workItems[0].workItemId, manifest: { contentHash: artifacts[0].contentHash } });
  expect(budgets.map((b: { dimension: string }) => b.dimension)).toEqual(['financialMicrounits', 'modelTokens']);
});

it('serves Artifact content and provenance to the human, and hides them from a stranger', async () => {
  const hash = hashes[0] as string;
  const content = await download(`/v1/artifacts/${hash}`, ownerToken);
  expect(content.status).toBe(200);
  expect(contents).toContain(content.text);
  const provenance = await httpJson(server, 'GET', `/v1/groups/${encodeURIComponent(mission.groupId)}/artifacts/${hash}/provenance`, { token: ownerToken });
  expect(provenance.status).toBe(200);
  expect(JSON.stringify(provenance.body)).toContain(hash);
  const hidden = await download(`/v1/artifacts/${hash}`, strangerToken);
  const missing = await download(`/v1/artifacts/sha256:${'0'.repeat(64)}`, strangerToken);
  expect(hidden.status).toBe(httpStatusOf('GROUP_NOT_FOUND'));
  expect(JSON.parse(hidden.text).error.message).toBe(JSON.parse(missing.text).error.message);
  const upload = await httpJson(server, 'PUT', `/v1/artifacts/${hash}`, { token: ownerToken, body: 'x' });
  expect(upload.status).toBe(httpStatusOf('AUTH_REQUIRED'));
});
