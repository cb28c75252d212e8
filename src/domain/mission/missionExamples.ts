/**
 * The mission kinds' example payloads, with the members their payload schemas require (`KindExamples`).
 * They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_DEADLINE, EXAMPLE_IDS, EXAMPLE_HASHES, exampleSignature, EXAMPLE_BUDGET } from '../kinds/exampleStory.js';
import { BAD_TIMESTAMPS, HASH, LONG, REFERENCE_BUDGET, RELATIVE_ID } from '../kinds/exampleVariants.js';
import type { KindExamples, PayloadDraft } from '../kinds/kindTypes.js';

export const EXAMPLE_APPROVAL = {
  approvalId: EXAMPLE_IDS.approval,
  kind: 'mission_final',
  decision: 'approved',
  missionId: EXAMPLE_IDS.mission,
  groupId: EXAMPLE_IDS.group,
  missionRevision: 3,
  artifactHashes: [EXAMPLE_HASHES.migration, EXAMPLE_HASHES.report],
  acceptancePolicyVersion: '2.0.1',
  approver: { type: 'human', id: EXAMPLE_IDS.owner },
  comments: 'Evidence reviewed; approved for cut-over.',
  conditions: [],
  occurredAt: '2026-09-25T09:30:00Z',
  signature: exampleSignature('urn:missionweave:key:dana-okafor', '2026-09-25T09:30:00Z'),
};


const DEFINITION_OF_DONE = [
  {
    criterionId: 'ledger-parity',
    description: 'Ledger balances equal legacy balances for every account after migration.',
    evidenceRequired: ['deterministic_test', 'business_rule'],
  },
  {
    criterionId: 'owner-sign-off',
    description: 'The finance owner signs off the cut-over report.',
    evidenceRequired: ['human_review'],
  },
];

const MISSION_CREATE = {
  missionId: EXAMPLE_IDS.mission,
  groupId: EXAMPLE_IDS.group,
  coordinatorId: EXAMPLE_IDS.coordinator,
  title: 'Migrate billing to the ledger',
  objective: 'Move all billing records to the double-entry ledger without downtime and with a tested rollback.',
  definitionOfDone: DEFINITION_OF_DONE,
  budget: EXAMPLE_BUDGET,
  deadline: EXAMPLE_DEADLINE,
  permissions: ['db.read', 'db.migrate'],
  coordinatorLeaseSeconds: 600,
  mainConversationId: EXAMPLE_IDS.mainConversation,
  approvalPolicy: { finalHumanApproval: true, highRiskExecutionApproval: true, policyVersion: '2.0.1' },
};


export const MISSION_EXAMPLES = {
  'mission.create': {
    payload: MISSION_CREATE,
    required: ['missionId', 'groupId', 'coordinatorId', 'title', 'objective', 'definitionOfDone', 'budget', 'deadline'],
    invalid: [
      ['relative missionId', (p) => (p.missionId = 'ledger-migration')],
      ['groupId with a trailing line feed', (p) => (p.groupId = `${EXAMPLE_IDS.group}\n`)],
      ['coordinatorId with a space', (p) => (p.coordinatorId = 'urn:missionweave:agent:coordinator 1')],
      ['empty title', (p) => (p.title = '')],
      ['title over 500 characters', (p) => (p.title = LONG(501))],
      ['objective over 10000 characters', (p) => (p.objective = LONG(10001))],
      ['empty definitionOfDone', (p) => (p.definitionOfDone = [])],
      ['definitionOfDone of plain strings (reference shape)', (p) => (p.definitionOfDone = ['Balances match'])],
      ['criterion without evidenceRequired', (p) => delete p.definitionOfDone[0].evidenceRequired],
      ['budget without any limit', (p) => (p.budget = {})],
      ['budget in reference microunits', (p) => (p.budget = REFERENCE_BUDGET)],
      ['financialLimit without currency', (p) => (p.budget = { financialLimit: 10 })],
      ['coordinatorLeaseSeconds of 0', (p) => (p.coordinatorLeaseSeconds = 0)],
      ['coordinatorLeaseSeconds over a year', (p) => (p.coordinatorLeaseSeconds = 31536001)],
      ['fractional coordinatorLeaseSeconds', (p) => (p.coordinatorLeaseSeconds = 1.5)],
      ['coordinatorLeaseSeconds as a string', (p) => (p.coordinatorLeaseSeconds = '300')],
      ['a followUpOfMissionId', (p) => (p.followUpOfMissionId = EXAMPLE_IDS.mission)],
      ['finalHumanApproval false', (p) => (p.approvalPolicy.finalHumanApproval = false)],
      ['approvalPolicy without highRiskExecutionApproval', (p) => delete p.approvalPolicy.highRiskExecutionApproval],
      ['approvalPolicy with a non-semver policyVersion', (p) => (p.approvalPolicy.policyVersion = '2.0')],
      ['approvalPolicy with an unknown member', (p) => (p.approvalPolicy.autoApprove = true)],
      ['permission with upper case and spaces', (p) => (p.permissions = ['Repo Read'])],
      ['relative mainConversationId', (p) => (p.mainConversationId = 'planning')],
      ...BAD_TIMESTAMPS.map(([label, value]) => [`deadline: ${label}`, (p: PayloadDraft) => (p.deadline = value)] as const),
    ],
    valid: [
      ['a one-year Coordinator lease', (p) => (p.coordinatorLeaseSeconds = 31536000)],
      ['a one-second Coordinator lease', (p) => (p.coordinatorLeaseSeconds = 1)],
      ['a single-limit budget', (p) => (p.budget = { wallClockSecondsLimit: 86400 })],
      ['highRiskExecutionApproval false, no policyVersion', (p) => (p.approvalPolicy = { finalHumanApproval: true, highRiskExecutionApproval: false })],
      ['a deadline with an offset and fraction', (p) => (p.deadline = '2026-09-30T19:00:00.125+02:00')],
      ['a urn:uuid missionId', (p) => (p.missionId = 'urn:uuid:7c9e6679-7425-40de-944b-e07fc1f90ae7')],
    ],
  },
  'mission.create_follow_up': {
    payload: {
      ...MISSION_CREATE,
      missionId: EXAMPLE_IDS.followUpMission,
      groupId: EXAMPLE_IDS.followUpGroup,
      mainConversationId: 'urn:missionweave:conversation:ledger-migration-fixes-planning',
      title: 'Fix rounding in migrated invoices',
      objective: 'Correct the rounding of migrated multi-currency invoices found after approval.',
      followUpOfMissionId: EXAMPLE_IDS.mission,
    },
    required: ['missionId', 'groupId', 'coordinatorId', 'title', 'objective', 'definitionOfDone', 'budget', 'deadline', 'followUpOfMissionId'],
    invalid: [
      ['relative followUpOfMissionId', (p) => (p.followUpOfMissionId = 'ledger-migration')],
      ['finalHumanApproval false', (p) => (p.approvalPolicy.finalHumanApproval = false)],
      ['empty definitionOfDone', (p) => (p.definitionOfDone = [])],
      ['bad deadline', (p) => (p.deadline = '2026-09-30T25:00:00Z')],
    ],
  },
  'mission.create_child': {
    payload: {
      missionId: EXAMPLE_IDS.childMission,
      groupId: EXAMPLE_IDS.childGroup,
      parentWorkItemId: EXAMPLE_IDS.parentWorkItem,
      coordinatorId: EXAMPLE_IDS.replacementCoordinator,
      title: 'Backfill historical ledger entries',
      objective: 'Backfill five years of ledger entries from the billing archive.',
      definitionOfDone: [DEFINITION_OF_DONE[0]],
      budget: { currency: 'EUR', financialLimit: 300, modelTokenLimit: 1000000 },
      deadline: '2026-09-25T17:00:00Z',
      permissions: ['db.read'],
      failurePolicy: 'fail_parent_work_item',
      coordinatorLeaseSeconds: 300,
      mainConversationId: 'urn:missionweave:conversation:ledger-backfill-planning',
    },
    required: ['missionId', 'groupId', 'parentWorkItemId', 'coordinatorId', 'title', 'objective', 'definitionOfDone', 'budget', 'deadline'],
    invalid: [
      ['unknown failurePolicy', (p) => (p.failurePolicy = 'ignore')],
      ['relative parentWorkItemId', (p) => (p.parentWorkItemId = RELATIVE_ID)],
      ['an approvalPolicy', (p) => (p.approvalPolicy = { finalHumanApproval: true, highRiskExecutionApproval: true })],
      ['a followUpOfMissionId', (p) => (p.followUpOfMissionId = EXAMPLE_IDS.mission)],
      ['budget without any limit', (p) => (p.budget = {})],
      ['empty definitionOfDone', (p) => (p.definitionOfDone = [])],
      ['coordinatorLeaseSeconds of 0', (p) => (p.coordinatorLeaseSeconds = 0)],
      ['bad deadline', (p) => (p.deadline = '2026-02-30T00:00:00Z')],
    ],
    valid: [
      ['each failure policy', (p) => (p.failurePolicy = 'fail_parent_mission')],
    ],
  },
  'mission.assign_coordinator': {
    payload: { coordinatorId: EXAMPLE_IDS.replacementCoordinator, leaseSeconds: 900 },
    required: ['coordinatorId'],
    invalid: [
      ['relative coordinatorId', (p) => (p.coordinatorId = 'coordinator-2')],
      ['coordinatorId as a Principal', (p) => (p.coordinatorId = { type: 'agent', id: EXAMPLE_IDS.coordinator })],
      ['negative leaseSeconds', (p) => (p.leaseSeconds = -1)],
      ['leaseSeconds over a year', (p) => (p.leaseSeconds = 31536001)],
    ],
  },
  'mission.renew_coordinator': {
    payload: { leaseSeconds: 300 },
    required: [],
    invalid: [
      ['leaseSeconds of 0', (p) => (p.leaseSeconds = 0)],
      ['leaseSeconds as a string', (p) => (p.leaseSeconds = '300')],
      ['a coordinatorId', (p) => (p.coordinatorId = EXAMPLE_IDS.coordinator)],
    ],
    valid: [
      ['an empty payload (default lease)', (p) => delete p.leaseSeconds],
    ],
  },
  'mission.submit_for_approval': {
    payload: { artifactHashes: [EXAMPLE_HASHES.migration, EXAMPLE_HASHES.report] },
    required: ['artifactHashes'],
    invalid: [
      ['no Artifact hashes', (p) => (p.artifactHashes = [])],
      ['a repeated hash', (p) => (p.artifactHashes = [HASH, HASH])],
      ['an upper-case hash', (p) => (p.artifactHashes = [HASH.toUpperCase().replace('SHA256', 'sha256')])],
      ['a non-sha256 hash', (p) => (p.artifactHashes = ['md5:0123456789abcdef0123456789abcdef'])],
      ['Artifact ids instead of hashes', (p) => (p.artifactHashes = [EXAMPLE_IDS.artifact])],
      ['a single hash string', (p) => (p.artifactHashes = HASH)],
    ],
  },
  'mission.approve': {
    payload: {
      approvalId: EXAMPLE_IDS.approval,
      missionRevision: 3,
      artifactHashes: [EXAMPLE_HASHES.migration, EXAMPLE_HASHES.report],
      acceptancePolicyVersion: '2.0.1',
      comments: 'Evidence reviewed; approved for cut-over.',
      approval: EXAMPLE_APPROVAL,
    },
    required: ['approvalId', 'missionRevision', 'artifactHashes', 'acceptancePolicyVersion'],
    invalid: [
      ['relative approvalId', (p) => (p.approvalId = 'approval-3')],
      ['missionRevision of 0', (p) => (p.missionRevision = 0)],
      ['no Artifact hashes', (p) => (p.artifactHashes = [])],
      ['a repeated hash', (p) => (p.artifactHashes = [HASH, HASH])],
      ['a non-semver acceptancePolicyVersion', (p) => (p.acceptancePolicyVersion = 'v2')],
      ['comments over 4000 characters', (p) => (p.comments = LONG(4001))],
      ['an execution Approval document', (p) => Object.assign(p.approval, { kind: 'work_execution', workItemId: EXAMPLE_IDS.workItem })],
      ['a changes_requested Approval document', (p) => (p.approval.decision = 'changes_requested')],
      ['an unsigned Approval document', (p) => delete p.approval.signature],
      ['a final Approval by an Agent', (p) => (p.approval.approver = { type: 'agent', id: EXAMPLE_IDS.coordinator })],
      ['an Approval with a padded signature', (p) => (p.approval.signature.value = 'c2lnbmF0dXJl==')],
    ],
    valid: [
      ['a child-Mission Approval', (p) => (p.approval.kind = 'child_mission')],
      ['empty comments', (p) => (p.comments = '')],
    ],
  },
  'mission.request_changes': {
    payload: {
      missionRevision: 2,
      feedback: 'The parity report omits accounts closed before 2022; include them.',
    },
    required: ['missionRevision', 'feedback'],
    invalid: [
      ['missionRevision of 0', (p) => (p.missionRevision = 0)],
      ['fractional missionRevision', (p) => (p.missionRevision = 1.5)],
      ['missionRevision beyond the safe integers', (p) => (p.missionRevision = 2 ** 53)],
      ['empty feedback', (p) => (p.feedback = '')],
      ['feedback over 4000 characters', (p) => (p.feedback = LONG(4001))],
    ],
  },
  'mission.cancel': {
    payload: { reason: 'The ledger vendor contract was terminated.' },
    required: ['reason'],
    invalid: [
      ['empty reason', (p) => (p.reason = '')],
      ['reason over 4000 characters', (p) => (p.reason = LONG(4001))],
      ['numeric reason', (p) => (p.reason = 42)],
      ['relative parentMissionId', (p) => (p.parentMissionId = 'ledger-migration')],
    ],
  },
  'mission.terminate': {
    payload: { reason: 'The legacy archive cannot be read; no alternative source exists.' },
    required: ['reason'],
    invalid: [
      ['empty reason', (p) => (p.reason = '')],
      ['reason over 4000 characters', (p) => (p.reason = LONG(4001))],
      ['reason as an array', (p) => (p.reason = ['archive unreadable'])],
    ],
  },
  'ext.missionweave.core.child_mission_settle': {
    payload: { parentWorkItemId: EXAMPLE_IDS.workItem, childMissionId: EXAMPLE_IDS.childMission },
    required: ['parentWorkItemId', 'childMissionId'],
    invalid: [
      ['relative childMissionId', (p) => (p.childMissionId = 'ledger-backfill')],
      ['an outcome in the payload', (p) => (p.outcome = 'approved')],
    ],
  },
} satisfies Record<string, KindExamples>;
