/**
 * A WorkItem as the work slice keeps it: the normative WorkItem document, with the state the
 * Group Authority keeps for it beyond what the WorkItem schema promises (its leases, …) as typed
 * fields. On the wire and in the store that state travels as non-critical extensions of the
 * WorkItem (`urn:missionweave:extension:…`), which the reference runtime's agents and every stored
 * Event and row carry; the conversion happens only at these edges: `workRecordOf` when a document
 * enters the slice (an Event's evolve, a stored row), `workItemDocument` when one leaves it (an
 * Event payload, a view, a stored row). The two are inverse: a document read and written back is
 * the same JSON value.
 */

import { fromJson, toJson, type Extension, type Principal, type WorkContract, type WorkItem, type WorkItemDocument, type WorkRecordFieldName } from '../documents.js';
import type { DecisionContext } from '../model.js';
import type { JsonValue } from '../../protocol/strictJson.js';
import { WORK_LEASES_EXTENSION, WORK_LEASES_VERSION, type WorkLeases } from './workLeases.js';
import { RESOURCE_USAGE_EXTENSION, RESOURCE_USAGE_VERSION, type UsageAccount } from './usageAccount.js';
import { WORK_LINKS_EXTENSION, WORK_LINKS_VERSION, type WorkItemLinks } from './workItemDocuments.js';
import { CAPABILITY_GRANTS_EXTENSION, CAPABILITY_GRANTS_VERSION, type GrantsData } from './capabilityGrants.js';
import { EXECUTION_APPROVALS_EXTENSION, EXECUTION_APPROVALS_VERSION, type ExecutionApproval } from './executionApprovals.js';
import { CLEANUP_EXTENSION, CLEANUP_VERSION, type CleanupMark } from './workCleanup.js';

/** What the record keeps as typed fields; each is `undefined` while its extension is absent. */
export interface WorkRecordFields {
  /** The leases the WorkItem runs under (`workLeases.ts`). */
  readonly leases: WorkLeases | undefined;
  /** Its budget account: usage, child budget, budget pause (`usageAccount.ts`). */
  readonly account: UsageAccount | undefined;
  /** Its parent WorkItem, Delegation Grant and child Mission (`workItemDocuments.ts`). */
  readonly links: WorkItemLinks | undefined;
  /** The capability grants it holds (`capabilityGrants.ts`). */
  readonly capabilityGrants: GrantsData | undefined;
  /** The Execution Approvals it holds (`executionApprovals.ts`). */
  readonly approvals: readonly ExecutionApproval[] | undefined;
  /** The cleanup a cancellation left due (`workCleanup.ts`). */
  readonly cleanup: CleanupMark | undefined;
}

/** A WorkItem of the work slice: the document with its extensions of ours as typed fields. */
export interface WorkRecord extends WorkItem, WorkRecordFields {}

export type { WorkItemDocument };

// Every typed field is named in documents.ts, so that a record is never a WorkItemDocument.
const FIELD_NAMES_COMPLETE: Exclude<keyof WorkRecordFields, WorkRecordFieldName> extends never ? true : false = true;
void FIELD_NAMES_COMPLETE;

/** A record's typed fields, none of them present: a WorkItem that carries no extension of ours. */
export const NO_RECORD_FIELDS: WorkRecordFields = {
  leases: undefined,
  account: undefined,
  links: undefined,
  capabilityGrants: undefined,
  approvals: undefined,
  cleanup: undefined,
};

interface FieldCodec {
  readonly uri: string;
  readonly version: string;
  read(data: JsonValue, fields: WorkRecordFields): WorkRecordFields;
  /** The extension data of the field, or undefined when the field is absent. */
  write(fields: WorkRecordFields): JsonValue | undefined;
}

const FIELD_CODECS: readonly FieldCodec[] = [
  {
    uri: WORK_LEASES_EXTENSION,
    version: WORK_LEASES_VERSION,
    read: (data, fields) => ({ ...fields, leases: fromJson<WorkLeases>(data) }),
    write: (fields) => (fields.leases === undefined ? undefined : toJson(fields.leases)),
  },
  {
    uri: RESOURCE_USAGE_EXTENSION,
    version: RESOURCE_USAGE_VERSION,
    read: (data, fields) => ({ ...fields, account: fromJson<UsageAccount>(data) }),
    write: (fields) => (fields.account === undefined ? undefined : toJson(fields.account)),
  },
  {
    uri: WORK_LINKS_EXTENSION,
    version: WORK_LINKS_VERSION,
    read: (data, fields) => ({ ...fields, links: fromJson<WorkItemLinks>(data) }),
    write: (fields) => (fields.links === undefined ? undefined : toJson(fields.links)),
  },
  {
    uri: CAPABILITY_GRANTS_EXTENSION,
    version: CAPABILITY_GRANTS_VERSION,
    read: (data, fields) => ({ ...fields, capabilityGrants: fromJson<GrantsData>(data) }),
    write: (fields) => (fields.capabilityGrants === undefined ? undefined : toJson(fields.capabilityGrants)),
  },
  {
    // The extension holds `{ approvals }`, the field the list.
    uri: EXECUTION_APPROVALS_EXTENSION,
    version: EXECUTION_APPROVALS_VERSION,
    read: (data, fields) => ({ ...fields, approvals: fromJson<{ readonly approvals: readonly ExecutionApproval[] }>(data).approvals }),
    write: (fields) => (fields.approvals === undefined ? undefined : toJson({ approvals: fields.approvals })),
  },
  {
    uri: CLEANUP_EXTENSION,
    version: CLEANUP_VERSION,
    read: (data, fields) => ({ ...fields, cleanup: fromJson<CleanupMark>(data) }),
    write: (fields) => (fields.cleanup === undefined ? undefined : toJson(fields.cleanup)),
  },
];

/** The record of a WorkItem document: its extensions of ours become typed fields. */
export function workRecordOf(document: WorkItemDocument): WorkRecord {
  const { extensions, ...members } = document;
  if (extensions === undefined) return { ...members, ...NO_RECORD_FIELDS };
  const others: Record<string, Extension> = { ...extensions };
  let fields = NO_RECORD_FIELDS;
  for (const codec of FIELD_CODECS) {
    const extension = others[codec.uri];
    if (extension === undefined) continue;
    delete others[codec.uri];
    fields = codec.read(extension.data, fields);
  }
  return { ...members, extensions: others, ...fields };
}

/** The WorkItem document of a record: its typed fields become our extensions again. */
export function workItemDocument(record: WorkRecord): WorkItemDocument {
  const { leases, account, links, capabilityGrants, approvals, cleanup, extensions, ...members } = record;
  const fields: WorkRecordFields = { leases, account, links, capabilityGrants, approvals, cleanup };
  const ours: Record<string, Extension> = {};
  for (const codec of FIELD_CODECS) {
    const data = codec.write(fields);
    if (data !== undefined) ours[codec.uri] = { version: codec.version, critical: false, data };
  }
  if (extensions === undefined && Object.keys(ours).length === 0) return members;
  return { ...members, extensions: { ...extensions, ...ours } };
}

export interface NewWorkItem {
  readonly workItemId: string;
  readonly missionId: string;
  readonly groupId: string;
  readonly conversationId: string;
  readonly contract: WorkContract;
  readonly exclusive: boolean;
  readonly parentWorkItemId?: string;
  readonly delegationGrantId?: string;
  /** Who wrote the contract when it is not the authorizer: a Work Proposal's proposer (§10.2). */
  readonly createdBy?: Principal;
}

/** A new `open` WorkItem (§10.2 `work.authorize`), linked to its parent and Delegation Grant. */
export function newWorkItem(spec: NewWorkItem, actor: Principal, ctx: DecisionContext): WorkRecord {
  const author = { type: actor.type, id: actor.id };
  const creator = spec.createdBy === undefined ? author : { type: spec.createdBy.type, id: spec.createdBy.id };
  const workItem: WorkItem = {
    workItemId: spec.workItemId,
    missionId: spec.missionId,
    groupId: spec.groupId,
    conversationId: spec.conversationId,
    revision: 1,
    state: 'open',
    exclusive: spec.exclusive,
    contract: spec.contract,
    createdBy: creator,
    authorizedBy: author,
    createdAt: ctx.now,
  };
  const links: WorkItemLinks = {
    ...(spec.parentWorkItemId === undefined ? {} : { parentWorkItemId: spec.parentWorkItemId }),
    ...(spec.delegationGrantId === undefined ? {} : { delegationGrantId: spec.delegationGrantId }),
  };
  return { ...workItem, ...NO_RECORD_FIELDS, ...(Object.keys(links).length === 0 ? {} : { links }) };
}
