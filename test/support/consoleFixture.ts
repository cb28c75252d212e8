/**
 * A Group view in the shape `missionweave serve` answers (docs/human-api.md, "View shape"), and a
 * page of its Events, for driving the console's operation Panels in a browser without a server.
 * The identifier forms, the members of each stored document and the summary lines follow what
 * test/consoleOperations.browser.e2e.test.ts captures from a real node, which checks its key sets
 * against this fixture's.
 */

const SUFFIX = '7d1f0000-0000-4000-8000-000000000001';
export const GROUP_ID = `urn:missionweave:group:${SUFFIX}`;
export const MISSION_ID = `urn:missionweave:mission:${SUFFIX}`;
export const MAIN_CONVERSATION = `urn:missionweave:conversation:${SUFFIX}`;
export const OWNER = { type: 'human', id: 'urn:missionweave:human:alice' } as const;
export const COORDINATOR = 'urn:missionweave:agent:planner';
export const WORKER = 'urn:missionweave:agent:builder';
export const REVIEWER = 'urn:missionweave:agent:critic';
/** An Agent that holds no Membership here: the pickers offer it. */
export const SCRIBE = 'urn:uuid:5c81be00-0000-4000-8000-00000000000a';
export const MISSION_REVISION = 7;

/**
 * `GET /v1/agents` for the fixture: display names that differ from the IDs' handles, so a test
 * can tell a name the directory gave from one read off an identifier.
 */
export function directory(): Record<string, unknown>[] {
  return [
    { agentId: WORKER, displayName: 'Builder', status: 'active', capabilities: ['code.review@1.0.0'] },
    { agentId: REVIEWER, displayName: 'Critic', status: 'active', capabilities: ['code.review@1.0.0'] },
    { agentId: COORDINATOR, displayName: 'Planner', status: 'active', capabilities: ['code.review@1.0.0'] },
    { agentId: SCRIBE, displayName: 'Scribe', status: 'active', capabilities: ['code.review@1.0.0'] },
    { agentId: 'urn:uuid:5c81be00-0000-4000-8000-00000000000b', displayName: 'Retired', status: 'revoked', capabilities: [] },
  ];
}
export const WORKER_EPOCH = 3;

const at = (offsetMinutes: number): string => new Date(Date.now() + offsetMinutes * 60_000).toISOString();

/** A Lease document (lease.schema.json): epochs by type, the WorkItem for work leases. */
function lease(type: string, holder: string, expiresAt: string, workItemId?: string): Record<string, unknown> {
  return {
    leaseId: `urn:uuid:lease-${type}-${holder.length}`, leaseType: type, missionId: MISSION_ID, groupId: GROUP_ID,
    ...(workItemId === undefined ? {} : { workItemId }),
    holderAgentId: holder, sessionEpoch: 1,
    ...(type === 'coordinator' ? { coordinatorEpoch: 2 } : { ownershipEpoch: 2 }),
    issuedAt: at(-30), startsAt: at(-30), expiresAt, state: 'active', renewalCount: 0,
  };
}

/** A Membership document as the Authority stores it: an active one has `activatedAt`. */
function membership(id: string, type: string, role: string, state: string, epoch: number): Record<string, unknown> {
  return {
    membershipId: `urn:uuid:m-${role}`, missionId: MISSION_ID, groupId: GROUP_ID, member: { type, id }, role, state, membershipEpoch: epoch,
    scopes: ['group:read', 'message:post'], visibilityStartSequence: role === 'mission_owner' || role === 'coordinator' ? 0 : 3, grantedAt: at(-120),
    ...(state === 'active' ? { activatedAt: at(-119) } : state === 'provisional' ? { provisionalExpiresAt: at(60) } : {}),
  };
}

function conversation(conversationId: string, title: string, type: string, createdBy: Record<string, unknown>, primaryWorkItemId?: string): Record<string, unknown> {
  return {
    conversationId, missionId: MISSION_ID, groupId: GROUP_ID, type, ...(primaryWorkItemId === undefined ? {} : { primaryWorkItemId }),
    title, access: { mode: 'group' }, createdBy, state: 'active', revision: 9, createdAt: at(-120),
  };
}

/** A Presence Record (presence-record.schema.json), as an Agent sends it on a PING (§6.2). */
function presenceRecord(agentId: string, status: string, maxSlots: number, activeSlots: number): Record<string, unknown> {
  return {
    agentId, sessionEpoch: 1, status, capacity: { maxSlots, activeSlots, availableSlots: maxSlots - activeSlots, queuedItems: 0 },
    capabilityAvailability: [{ capability: { id: 'code.review', version: '1.0.0' }, status: 'available' }], lastHeartbeat: at(-1), expiresAt: at(1),
  };
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
  const owner = (epoch: number): Record<string, unknown> => ({ agentId: WORKER, agentCardVersion: 1, capabilityPins: [], ownershipEpoch: epoch, ownershipLeaseId: `urn:uuid:lease-ownership-${WORKER.length}`, acceptedAt: at(-20) });
  return {
    groupId: GROUP_ID,
    lastSequence: 42,
    viewer: { principal: OWNER, membershipId: 'urn:uuid:m-mission_owner', role: 'mission_owner', visibilityStartSequence: 0, limited: false, via: null },
    group: { groupId: GROUP_ID, missionId: MISSION_ID, state: 'active', mainConversationId: MAIN_CONVERSATION, createdAt: at(-120) },
    mission: {
      missionId: MISSION_ID, groupId: GROUP_ID, revision: MISSION_REVISION, objective: 'Ship the report', definitionOfDone: [], missionOwner: OWNER,
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
    conversations: [conversation(MAIN_CONVERSATION, 'Quarterly report', 'group', OWNER), conversation('urn:uuid:c-draft', 'Draft the summary', 'work_item', { type: 'agent', id: COORDINATOR }, 'urn:uuid:wi-draft')],
    workItems: [
      workItem('draft', 'active', 'Draft the summary', { owner: owner(2), ownershipLease: lease('ownership', WORKER, at(60), 'urn:uuid:wi-draft'), executionLease: lease('execution', WORKER, at(15), 'urn:uuid:wi-draft') }),
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
      { agentId: WORKER, connected: true, record: presenceRecord(WORKER, 'busy', 4, 2) },
      { agentId: REVIEWER, connected: false, record: null },
    ],
  };
}

function posted(sequence: number, messageId: string, text: string, author: string): Record<string, unknown> {
  return {
    sequence, kind: 'message.posted', groupId: GROUP_ID,
    payload: { message: { messageId, missionId: MISSION_ID, groupId: GROUP_ID, conversationId: MAIN_CONVERSATION, author: { type: 'agent', id: author }, kind: 'message', authority: false, content: [{ type: 'text', text }], committedAt: at(-5) } },
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
