/**
 * A Cooperation Override Grant on the real pipeline and PostgreSQL (§20): the limit refuses, the
 * MissionOwner grants, the target Command consumes the grant in its own transaction with a Policy
 * Log record of each (consumption linked to the accepted Event), an unchanged retry returns the
 * prior Events, and any other use is refused.
 */

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COOPERATION_LIMITS } from '../src/domain/policy/cooperationLimits.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import { count, type MissionRefs } from './support/missions.js';
import { world } from './support/world.js';

let h: Harness;
let owner: Actor;
let worker: Actor;
let m: MissionRefs;

beforeAll(async () => {
  ({ h, owner, worker, mission: m } = await world({
    humans: { owner: 'dana' },
    agents: { coordinator: {}, worker: {} },
    mission: { owner: 'owner', coordinator: 'coordinator', members: { worker: ['worker'] } },
    settings: { cooperationLimits: { ...DEFAULT_COOPERATION_LIMITS, messagesPerWindow: 2 } },
  }));
});

function post(extra: JsonObject = {}): JsonObject {
  return h.sign(worker, 'message.post', { messageId: `urn:missionweave:message:${randomUUID()}`, conversationId: m.mainConversationId, content: 'status' }, { groupId: m.groupId, membershipEpoch: 1, ...extra });
}

function kinds(outcome: { events: readonly { text: string }[] }): string[] {
  return outcome.events.map((e) => (JSON.parse(e.text) as { kind: string }).kind);
}

describe('a Cooperation Override Grant', () => {
  it('lets exactly one refused Command through, consumed with it and recorded in the Policy Log', async () => {
    // Limit 2: the soft threshold is 1, so the first Message also tells the Coordinator, once.
    expect(kinds(await h.expectOk(h.authority.submit(post())))).toEqual(['message.posted', 'ext.missionweave.core.cooperation_threshold_reached']);
    expect(kinds(await h.expectOk(h.authority.submit(post())))).toEqual(['message.posted']);
    const before = await count(h.pool, 'events', 'group_id = $1', [m.groupId]);
    const refused = await h.authority.submit(post());
    expect(refused.ok ? 'accepted' : { code: refused.error.code, details: refused.error.details }).toMatchObject({ code: 'RATE_LIMITED', details: { policy: 'message_rate', limit: 2, observed: 3 } });
    expect(await count(h.pool, 'events', 'group_id = $1', [m.groupId])).toBe(before);

    const grantId = `urn:missionweave:grant:${randomUUID()}`;
    const targetActionId = `urn:uuid:${randomUUID()}`;
    const granted = await h.expectOk(
      h.send(owner, 'policy.grant_cooperation_override', {
        grantId,
        policyName: 'message_rate',
        beneficiary: { ...worker.principal },
        targetCommandKind: 'message.post',
        targetActionId,
        reason: 'incident bridge needs the Worker',
        expiresAt: new Date(h.clock.millis + 600_000).toISOString(),
      }, { groupId: m.groupId, membershipEpoch: 1 }),
    );
    expect(kinds(granted)).toEqual(['policy.cooperation_override.granted']);
    const grantedEventId = (JSON.parse(granted.events[0]?.text ?? '{}') as { eventId: string }).eventId;

    const target = post({ actionId: targetActionId, cooperationOverrideGrantId: grantId });
    const passed = await h.expectOk(h.authority.submit(target));
    expect(kinds(passed)).toEqual(['message.posted', 'ext.missionweave.core.cooperation_override_consumed']);
    const [posted, consumed] = passed.events.map((e) => JSON.parse(e.text) as { eventId: string; payload: JsonObject });
    expect(consumed?.payload).toMatchObject({ grantId, consumedEventId: posted?.eventId, targetActionId });

    const log = await h.pool.query<{ reason: string; event_id: string; claimed_action_id: string; details: JsonObject }>(
      `select reason, event_id, claimed_action_id, details from policy_log where stage = 'cooperation-override' and claimed_group_id = $1 order by position`,
      [m.groupId],
    );
    expect(log.rows).toEqual([
      expect.objectContaining({ reason: 'granted', event_id: grantedEventId, details: expect.objectContaining({ grantId, targetActionId }) }),
      expect.objectContaining({ reason: 'consumed', event_id: posted?.eventId, claimed_action_id: targetActionId, details: expect.objectContaining({ grantId, consumedEventId: posted?.eventId }) }),
    ]);
    const grantRow = await h.pool.query<{ revision: number; document: JsonObject }>(`select revision, document from aggregates where group_id = $1 and aggregate_type = 'cooperation-override-grant'`, [m.groupId]);
    expect(grantRow.rows).toEqual([{ revision: 2, document: expect.objectContaining({ id: grantId, consumedEventId: posted?.eventId }) }]);

    // The unchanged retry returns the prior Events; nothing new is written.
    const events = await count(h.pool, 'events', 'group_id = $1', [m.groupId]);
    const retried = await h.expectOk(h.authority.submit(target));
    expect(retried.events.map((e) => e.text)).toEqual(passed.events.map((e) => e.text));
    expect(await count(h.pool, 'events', 'group_id = $1', [m.groupId])).toBe(events);

    // Any other use fails.
    const reused = await h.authority.submit(post({ cooperationOverrideGrantId: grantId }));
    expect(reused.ok ? 'accepted' : reused.error.code).toBe('AUTH_FORBIDDEN');
    expect(await count(h.pool, 'policy_log', `stage = 'cooperation-override' and claimed_group_id = $1`, [m.groupId])).toBe(2);
  });

  it('is refused to a Worker', async () => {
    const byWorker = await h.send(worker, 'policy.grant_cooperation_override', {
      grantId: `urn:missionweave:grant:${randomUUID()}`,
      policyName: 'message_rate',
      beneficiary: { ...worker.principal },
      targetCommandKind: 'message.post',
      targetActionId: `urn:uuid:${randomUUID()}`,
      reason: 'please',
      expiresAt: new Date(h.clock.millis + 600_000).toISOString(),
    }, { groupId: m.groupId, membershipEpoch: 1 });
    expect(byWorker.ok ? 'accepted' : byWorker.error.code).toBe('AUTH_FORBIDDEN');
  });
});
