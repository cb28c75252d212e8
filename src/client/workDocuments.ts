/**
 * WorkItems as the Worker and Coordinator helpers read them from Events (§10, §11.3, §15.2):
 * every WorkItem Event carries the WorkItem whole after its transition, so one Event answers
 * "who owns it, under which Ownership Epoch, under which leases" without any other. The
 * Command payloads and the WorkItem and Lease documents are the generated schema types
 * (protocol/schemas/), shared with the server; the Event payloads, which have no schema, are
 * written here with the members the helpers read. The Group Authority keeps its ownership and
 * Execution Leases in a non-critical WorkItem extension (`WORK_LEASES_EXTENSION`);
 * `workLeasesOf` reads it.
 */

import type { MissionWeaveEvidence, WorkOfferPayload } from '../protocol/schemas/payloadTypes.js';
import type { MissionWeaveFencedLease, MissionWeaveWorkItem } from '../protocol/schemas/wireTypes.js';
import type { GroupEvent, JsonObject } from './documents.js';

export type {
  ExtMissionweaveprotocolCoreWorkExecutionLeaseRenewPayload as WorkLeaseRenewPayload,
  MissionWeaveEvidence as Evidence,
  MissionWeaveWorkContract as WorkContract,
  WorkAcceptOfferPayload,
  WorkAcceptResultPayload,
  WorkAuthorizePayload,
  WorkCancelPayload,
  WorkCheckpointPayload,
  WorkFailPayload,
  WorkOfferPayload,
  WorkStartPayload,
  WorkSubmitPayload,
} from '../protocol/schemas/payloadTypes.js';

export type SelectionBasis = WorkOfferPayload['selectionBasis'];

/** The §11.3 lease renewal Command (an Organization-owned reference kind, §15.2). */
export const LEASE_RENEW_KIND = 'ext.missionweaveprotocol.core.work_execution_lease_renew';
/** Where the Group Authority keeps a WorkItem's leases. */
export const WORK_LEASES_EXTENSION = 'urn:missionweave:extension:work-leases';

export type WorkItemState = WorkItemDocument['state'];

/** A Lease document (§11.3) as Events carry it: lease.schema.json's generated type. */
export type WorkLease = Readonly<MissionWeaveFencedLease>;

/** The WorkItem's owner (§10.3). */
export type WorkOwner = NonNullable<WorkItemDocument['owner']>;

/** A WorkItem document (§10): work-item.schema.json's generated type. */
export type WorkItemDocument = Readonly<MissionWeaveWorkItem>;

/** The ownership and Execution Leases a WorkItem is under right now. */
export type WorkLeases = {
  readonly ownership?: WorkLease;
  readonly execution?: WorkLease;
};

/** Payload members of the WorkItem Events the helpers act on (§15.2). */
export type WorkOfferCreated = {
  readonly workItemId: string;
  readonly workItem: WorkItemDocument;
  readonly candidateAgentIds: string[];
  readonly offerExpiresAt: string;
  readonly selectionBasis: SelectionBasis;
};

export type WorkOfferAccepted = {
  readonly workItemId: string;
  readonly workItem: WorkItemDocument;
  readonly assigneeId: string;
  readonly ownershipEpoch: number;
  readonly ownershipLeaseExpiresAt: string;
  readonly ownershipLease: WorkLease;
};

/** `work.started` and `work.progressed` (a renewal) carry the Execution Lease as it now stands. */
export type WorkLeaseGranted = {
  readonly workItemId: string;
  readonly workItem: WorkItemDocument;
  readonly ownershipEpoch: number;
  readonly executionLease: WorkLease;
  readonly executionLeaseExpiresAt: string;
};

/** The WorkItem a WorkItem Event carries, if it carries one. */
export function workItemOf(event: GroupEvent): WorkItemDocument | undefined {
  const workItem = event.payload['workItem'];
  if (typeof workItem !== 'object' || workItem === null || Array.isArray(workItem)) return undefined;
  const document = workItem as WorkItemDocument;
  return typeof document.workItemId === 'string' && typeof document.state === 'string' ? document : undefined;
}

/** The leases recorded on a WorkItem (none when the Group Authority records none). */
export function workLeasesOf(workItem: WorkItemDocument): WorkLeases {
  const data = workItem.extensions?.[WORK_LEASES_EXTENSION]?.data;
  if (typeof data !== 'object' || data === null) return {};
  const { ownership, execution } = data as WorkLeases;
  return { ...(ownership === undefined ? {} : { ownership }), ...(execution === undefined ? {} : { execution }) };
}

/** An Event's payload as `T` when it is of `kind` (the Group Authority signed it; nothing is re-validated). */
export function payloadOf<T extends Readonly<JsonObject>>(event: GroupEvent, kind: string): T | undefined {
  return event.kind === kind ? (event.payload as T) : undefined;
}

/** Evidence as the helpers build it before signing: the WorkItem and signer fill in the rest. */
export type EvidenceDraft = Pick<MissionWeaveEvidence, 'type' | 'criterionIds' | 'method' | 'result'> &
  Partial<Pick<MissionWeaveEvidence, 'subject' | 'artifactHashes' | 'details' | 'toolVersion' | 'modelVersion' | 'evidenceId'>>;
