/**
 * The mission module's slice of Group state: the Mission's normative document, what the protocol
 * keeps about it outside that document (its notes), and the Coordinator leases: the current one
 * and the closed ones of earlier Coordinator Epochs.
 */

import { fromJson, toJson, type Approval, type Lease, type Mission } from '../documents.js';
import type { SliceCodec } from '../kinds/domainModule.js';
import type { JsonObject } from '../../protocol/strictJson.js';

/** What the protocol keeps about a Mission outside its normative document. */
export interface MissionNotes {
  readonly title: string;
  /** Operations the Mission may authorize; a child's are a subset (§14). */
  readonly permissions: readonly string[];
  /** The revision and Artifact set awaiting approval (§7.3); cleared by a change request. */
  readonly submission?: {
    readonly missionRevision: number;
    readonly artifactHashes: readonly string[];
    readonly submittedAt: string;
  };
  readonly approval?: Approval;
  /** Why a cancelled or failed Mission ended: a parent reads it as the child's failure (§14). */
  readonly closureReason?: string;
}

export interface MissionSlice {
  readonly mission: Mission;
  readonly missionNotes: MissionNotes;
  /** The current Coordinator lease (`leaseType: coordinator`). */
  readonly coordinatorLease: Lease;
  /**
   * The closed leases of earlier Coordinator Epochs, by lease ID: one per replacement. Kept so
   * that their stored rows say they are closed rather than staying `active` forever.
   */
  readonly formerCoordinatorLeases: ReadonlyMap<string, Lease>;
}

declare module '../kinds/groupState.js' {
  // The slice joins GroupState (declaration merging); the interface adds nothing else.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GroupState extends MissionSlice {}
}

/** A lease starts at revision 1 and each renewal adds one (docs/transitions.md). */
export function leaseRevision(lease: Lease): number {
  return lease.renewalCount + 1;
}

/**
 * The stored `{ mission, notes }` document, the same object while neither part changed: states
 * are immutable, so `changedAggregates` compares rows by identity first and serializes only
 * rows whose object changed (the other rows are the state's own objects already).
 */
const missionDocuments = new WeakMap<Mission, { readonly notes: MissionNotes; readonly document: JsonObject }>();
function missionDocument(mission: Mission, notes: MissionNotes): JsonObject {
  const known = missionDocuments.get(mission);
  if (known !== undefined && known.notes === notes) return known.document;
  const document = toJson({ mission, notes });
  missionDocuments.set(mission, { notes, document });
  return document;
}

function leaseRow(lease: Lease) {
  return { type: 'coordinator-lease', id: lease.leaseId, revision: leaseRevision(lease), document: toJson(lease) };
}

export const MISSION_SLICE: SliceCodec<MissionSlice> = {
  rowTypes: ['mission', 'coordinator-lease'],
  encode: (slice) => [
    { type: 'mission', id: slice.mission.missionId, revision: slice.mission.revision, document: missionDocument(slice.mission, slice.missionNotes) },
    leaseRow(slice.coordinatorLease),
    ...[...slice.formerCoordinatorLeases.values()].map(leaseRow),
  ],
  decode(rows, groupId) {
    const missionDocument = rows.filter((row) => row.type === 'mission').at(-1)?.document;
    const leases = rows.filter((row) => row.type === 'coordinator-lease').map((row) => fromJson<Lease>(row.document));
    const missionRow = missionDocument === undefined ? undefined : fromJson<{ mission: Mission; notes: MissionNotes }>(missionDocument);
    const currentLeaseId = missionRow?.mission.coordinator.leaseId;
    const coordinatorLease = leases.find((lease) => lease.leaseId === currentLeaseId);
    if (missionRow === undefined || coordinatorLease === undefined) {
      throw new Error(`Group ${groupId}: the group, mission and current coordinator-lease rows are required`);
    }
    return {
      mission: missionRow.mission,
      missionNotes: missionRow.notes,
      coordinatorLease,
      formerCoordinatorLeases: new Map(leases.filter((l) => l !== coordinatorLease).map((l) => [l.leaseId, l])),
    };
  },
};
