/** The accepted `ext.missionweave.core.capability_grant`, its Events stated whole (`kindCase.ts`). */

import { withGrant } from '../../../src/domain/workItem/capabilityGrants.js';
import { workItemDocument } from '../../../src/domain/workItem/workRecord.js';
import { workItemIn } from '../workDocuments.js';
import { leasesIn } from '../expectedOwnership.js';
import { AUTHORITY, T0, WORK, WORKER, activeWork } from '../fixtures.js';
import { ID } from './caseFixtures.js';
import { defineCase } from './kindCase.js';

export const CASE = defineCase('ext.missionweave.core.capability_grant', {
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
});
