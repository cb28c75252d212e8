/**
 * `GET /v1/agents` over real TLS (src/transport/agentDirectoryRoute.ts): a signed-in human reads
 * the Organization's Agents by their Agent Card's display name — what the console's Coordinator
 * picker lists — including one registered after the human signed in; without a live session
 * token it is AUTH_REQUIRED. The bound and the order are held by the pure `agentDirectory` (src/app/humans).
 */

import { describe, expect, it } from 'vitest';
import type { AgentFacts } from '../src/domain/model.js';
import { agentDirectory } from '../src/app/humans/agentDirectory.js';
import { httpJson, signIn } from './support/humanReader.js';
import { serverWorld } from './support/world.js';

interface Directory {
  readonly agents: { agentId: string; displayName: string; status: string; capabilities: string[] }[];
  readonly truncated: boolean;
}

const facts = (agentId: string, displayName: string | undefined, status: AgentFacts['status'] = 'active'): AgentFacts => ({
  agentId, cardVersion: 1, status, capabilities: new Map([['code.review', ['1.0.0', '1.1.0']]]), ...(displayName === undefined ? {} : { displayName }),
});

describe('the Agent directory', () => {
  it('names the Agents by display name, sorted, with status and capabilities, bounded', () => {
    const all = [facts('urn:x:3', 'writer'), facts('urn:x:1', 'planner', 'revoked'), facts('urn:x:2', undefined), facts('urn:x:0', 'planner')];
    const { agents, truncated } = agentDirectory(all, 10);
    expect(agents.map((a) => [a.displayName, a.agentId, a.status])).toEqual([
      ['planner', 'urn:x:0', 'active'], ['planner', 'urn:x:1', 'revoked'], ['urn:x:2', 'urn:x:2', 'active'], ['writer', 'urn:x:3', 'active'],
    ]);
    expect(agents[0]?.capabilities).toEqual(['code.review@1.0.0', 'code.review@1.1.0']);
    expect(truncated).toBe(false);
    const bounded = agentDirectory(all, 3);
    expect(bounded.agents).toHaveLength(3);
    expect(bounded.truncated).toBe(true);
  });

  it('is read over HTTPS with a live session, and lists an Agent registered meanwhile', async () => {
    const { server, alice, planner } = await serverWorld({ humans: { alice: 'alice' }, agents: { planner: {} } });
    const { token } = await signIn(server, alice);
    const later = await server.harness.agent('writer');
    const read = await httpJson(server, 'GET', '/v1/agents', { token });
    expect(read.status).toBe(200);
    const body = read.body as unknown as Directory;
    expect(body.truncated).toBe(false);
    const mine = body.agents.filter((a) => a.agentId === planner.principal.id || a.agentId === later.principal.id);
    expect(mine).toEqual([
      { agentId: planner.principal.id, displayName: 'planner', status: 'active', capabilities: ['code.review@1.0.0'] },
      { agentId: later.principal.id, displayName: 'writer', status: 'active', capabilities: ['code.review@1.0.0'] },
    ]);
    const anonymous = await httpJson(server, 'GET', '/v1/agents', {});
    expect(anonymous.status).toBe(401);
    expect((anonymous.body as { error: { code: string } }).error.code).toBe('AUTH_REQUIRED');
  });
});
