/**
 * The work module's slice of Group state: WorkItems, Work Proposals (§10.2) and Delegation
 * Grants (§9.1), each its own stored row.
 */

import type { WorkItem } from '../documents.js';
import { joinCodecs, mapCodec, type SliceCodec } from '../kinds/domainModule.js';
import type { DelegationGrant, WorkProposal } from './workItemDocuments.js';

export interface WorkSlice {
  readonly workItems: ReadonlyMap<string, WorkItem>;
  /** Work Proposals by ID (§10.2): open ones and those a `work.authorize` took up. */
  readonly proposals: ReadonlyMap<string, WorkProposal>;
  /** Delegation Grants by Grant ID (§9.1); validity is judged at each use, not stored. */
  readonly delegationGrants: ReadonlyMap<string, DelegationGrant>;
}

declare module '../kinds/groupState.js' {
  // The slice joins GroupState (declaration merging); the interface adds nothing else.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GroupState extends WorkSlice {}
}

export const WORK_SLICE: SliceCodec<WorkSlice> = joinCodecs(
  joinCodecs(
    mapCodec<'workItems', WorkItem>('workItems', 'work-item', (w) => ({ id: w.workItemId, revision: w.revision })),
    mapCodec<'proposals', WorkProposal>('proposals', 'work-proposal', (p) => ({ id: p.proposalId, revision: p.revision })),
  ),
  mapCodec<'delegationGrants', DelegationGrant>('delegationGrants', 'delegation-grant', (g) => ({ id: g.grantId, revision: g.revision })),
);
