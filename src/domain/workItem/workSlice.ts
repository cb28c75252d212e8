/**
 * The work module's slice of Group state: WorkItems, Work Proposals (§10.2) and Delegation
 * Grants (§9.1), each its own stored row.
 */

import { fromJson, toJson, type WorkItem } from '../documents.js';
import { joinCodecs, mapCodec, type SliceCodec } from '../kinds/domainModule.js';
import type { AggregateRow } from '../kinds/groupState.js';
import type { DelegationGrant, WorkProposal } from './workItemDocuments.js';
import { workItemDocument, workRecordOf, type WorkRecord } from './workRecord.js';

export interface WorkSlice {
  /** WorkItems by ID, each with the state kept beside its document as typed fields (`workRecord.ts`). */
  readonly workItems: ReadonlyMap<string, WorkRecord>;
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

// Records and maps are immutable (kinds/groupState.ts): an unchanged map encodes to the same rows
// and an unchanged record to the same row, so a batch re-encodes only the WorkItems it changed.
const rowOfRecord = new WeakMap<WorkRecord, AggregateRow>();
const rowsOfMap = new WeakMap<ReadonlyMap<string, WorkRecord>, readonly AggregateRow[]>();

function rowOf(record: WorkRecord): AggregateRow {
  let row = rowOfRecord.get(record);
  if (row === undefined) {
    row = { type: 'work-item', id: record.workItemId, revision: record.revision, document: toJson(workItemDocument(record)) };
    rowOfRecord.set(record, row);
  }
  return row;
}

/** WorkItems stored as their documents, extensions and all, as before the typed fields. */
const WORK_ITEMS: SliceCodec<Pick<WorkSlice, 'workItems'>> = {
  rowTypes: ['work-item'],
  initialState: () => ({ workItems: new Map() }),
  encode(slice) {
    const known = rowsOfMap.get(slice.workItems);
    if (known !== undefined) return known;
    const rows = [...slice.workItems.values()].map(rowOf);
    rowsOfMap.set(slice.workItems, rows);
    return rows;
  },
  decode(rows) {
    const workItems = new Map<string, WorkRecord>();
    for (const stored of rows) workItems.set(stored.id, workRecordOf(fromJson<WorkItem>(stored.document)));
    return { workItems };
  },
};

export const WORK_SLICE: SliceCodec<WorkSlice> = joinCodecs(
  joinCodecs(
    WORK_ITEMS,
    mapCodec<'proposals', WorkProposal>('proposals', 'work-proposal', (p) => ({ id: p.proposalId, revision: p.revision })),
  ),
  mapCodec<'delegationGrants', DelegationGrant>('delegationGrants', 'delegation-grant', (g) => ({ id: g.grantId, revision: g.revision })),
);
