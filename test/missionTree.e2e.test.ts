/**
 * `GET /v1/groups/{groupId}/mission-tree` over real TLS (§14): a live Agent session that reads
 * the Group's whole history gets the tree; a stranger's session is told the Group does not exist,
 * and a request without a session token is AUTH_REQUIRED, each with the catalogue's status.
 */

import { request } from 'node:https';
import { beforeAll, expect, it } from 'vitest';
import type { MissionTree } from '../src/app/policy/readMissionTree.js';
import { httpStatusOf } from '../src/protocol/errorCodes.js';
import type { Actor } from './support/harness.js';
import type { MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let coordinator: Actor;
let stranger: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ server, coordinator, stranger, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {}, stranger: {} },
    mission: { owner: 'owner', coordinator: 'coordinator' },
  }));
});

function getTree(token: string | undefined): Promise<{ status: number; body: MissionTree & { error?: { code: string } } }> {
  const path = `/v1/groups/${encodeURIComponent(mission.groupId)}/mission-tree`;
  const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.httpsUrl), { method: 'GET', ca: server.ca, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as never }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function tokenOf(actor: Actor): Promise<{ client: RawClient; token: string }> {
  const client = await RawClient.open(server.url, server.ca);
  await client.hello(actor);
  return { client, token: client.sessionToken };
}

it('serves the tree to the Coordinator, hides it from a stranger, and wants a session', async () => {
  const own = await tokenOf(coordinator);
  const served = await getTree(own.token);
  expect(served.status).toBe(200);
  expect(served.body).toMatchObject({ rootMissionId: mission.missionId, truncated: false, missions: [{ missionId: mission.missionId, state: 'active', children: [] }] });
  const other = await tokenOf(stranger);
  const hidden = await getTree(other.token);
  expect({ status: hidden.status, code: hidden.body.error?.code }).toEqual({ status: httpStatusOf('GROUP_NOT_FOUND'), code: 'GROUP_NOT_FOUND' });
  const anonymous = await getTree(undefined);
  expect({ status: anonymous.status, code: anonymous.body.error?.code }).toEqual({ status: httpStatusOf('AUTH_REQUIRED'), code: 'AUTH_REQUIRED' });
  own.client.close();
  other.client.close();
});
