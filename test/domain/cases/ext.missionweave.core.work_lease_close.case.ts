/** The accepted `ext.missionweave.core.work_lease_close`, its Events stated whole (`kindCase.ts`). */

import type { Lease, WorkItem } from '../../../src/domain/documents.js';
import type { RecordedEvent } from '../../../src/domain/model.js';
import { WORK_LEASES_EXTENSION } from '../../../src/domain/workItem/workLeases.js';
import { documentWithLeases, workItemIn } from '../workDocuments.js';
import { AUTHORITY, GROUP, MISSION, T0, WORK, WORKER, at, busyGroup } from '../fixtures.js';
import { defineCase } from './kindCase.js';

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

export const CASE = defineCase('ext.missionweave.core.work_lease_close', {
  actor: AUTHORITY,
  given: () => busyGroup().map((event) => (event.kind === 'work.authorized' ? { ...event, payload: { ...event.payload, workItem: leasedWorkItem(event.payload['workItem'] as unknown as WorkItem) } } as unknown as RecordedEvent : event)),
  payload: () => ({ workItemId: WORK, ownershipEpoch: 1, leaseId: EXPIRED_LEASE.leaseId, holderAgentId: WORKER.id, cause: 'expired' }),
  events: (state) => {
    const before = workItemIn(state);
    const closed: Lease = { ...EXPIRED_LEASE, state: 'expired', closedAt: T0, closureReason: 'expired' };
    const workItem = { ...before, state: 'queued', revision: before.revision + 1, updatedAt: T0, extensions: { ...before.extensions, [WORK_LEASES_EXTENSION]: { version: '0.1.0', critical: false, data: { closed: [closed] } } } };
    return [{ kind: 'ext.missionweave.core.work_lease_closed', payload: { workItemId: WORK, workItem, ownershipEpoch: 1, cause: 'expired', closedLease: closed, closedLeases: [closed] } }];
  },
});
