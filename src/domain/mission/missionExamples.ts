/**
 * The mission kinds' example payloads, with the members their payload schemas require (`KindExamples`).
 * They tell one story with the other modules' examples (`../kinds/exampleStory.ts`).
 */

import { EXAMPLE_DEADLINE, EXAMPLE_IDS, EXAMPLE_HASHES, exampleSignature, EXAMPLE_BUDGET } from '../kinds/exampleStory.js';
import type { KindExamples } from '../kinds/kindTypes.js';

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
  },
  'mission.assign_coordinator': {
    payload: { coordinatorId: EXAMPLE_IDS.replacementCoordinator, leaseSeconds: 900 },
    required: ['coordinatorId'],
  },
  'mission.renew_coordinator': {
    payload: { leaseSeconds: 300 },
    required: [],
  },
  'mission.submit_for_approval': {
    payload: { artifactHashes: [EXAMPLE_HASHES.migration, EXAMPLE_HASHES.report] },
    required: ['artifactHashes'],
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
  },
  'mission.request_changes': {
    payload: {
      missionRevision: 2,
      feedback: 'The parity report omits accounts closed before 2022; include them.',
    },
    required: ['missionRevision', 'feedback'],
  },
  'mission.cancel': {
    payload: { reason: 'The ledger vendor contract was terminated.' },
    required: ['reason'],
  },
  'mission.terminate': {
    payload: { reason: 'The legacy archive cannot be read; no alternative source exists.' },
    required: ['reason'],
  },
  'ext.missionweave.core.child_mission_settle': {
    payload: { parentWorkItemId: EXAMPLE_IDS.workItem, childMissionId: EXAMPLE_IDS.childMission },
    required: ['parentWorkItemId', 'childMissionId'],
  },
} satisfies Record<string, KindExamples>;
