/**
 * A profile adds a read without a core file touched (issue 30, item 4): the tally test profile's
 * read side (`support/tallyReadSide.ts`) gives it an HTTPS read and an MCP tool. Over a real node
 * (port 0, TLS 1.3) a human reads the Group's tallies over HTTPS, a stranger is refused as for any
 * Group read, and an Agent's MCP tool — served by `missionweave mcp`'s own server, reading over
 * the Agent's session — answers the same tallies.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSideTools } from '../src/cli/readSide.js';
import { MissionWeaveAgent } from '../src/client/agent.js';
import { AgentContext } from '../src/client/mcp/agentContext.js';
import { createMcpServer } from '../src/client/mcp/mcpServer.js';
import type { Actor } from './support/harness.js';
import { httpJson, signIn } from './support/humanReader.js';
import { createMission, type MissionRefs } from './support/missions.js';
import { registerTallyDocument } from './support/profileDocuments.js';
import { startTestServer, type TestServer } from './support/server.js';
import { TALLY_URI, tallyProfile } from './support/tallyProfile.js';
import { talliesPath, tallyReadSide } from './support/tallyReadSide.js';

let server: TestServer;
let owner: Actor;
let coordinator: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  server = await startTestServer({}, { profiles: [tallyProfile], readSides: [tallyReadSide] });
  const h = server.harness;
  owner = await h.human('owner');
  coordinator = await h.agent('coordinator');
  expect((await registerTallyDocument(h, owner)).ok).toBe(true);
  mission = await createMission(h, owner, coordinator);
  const inGroup = { groupId: mission.groupId, membershipEpoch: 1 };
  await h.expectOk(h.send(owner, 'ext.missionweaveprotocol.core.profile_pin', { profileUri: TALLY_URI, majorVersion: 1 }, inGroup));
  await h.expectOk(h.send(owner, 'ext.missionweave.tally.add', { label: 'bugs', delta: 2 }, inGroup));
  await h.expectOk(h.send(owner, 'ext.missionweave.tally.add', { label: 'bugs', delta: 3 }, inGroup));
  await h.expectOk(h.send(owner, 'ext.missionweave.tally.add', { label: 'ideas', delta: 1 }, inGroup));
});

describe('the tally profile’s read side', () => {
  it('serves its HTTPS read to a reader of the Group, and refuses others as any Group read does', async () => {
    const { token } = await signIn(server, owner);
    const read = await httpJson(server, 'GET', talliesPath(mission.groupId), { token });
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual({ groupId: mission.groupId, totals: { bugs: 5, ideas: 1 } });

    const anonymous = await httpJson(server, 'GET', talliesPath(mission.groupId));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toMatchObject({ code: 'AUTH_REQUIRED' });

    const stranger = await signIn(server, await server.harness.human('stranger'));
    const refused = await httpJson(server, 'GET', talliesPath(mission.groupId), { token: stranger.token });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toMatchObject({ code: 'GROUP_NOT_FOUND' });
  });

  it('offers its MCP tool, which reads the same tallies over the Agent’s session', async () => {
    const agent = new MissionWeaveAgent({ url: server.url, ca: server.ca, agentId: coordinator.principal.id, keyId: coordinator.key.keyId, privateKey: coordinator.key.privateKey });
    afterAll(() => agent.close());
    await agent.connect();
    const context = new AgentContext({ agent, origin: new URL(server.httpsUrl), ca: server.ca, extension: 'test' });
    const mcp = createMcpServer(context, await readSideTools([tallyReadSide]), { log: () => {} });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'model', version: '0.0.0' });
    await mcp.connect(serverSide);
    await client.connect(clientSide);
    afterAll(() => client.close());

    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['tally_totals']);
    const answer = await client.callTool({ name: 'tally_totals', arguments: { groupId: mission.groupId } });
    expect(answer.isError).toBeUndefined();
    expect(answer.structuredContent).toEqual({ groupId: mission.groupId, totals: { bugs: 5, ideas: 1 } });
  });
});
