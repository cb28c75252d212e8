/**
 * A Group view in the shape docs/human-api.md ("View shape") documents, and a page of its
 * Events, for driving the console's operation Panels in a browser without a server.
 */

export const GROUP_ID = 'urn:uuid:7d1f0000-0000-4000-8000-000000000001';
export const OWNER = { type: 'human', id: 'urn:missionweave:human:alice' } as const;
export const COORDINATOR = 'urn:missionweave:agent:planner';
export const WORKER = 'urn:missionweave:agent:builder';
export const REVIEWER = 'urn:missionweave:agent:critic';
export const MISSION_REVISION = 7;
export const WORKER_EPOCH = 3;

const at = (offsetMinutes: number): string => new Date(Date.now() + offsetMinutes * 60_000).toISOString();

function lease(type: string, holder: string, expiresAt: string): Record<string, unknown> {
  return { leaseId: `urn:uuid:lease-${type}-${holder.length}`, leaseType: type, holderAgentId: holder, sessionEpoch: 1, issuedAt: at(-30), startsAt: at(-30), expiresAt, state: 'active', renewalCount: 0 };
}

function membership(id: string, type: string, role: string, state: string, epoch: number): Record<string, unknown> {
  return { membershipId: `urn:uuid:m-${role}`, missionId: 'urn:uuid:mission', groupId: GROUP_ID, member: { type, id }, role, state, membershipEpoch: epoch, scopes: [], visibilityStartSequence: 1, grantedAt: at(-120) };
}

function workItem(id: string, state: string, goal: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    workItemId: `urn:uuid:wi-${id}`, conversationId: `urn:uuid:c-${id}`, revision: 2, state, goal, deadline: at(240), urgency: 'normal', exclusive: true,
    owner: null, ownershipLease: null, executionLease: null, parentWorkItemId: null, childMission: null,
    usage: { financialMicrounits: 0, modelTokens: 0, toolCalls: 0, computeSeconds: 0, wallClockSeconds: 0, externalActions: 0 },
    budgetPause: null, progress: null, submission: null, createdAt: at(-60), updatedAt: null, document: {},
    ...extra,
  };
}

export function groupView(): Record<string, unknown> {
  const owner = (epoch: number): Record<string, unknown> => ({ agentId: WORKER, agentCardVersion: 1, capabilityPins: [], ownershipEpoch: epoch, ownershipLeaseId: 'urn:uuid:own', acceptedAt: at(-20) });
  return {
    groupId: GROUP_ID,
    lastSequence: 42,
    viewer: { principal: OWNER, membershipId: 'urn:uuid:m-mission_owner', role: 'mission_owner', visibilityStartSequence: 1, limited: false },
    group: { groupId: GROUP_ID, missionId: 'urn:uuid:mission', state: 'active', mainConversationId: 'urn:uuid:c-main', createdAt: at(-120) },
    mission: {
      missionId: 'urn:uuid:mission', groupId: GROUP_ID, revision: MISSION_REVISION, objective: 'Ship the report', definitionOfDone: [], missionOwner: OWNER,
      coordinator: { agentId: COORDINATOR, agentCardVersion: 1, coordinatorEpoch: 2, leaseId: 'urn:uuid:lease-coord' },
      state: 'active', budget: { currency: 'EUR', financialLimit: 50, modelTokenLimit: 100000, toolCallLimit: 40 }, deadline: at(600),
      approvalPolicy: { finalHumanApproval: true, highRiskExecutionApproval: false }, createdAt: at(-120),
    },
    missionNotes: { title: 'Quarterly report', permissions: [] },
    pendingApproval: null,
    coordinatorLease: lease('coordinator', COORDINATOR, at(5)),
    memberships: [
      membership(OWNER.id, 'human', 'mission_owner', 'active', 1),
      membership(COORDINATOR, 'agent', 'coordinator', 'active', 2),
      membership(WORKER, 'agent', 'worker', 'active', WORKER_EPOCH),
      membership(REVIEWER, 'agent', 'reviewer', 'provisional', 1),
    ],
    conversations: [{ conversationId: 'urn:uuid:c-main', title: 'Mission', type: 'group', state: 'active', revision: 9 }],
    workItems: [
      workItem('draft', 'active', 'Draft the summary', { owner: owner(2), executionLease: lease('execution', WORKER, at(15)) }),
      workItem('late', 'blocked', 'Collect the figures', { owner: owner(1), deadline: at(-90), budgetPause: { dimension: 'toolCalls', accountId: 'urn:uuid:wi-late', since: at(-10) } }),
      workItem('open', 'open', 'Proofread'),
      workItem('done', 'verified', 'Outline'),
      { workItemId: 'urn:uuid:wi-bare', state: 'queued' },
    ],
    artifacts: [],
    budgets: [
      { dimension: 'financialMicrounits', limit: 50_000_000, used: 12_500_000, remaining: 37_500_000, currency: 'EUR' },
      { dimension: 'modelTokens', limit: 100000, used: 2500, remaining: 97500, currency: null },
      { dimension: 'toolCalls', limit: 40, used: 40, remaining: 0, currency: null },
    ],
    presence: [
      { agentId: COORDINATOR, connected: true, record: null },
      { agentId: WORKER, connected: true, record: { agentId: WORKER, status: 'busy', capacity: { maxSlots: 4, activeSlots: 2, availableSlots: 2, queuedItems: 0 } } },
      { agentId: REVIEWER, connected: false, record: null },
    ],
  };
}

function posted(sequence: number, messageId: string, text: string, author: string): Record<string, unknown> {
  return {
    sequence, kind: 'message.posted', groupId: GROUP_ID,
    payload: { message: { messageId, conversationId: 'urn:uuid:c-main', author: { type: 'agent', id: author }, kind: 'message', authority: false, content: [{ type: 'text', text }], committedAt: at(-5) } },
  };
}

export const SECRET_MESSAGE = 'urn:uuid:msg-secret';
export const REDACTED_MESSAGE = 'urn:uuid:msg-gone';

/** `GET /v1/groups/{g}/events`: two Messages, one of them already redacted. */
export function eventsPage(): Record<string, unknown> {
  return {
    events: [
      posted(30, REDACTED_MESSAGE, 'already redacted', WORKER),
      posted(31, SECRET_MESSAGE, 'the API key is sk-123', WORKER),
      { sequence: 32, kind: 'message.redacted', groupId: GROUP_ID, payload: { amendment: { messageId: 'urn:uuid:amend', targetMessageId: REDACTED_MESSAGE, kind: 'redaction', content: [] } } },
    ],
    lastSequence: 42,
  };
}
