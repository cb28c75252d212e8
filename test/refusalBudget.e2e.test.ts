/**
 * Refusal budgets (issue 10, weaker points): a connection, and a remote address with all its
 * connections and HTTPS requests, may have only so many Commands refused per window; past that
 * its Commands are refused RATE_LIMITED (§19) with a retry hint, before any verification work.
 * Scaled down: 5 refusals a connection, 12 an address.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_VERIFICATION_LIMITS } from '../src/app/verificationLimits.js';
import type { Actor } from './support/harness.js';
import type { MissionRefs } from './support/missions.js';
import { RawClient } from './support/rawClient.js';
import { postCommands, tampered, withUnknownKey } from './support/refusals.js';
import type { TestServer } from './support/server.js';
import { serverWorld } from './support/world.js';

let server: TestServer;
let owner: Actor;
let coordinator: Actor;
let worker: Actor;
let mission: MissionRefs;

beforeAll(async () => {
  ({ server, owner, coordinator, worker, mission } = await serverWorld({
    humans: { owner: 'owner' },
    agents: { coordinator: {}, worker: {} },
    mission: { owner: 'owner', coordinator: 'coordinator', members: { worker: ['worker'] } },
    settings: { verificationLimits: { ...DEFAULT_VERIFICATION_LIMITS, refusalsPerConnection: 5, refusalsPerAddress: 12, refusalWindowMs: 60_000 } },
  }));
});

function message(actor: Actor, content: string) {
  return server.harness.sign(actor, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content }, { groupId: mission.groupId, membershipEpoch: 1 });
}

async function answer(client: RawClient, command: Record<string, unknown>): Promise<{ frameType: unknown; code?: string; retryAfterMs?: number }> {
  const frameId = client.send({ frameType: 'COMMAND', command });
  const frame = await client.next((f) => (f.frameType === 'ERROR' && (f['error'] as { relatedFrameId?: string }).relatedFrameId === frameId) || f.frameType === 'EVENT');
  const error = frame['error'] as { code?: string; retryAfterMs?: number } | undefined;
  return { frameType: frame.frameType, ...(error === undefined ? {} : { code: error.code, ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }) }) };
}

describe('refused Commands', () => {
  it('over one connection: past its budget even a good Command is refused RATE_LIMITED; another connection is not', async () => {
    const flooder = await RawClient.open(server.url, server.ca);
    worker.sessionEpoch = await flooder.hello(worker);
    for (let i = 0; i < 5; i++) expect(await answer(flooder, tampered(message(worker, `bad ${i}`)))).toMatchObject({ code: 'AUTH_INVALID_SIGNATURE' });
    const limited = await answer(flooder, message(worker, 'good, but too late'));
    expect(limited).toMatchObject({ frameType: 'ERROR', code: 'RATE_LIMITED' });
    expect(limited.retryAfterMs).toBeGreaterThan(0);
    const other = await RawClient.open(server.url, server.ca);
    coordinator.sessionEpoch = await other.hello(coordinator);
    expect(await answer(other, message(coordinator, 'unaffected'))).toMatchObject({ frameType: 'EVENT' });
    flooder.close();
    other.close();
  });

  it('over HTTPS: past a keep-alive connection\'s budget, then past the address\'s, 429 RATE_LIMITED without verification', async () => {
    const body = () => JSON.stringify(withUnknownKey(server.harness, owner, 'message.post', { messageId: `urn:uuid:${randomUUID()}`, conversationId: mission.mainConversationId, content: 'x' }, { groupId: mission.groupId, membershipEpoch: 1 }));
    const statuses = async (count: number) => (await postCommands(server.httpsUrl, server.ca, Array.from({ length: count }, body), 1)).map((a) => a.status);
    // One keep-alive connection: five refusals, then its own budget is spent.
    expect(await statuses(8)).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // A new connection from the same address: two left of the address's twelve (five went above, over wss).
    expect(await statuses(4)).toEqual([401, 401, 429, 429]);
    const rows = async () => {
      await server.harness.authority.policyLog.flush();
      return (await server.db.pool.query<{ n: string }>('select count(*) as n from policy_log')).rows[0]?.n;
    };
    const before = await rows();
    const answers = await postCommands(server.httpsUrl, server.ca, [body(), body()], 1);
    expect(answers.map((a) => a.status)).toEqual([429, 429]);
    expect(JSON.parse(answers[0]?.body ?? '{}')).toMatchObject({ error: { code: 'RATE_LIMITED', retryable: true } });
    // Refused before verification: nothing was verified, so there is no stage to record.
    expect(await rows()).toBe(before);
  });
});
