/**
 * Property: whatever sequence of Commands actors send (many of them refused), replaying the
 * Group's Events from nothing reproduces exactly the aggregate state stored beside them, and
 * the history verifies (signatures, admission anchors, contiguous sequences).
 */

import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { timestampOf } from '../src/app/issueDocuments.js';
import { verifyGroupHistory } from '../src/app/verifyGroupHistory.js';
import { signDocument } from '../src/protocol/signing/signDocument.js';
import type { JsonObject } from '../src/protocol/strictJson.js';
import type { Harness, Actor } from './support/harness.js';
import { createMission, type MissionRefs } from './support/missions.js';
import { acceptedResult, WORKER_CAPABILITIES } from './support/publishedWork.js';
import { sha256ContentHash } from '../src/protocol/contentHash.js';
import { world } from './support/world.js';
import { coreRegistry } from './support/coreDecider.js';

let h: Harness;
let owner: Actor;
let agents: Actor[];
let worker: Actor;

beforeAll(async () => {
  ({ h, owner } = await world({ humans: { owner: 'owner' } }));
  agents = [];
  for (const name of ['a', 'b', 'c']) agents.push(await h.agent(name));
  worker = await h.agent('worker', WORKER_CAPABILITIES);
});

interface Facts {
  readonly mission: MissionRefs;
  readonly messages: { id: string; author: Actor }[];
}

async function epochs(m: MissionRefs, actor: Actor) {
  const rows = await h.pool.query<{ member: string; epoch: number; coordinator: string; cepoch: number }>(
    `select (a.document->>'membershipEpoch')::int as epoch,
            (select (d.document->'mission'->'coordinator'->>'coordinatorEpoch')::int from aggregates d where d.tree_id = a.tree_id and d.group_id = a.group_id and d.aggregate_type = 'mission') as cepoch,
            (select d.document->'mission'->'coordinator'->>'agentId' from aggregates d where d.tree_id = a.tree_id and d.group_id = a.group_id and d.aggregate_type = 'mission') as coordinator
     from aggregates a where a.group_id = $1 and a.aggregate_type = 'membership' and a.document->'member'->>'id' = $2`,
    [m.groupId, actor.principal.id],
  );
  const row = rows.rows[0];
  return { membershipEpoch: row?.epoch ?? 1, ...(row?.coordinator === actor.principal.id ? { coordinatorEpoch: row.cepoch } : {}) };
}

type Step = (f: Facts, pick: number) => Promise<void>;
const actorOf = (pick: number): Actor => (pick % 4 === 0 ? owner : (agents[pick % agents.length] as Actor));
/** Each Mission's accepted result (§7.3: what it may submit), published anew in its Group. */
const CONTENTS = ['rebuild migration', 'rebuild report'];
const RESULT = CONTENTS.map((c) => sha256ContentHash(c));

const STEPS: Step[] = [
  async (f, pick) => {
    const author = actorOf(pick);
    const id = `urn:uuid:${randomUUID()}`;
    const outcome = await h.send(author, 'message.post', { messageId: id, conversationId: f.mission.mainConversationId, content: `m${pick}` }, { groupId: f.mission.groupId, ...(await epochs(f.mission, author)) });
    if (outcome.ok) f.messages.push({ id, author });
  },
  async (f, pick) => {
    const target = f.messages[pick % Math.max(1, f.messages.length)];
    if (target === undefined) return;
    const kinds = ['message.correct', 'message.retract', 'message.redact'] as const;
    const kind = kinds[pick % 3] as string;
    const actor = kind === 'message.redact' ? owner : target.author;
    const payload: JsonObject = { amendmentId: `urn:uuid:${randomUUID()}`, messageId: target.id, reason: 'fix' };
    if (kind === 'message.correct') payload['replacementContent'] = 'corrected';
    await h.send(actor, kind, payload, { groupId: f.mission.groupId, ...(await epochs(f.mission, actor)) });
  },
  async (f, pick) => {
    const agent = agents[pick % agents.length] as Actor;
    const roles = ['worker', 'reviewer', 'observer'];
    await h.send(owner, 'membership.change', { principal: { ...agent.principal }, roles: [roles[pick % 3] as string] }, { groupId: f.mission.groupId, membershipEpoch: 1 });
  },
  async (f, pick) => {
    const agent = agents[pick % agents.length] as Actor;
    await h.send(owner, 'membership.end', { principal: { ...agent.principal } }, { groupId: f.mission.groupId, membershipEpoch: 1 });
  },
  async (f, pick) => {
    const coordinator = agents[0] as Actor;
    const kind = pick % 2 === 0 ? 'mission.renew_coordinator' : 'mission.submit_for_approval';
    const payload: JsonObject = kind === 'mission.renew_coordinator' ? { leaseSeconds: 300 } : { artifactHashes: pick % 4 === 1 ? [RESULT[0] as string] : RESULT };
    await h.send(coordinator, kind, payload, { groupId: f.mission.groupId, ...(await epochs(f.mission, coordinator)) });
  },
  async (f, pick) => {
    const mission = await h.pool.query<{ document: { mission: { revision: number }; notes: { submission?: { missionRevision: number; artifactHashes: string[] } } } }>(
      `select document from aggregates where group_id = $1 and aggregate_type = 'mission'`, [f.mission.groupId]);
    const submission = mission.rows[0]?.document.notes.submission;
    if (submission === undefined) return;
    if (pick % 3 === 0) {
      await h.send(owner, 'mission.request_changes', { missionRevision: submission.missionRevision, feedback: 'more' }, { groupId: f.mission.groupId, membershipEpoch: 1 });
      return;
    }
    const approval = signDocument('approval', { approvalId: `urn:uuid:${randomUUID()}`, kind: 'mission_final', decision: 'approved', missionId: f.mission.missionId, groupId: f.mission.groupId, missionRevision: submission.missionRevision, artifactHashes: submission.artifactHashes, acceptancePolicyVersion: '1.0.0', approver: owner.principal, comments: '', conditions: [], occurredAt: timestampOf(h.clock.millis) }, owner.key);
    await h.send(owner, 'mission.approve', { approvalId: approval.approvalId, missionRevision: submission.missionRevision, artifactHashes: submission.artifactHashes, acceptancePolicyVersion: '1.0.0', approval: approval as unknown as JsonObject }, { groupId: f.mission.groupId, membershipEpoch: 1 });
  },
  async (f, pick) => {
    if (pick % 5 !== 0) return;
    await h.send(owner, pick % 2 === 0 ? 'mission.cancel' : 'mission.assign_coordinator', pick % 2 === 0 ? { reason: 'stop' } : { coordinatorId: (agents[1] as Actor).principal.id }, { groupId: f.mission.groupId, membershipEpoch: 1 });
  },
];

it('reproduces the stored state by replaying the Events, for random Command sequences', async () => {
  const kinds = new Set<string>();
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.nat(STEPS.length - 1), fc.nat(1000)), { minLength: 4, maxLength: 24 }), async (plan) => {
      const facts: Facts = { mission: await createMission(h, owner, agents[0] as Actor), messages: [] };
      await acceptedResult(h, facts.mission, { owner, coordinator: agents[0] as Actor, worker }, CONTENTS);
      for (const [step, pick] of plan) await (STEPS[step] as Step)(facts, pick);
      const report = await verifyGroupHistory(h.pool, facts.mission.groupId, { registry: h.authority.registry.current.registry, schemas: h.authority.schemas, authority: h.settings.services.authority, kinds: coreRegistry() });
      expect(report.problems).toEqual([]);
      expect(report.events).toBeGreaterThanOrEqual(1);
      const rows = await h.pool.query<{ kind: string }>('select distinct kind from events where group_id = $1', [facts.mission.groupId]);
      for (const row of rows.rows) kinds.add(row.kind);
    }),
    { numRuns: 12 },
  );
  // The property is only worth something if the sequences really changed state in many ways.
  expect(kinds.size).toBeGreaterThanOrEqual(8);
}, 120_000);
