/**
 * The accepted case of each WorkItem kind (§10.2, §9.1, §11.3, §11.5, §14), on w1 as far on as each
 * needs: the common-checks tests vary them like the other kinds' cases (`kindCases.ts`).
 */

import type { Lease, WorkItem } from '../../src/domain/documents.js';

import type { RecordedEvent } from '../../src/domain/model.js';
import { WORK_LEASES_EXTENSION } from '../../src/domain/workItem/workLeases.js';
import { workItemDocument } from '../../src/domain/workItem/workRecord.js';
import { documentWithLeases, workItemIn } from './workDocuments.js';
import { RESOURCE_USAGE_EXTENSION } from '../../src/domain/workItem/usageAccount.js';
import { withGrant } from '../../src/domain/workItem/capabilityGrants.js';

import {
  AUTHORITY,
  CONTRACT,
  COORD,
  GROUP,
  HASH_A,
  HASH_C,
  MISSION,
  OWNER,
  REVIEWER,
  T0,
  WORK,
  WORKER,
  SELECTION,
  activeWork,
  at,
  busyGroup,
  history,
  queuedWork,
  steps,
  DELEGATE_AGENT,
  command,
} from './fixtures.js';
import {
  EXEC_EPOCH,
  EXEC_RUN_LEASE,
  EXEC_SUBMITTED_EVIDENCE,
  execManifest,
  execEvidence,
  execGiven,
  EXEC_CHECKPOINT,
  EXEC_LEASED,
} from './execFixtures.js';
import { expectedApprovalGranted } from './expectedApproval.js';
import {
  expectedAccepted,
  expectedOffered,
  expectedRenewed,
  expectedStarted,
  executionLease,
  leasesIn,
  offerEntry,
} from './expectedOwnership.js';
import { expectedAuthorized } from './expectedEvents.js';
import {
  execClosed,
  execLeases,
  expectedBlocked,
  expectedCheckpointed,
  expectedEnded,
  expectedProgress,
  expectedWork,
} from './expectedExecution.js';

import type { KindCase } from './kindCases.js';

const ID = 'urn:test:id:when-';
const EXECUTION_APPROVAL_ID = 'urn:missionweave:approval:exec-1';

/** The kinds of the execution half of §10.2 (checkpoint … cancel), on w1 as far on as each needs. */
const EXECUTION_CASES: Readonly<Record<string, KindCase>> = {
  'work.checkpoint': {
    actor: WORKER,
    given: () => execGiven({ state: 'active' }),
    payload: () => ({ ...EXEC_LEASED, checkpoint: EXEC_CHECKPOINT }),
    events: (s) => [expectedCheckpointed(s, EXEC_CHECKPOINT)],
  },
  'work.block': {
    actor: WORKER,
    given: () => execGiven({ state: 'active' }),
    payload: () => ({ ...EXEC_LEASED, reason: 'needs DBA approval', checkpoint: EXEC_CHECKPOINT, blockedLeaseSeconds: 120 }),
    events: (s) => [expectedBlocked(s, 'needs DBA approval', EXEC_CHECKPOINT, 120)],
  },
  'work.unblock': {
    actor: COORD,
    given: () => execGiven({ state: 'blocked' }),
    payload: () => ({ workItemId: WORK }),
    events: (s) => {
      const leases = execLeases(s);
      const ownership = { ...(leases['ownership'] as object), leaseType: 'ownership' };
      const workItem = expectedWork(s, { state: 'queued', progress: expectedProgress('blocked', { nextCheckpoint: 'not reported' }) }, { ...leases, ownership });
      return [{ kind: 'work.unblocked', payload: { workItemId: WORK, workItem, state: 'queued', status: 'queued' } }];
    },
  },
  'artifact.publish': {
    actor: WORKER,
    given: () => execGiven({ state: 'active' }),
    payload: () => ({ artifact: execManifest(HASH_C, { sourceArtifactHashes: [HASH_A] }), ownershipEpoch: EXEC_EPOCH, executionLeaseId: EXEC_RUN_LEASE }),
    events: () => [
      {
        kind: 'artifact.published',
        payload: { artifact: execManifest(HASH_C, { sourceArtifactHashes: [HASH_A] }), workItemId: WORK, ownershipEpoch: EXEC_EPOCH, executionLeaseId: EXEC_RUN_LEASE },
        aggregate: { type: 'artifact', id: HASH_C, revision: 1 },
      },
    ],
  },
  'work.submit': {
    actor: WORKER,
    given: () => execGiven({ state: 'active' }),
    payload: () => ({ ...EXEC_LEASED, artifactHashes: [HASH_A], evidence: [execEvidence('urn:x:ev')] }),
    events: (s) => {
      const leases = execLeases(s);
      const released = execClosed(leases['execution'], 'released', 'submitted');
      const { execution, ...rest } = leases;
      void execution;
      const change = {
        state: 'submitted',
        submission: { artifactHashes: [HASH_A], evidenceIds: ['urn:x:ev'], submittedAt: T0 },
        progress: expectedProgress('active', { nextCheckpoint: 'not reported', evidenceIds: ['urn:x:ev'] }),
      };
      const workItem = expectedWork(s, change, { ...rest, closed: [...(leases['closed'] as object[]), released] });
      const payload = { workItemId: WORK, workItem, ownershipEpoch: EXEC_EPOCH, artifactHashes: [HASH_A], evidence: [execEvidence('urn:x:ev')], releasedExecutionLease: released };
      return [{ kind: 'work.submitted', payload }];
    },
  },
  'work.accept_result': {
    actor: COORD,
    given: () => execGiven({ state: 'submitted' }),
    payload: () => ({ workItemId: WORK, evidence: [execEvidence('urn:x:review', REVIEWER)] }),
    events: (s) => {
      const { ownership, ...rest } = execLeases(s);
      void ownership;
      const progress = expectedProgress('submitted', { nextCheckpoint: 'not reported', evidenceIds: [EXEC_SUBMITTED_EVIDENCE, 'urn:x:review'] });
      const workItem = expectedWork(s, { state: 'verified', progress }, rest);
      return [{ kind: 'work.result.accepted', payload: { workItemId: WORK, workItem, evidence: [execEvidence('urn:x:review', REVIEWER)] } }];
    },
  },
  'work.fail': {
    actor: COORD,
    payload: () => ({ workItemId: WORK, reason: 'Superseded.', evidence: [execEvidence('urn:x:failure', COORD, { type: 'failure_report', result: 'failed' })] }),
    events: (s) => [
      expectedEnded(s, 'work.failed', 'Superseded.', { evidence: [execEvidence('urn:x:failure', COORD, { type: 'failure_report', result: 'failed' })] }, {
        progress: expectedProgress('open', { nextCheckpoint: 'not reported', evidenceIds: ['urn:x:failure'] }),
      }),
    ],
  },
  'work.cancel': {
    actor: COORD,
    payload: () => ({ workItemId: WORK, reason: 'Out of scope.' }),
    events: (s) => [expectedEnded(s, 'work.cancelled', 'Out of scope.')],
  },
};

/** A Delegation Grant over w1 for delegate-5, within w1's and the Mission's budgets. */
const DELEGATION_PAYLOAD = {
  grantId: 'urn:x:grant',
  granteeAgentId: DELEGATE_AGENT.id,
  targetWorkItemId: WORK,
  allowedCapabilities: [{ id: 'acme.sql-migration', version: '1.0.0' }],
  budget: { currency: 'EUR', financialLimit: 10, modelTokenLimit: 1000, toolCallLimit: 10, computeSecondsLimit: 60, wallClockSecondsLimit: 600, externalSideEffectLimit: 0 },
  maxDescendantDepth: 2,
  expiresAt: at(3600),
};

/** An Execution Lease of worker-7 that expired a minute before T0 (its ownership lease too). */
const EXPIRED_LEASE: Lease = {
  leaseId: 'urn:x:lease-exe',
  leaseType: 'execution',
  missionId: MISSION,
  groupId: GROUP,
  workItemId: WORK,
  holderAgentId: WORKER.id,
  sessionEpoch: 1,
  ownershipEpoch: 1,
  issuedAt: at(-600),
  startsAt: at(-600),
  expiresAt: at(-60),
  state: 'active',
  renewalCount: 0,
};

/** The open WorkItem made active under `EXPIRED_LEASE`, as the work.* kinds leave it. */
function leasedWorkItem(workItem: WorkItem): WorkItem {
  const pin = { id: 'code.review', version: '1.0.0' };
  return documentWithLeases({
    ...workItem,
    state: 'active',
    owner: { agentId: WORKER.id, agentCardVersion: 3, capabilityPins: [pin], ownershipEpoch: 1, ownershipLeaseId: 'urn:x:lease-own', acceptedAt: at(-600) },
    selectionBasis: { requiredCapabilities: [pin], verifiedMatches: [pin], authorizationEligible: true, availabilityEstimate: T0, expectedCost: 1, reliabilityEvidence: [], policyRulesApplied: [] },
  }, { execution: EXPIRED_LEASE });
}

/** The WorkItem kinds' cases. */
export const WORK_CASES: Readonly<Record<string, KindCase>> = {
  'work.propose': {
    actor: WORKER,
    payload: () => ({ proposalId: 'urn:x:p1', contract: CONTRACT }),
    events: () => [
      {
        kind: 'work.proposed',
        payload: {
          proposal: { proposalId: 'urn:x:p1', missionId: MISSION, groupId: GROUP, proposer: WORKER, contract: CONTRACT, dependencyIds: [], state: 'open', proposedAt: T0, revision: 1 },
        },
      },
    ],
  },
  'membership.grant_delegation': {
    actor: COORD,
    given: (busy) => history([(s) => command(s!, OWNER, 'membership.change', { principal: DELEGATE_AGENT, roles: ['work_delegate'] })], busy),
    payload: () => DELEGATION_PAYLOAD,
    events: () => [
      {
        kind: 'membership.delegation.granted',
        payload: {
          delegationGrant: {
            ...DELEGATION_PAYLOAD,
            missionId: MISSION,
            groupId: GROUP,
            granteeMembershipEpoch: 1,
            coordinatorEpoch: 1,
            issuedBy: COORD,
            grantedAt: T0,
            usedBy: [],
            revision: 1,
          },
        },
      },
    ],
  },
  'ext.missionweaveprotocol.core.work_dependency_add': {
    actor: COORD,
    given: (busy) => history([steps.authorize('urn:x:w0')], busy),
    payload: () => ({ workItemId: WORK, dependencyId: 'urn:x:w0' }),
    events: (s) => {
      const item = workItemIn(s, WORK);
      const contractVersion = item.contract.contractVersion + 1;
      const workItem = { ...item, contract: { ...item.contract, contractVersion, dependencyWorkItemIds: ['urn:x:w0'] }, revision: 2, updatedAt: T0 };
      return [{ kind: 'work.contract.revised', payload: { workItemId: WORK, workItem, contractVersion, dependencyId: 'urn:x:w0', revokedLeases: [] } }];
    },
  },
  'work.authorize': {
    actor: COORD,
    payload: () => ({ workItemId: 'urn:x:w2', contract: CONTRACT }),
    events: () => [expectedAuthorized('urn:x:w2', `${ID}1`)],
  },
  'work.offer': {
    actor: COORD,
    payload: () => ({ workItemId: WORK, candidateAgentIds: [WORKER.id], selectionBasis: SELECTION }),
    events: (s) => [expectedOffered(s, [WORKER], [offerEntry(`${ID}1`, WORKER, at(300))])],
  },
  'work.accept_offer': {
    actor: WORKER,
    given: () => history([steps.offer([WORKER])], busyGroup()),
    payload: () => ({ workItemId: WORK }),
    events: (s) => [expectedAccepted(s, WORKER, `${ID}1`)],
  },
  'approval.grant_execution': {
    actor: OWNER,
    given: () => history([steps.offer([WORKER]), steps.acceptOffer(WORKER)], busyGroup()),
    payload: () => ({ approvalId: EXECUTION_APPROVAL_ID, workItemId: WORK, ownershipEpoch: 1, operations: ['db.migrate'] }),
    events: (s) => [expectedApprovalGranted(s, { approvalId: EXECUTION_APPROVAL_ID })],
  },
  'work.start': {
    actor: WORKER,
    given: queuedWork,
    payload: () => ({ workItemId: WORK, ownershipEpoch: 1 }),
    events: (s) => [expectedStarted(s, executionLease({ leaseId: `${ID}1`, holder: WORKER, ownershipEpoch: 1, seconds: 300 }))],
  },
  'ext.missionweaveprotocol.core.work_execution_lease_renew': {
    actor: WORKER,
    given: activeWork,
    payload: (s) => ({ workItemId: WORK, ownershipEpoch: 1, executionLeaseId: (leasesIn(s)['execution'] as { leaseId?: string } | undefined)?.leaseId ?? 'urn:x:no-lease' }),
    events: (s) => [expectedRenewed(s, 300, T0)],
  },
  'ext.missionweave.core.work_lease_close': {
    actor: AUTHORITY,
    given: () => busyGroup().map((event) => (event.kind === 'work.authorized' ? { ...event, payload: { ...event.payload, workItem: leasedWorkItem(event.payload['workItem'] as unknown as WorkItem) } } as unknown as RecordedEvent : event)),
    payload: () => ({ workItemId: WORK, ownershipEpoch: 1, leaseId: EXPIRED_LEASE.leaseId, holderAgentId: WORKER.id, cause: 'expired' }),
    events: (state) => {
      const before = workItemIn(state);
      const closed: Lease = { ...EXPIRED_LEASE, state: 'expired', closedAt: T0, closureReason: 'expired' };
      const workItem = { ...before, state: 'queued', revision: before.revision + 1, updatedAt: T0, extensions: { ...before.extensions, [WORK_LEASES_EXTENSION]: { version: '0.1.0', critical: false, data: { closed: [closed] } } } };
      return [{ kind: 'ext.missionweave.core.work_lease_closed', payload: { workItemId: WORK, workItem, ownershipEpoch: 1, cause: 'expired', closedLease: closed, closedLeases: [closed] } }];
    },
  },
  'ext.missionweave.core.capability_grant': {
    actor: AUTHORITY,
    given: activeWork,
    payload: (s) => ({ workItemId: WORK, agentId: WORKER.id, sessionEpoch: 1, ownershipEpoch: 1, executionLeaseId: (leasesIn(s)['execution'] as { leaseId?: string } | undefined)?.leaseId ?? 'urn:x:no-lease', limits: { toolCalls: 1 } }),
    events: (state) => {
      const before = workItemIn(state);
      const execution = leasesIn(state)['execution'] as { leaseId: string } | undefined;
      const grant = {
        tokenId: `${ID}1`,
        issuer: AUTHORITY,
        agentId: WORKER.id,
        sessionEpoch: 1,
        missionId: before.missionId,
        groupId: before.groupId,
        workItemId: WORK,
        ownershipEpoch: 1,
        executionLeaseId: execution?.leaseId ?? 'urn:x:no-lease',
        tools: ['acme.sql-migration'],
        resources: [{ resource: 'urn:missionweave:resource:billing-db-staging', operations: ['db.migrate', 'db.read'] }],
        limits: { toolCalls: 1 },
        issuedAt: T0,
        expiresAt: new Date(Date.parse(T0) + 300_000).toISOString(),
      };
      const workItem = workItemDocument(withGrant({ ...state.workItems.get(WORK)!, revision: before.revision + 1, updatedAt: T0 }, grant));
      return [{ kind: 'ext.missionweave.core.capability_granted', payload: { workItemId: WORK, workItem, grant } }];
    },
  },
  'ext.missionweaveprotocol.core.resource_usage_record': {
    actor: WORKER,
    given: activeWork,
    payload: (s) => ({ workItemId: WORK, ownershipEpoch: 1, executionLeaseId: (leasesIn(s)['execution'] as { leaseId?: string } | undefined)?.leaseId ?? 'urn:x:no-lease', usageDelta: { toolCalls: 1 } }),
    events: (state) => {
      // The runnable contract grants EUR 80, 300,000 tokens and 400 tool calls; the Mission EXAMPLE_BUDGET.
      const before = workItemIn(state);
      const usage = { financialMicrounits: 0, modelTokens: 0, toolCalls: 1, computeSeconds: 0, wallClockSeconds: 0, externalActions: 0 };
      const workItem = { ...before, revision: before.revision + 1, updatedAt: T0, extensions: { ...before.extensions, [RESOURCE_USAGE_EXTENSION]: { version: '0.1.0', critical: false, data: { usage } } } };
      return [{
        kind: 'ext.missionweaveprotocol.core.resource_usage_recorded',
        payload: {
          workItemId: WORK,
          workItem,
          ownershipEpoch: 1,
          executionLeaseId: (leasesIn(state)['execution'] as { leaseId: string }).leaseId,
          usageDelta: usage,
          cumulativeUsage: usage,
          remainingBudget: { financialMicrounits: 80_000_000, modelTokens: 300_000, toolCalls: 399 },
          missionUsage: {
            missionId: MISSION,
            cumulativeUsage: usage,
            remainingBudget: { financialMicrounits: 1_200_000_000, modelTokens: 4_000_000, toolCalls: 4_999, computeSeconds: 864_000, wallClockSeconds: 1_209_600 },
          },
        },
      }];
    },
  },
  ...EXECUTION_CASES,
};
