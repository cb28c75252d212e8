/**
 * What each core Group Event's payload carries (docs/transitions.md); each Event type is declared
 * with its evolve function in its kind's module. Payloads hold full normative documents so that
 * evolve rebuilds state from Events alone.
 */

import type {
  Approval,
  Conversation,
  Group,
  Lease,
  Membership,
  Message,
  Mission,
  Principal,
  WorkItemDocument,
} from './documents.js';

/** `mission.created` / `mission.follow_up.created`: sequence 1 of a new Group. */
export interface MissionCreatedPayload {
  readonly mission: Mission;
  readonly group: Group;
  readonly conversation: Conversation;
  readonly memberships: readonly Membership[];
  readonly coordinatorLease: Lease;
  readonly title: string;
  readonly permissions: readonly string[];
  /** `null` for a plain `mission.create`; absent in a child Group. */
  readonly followUpOfMissionId?: string | null;
  /** The parent Group's `mission.child.created` (child Groups only). */
  readonly parentEventId?: string;
}

export interface ChildCreatedPayload {
  readonly parentMissionId: string;
  readonly parentWorkItemId: string;
  readonly childMissionId: string;
  readonly childGroupId: string;
  readonly workItem: WorkItemDocument;
  /** The Parent Coordinator's `blocked` lease on the parent WorkItem, to the child deadline. */
  readonly ownershipLease: Lease;
  /** The earlier owner's leases the promotion revoked (§10.2: ownership is fenced). */
  readonly revokedLeases: readonly Lease[];
}

export interface CoordinatorAssignedPayload {
  readonly previousCoordinatorId: string;
  readonly coordinatorId: string;
  readonly coordinatorEpoch: number;
  readonly leaseExpiresAt: string;
  readonly coordinatorLease: Lease;
  /** The replaced lease, closed: `revoked`, or `expired` when it had run out. */
  readonly previousCoordinatorLease: Lease;
  readonly memberships: readonly Membership[];
  readonly mission: Mission;
}

export interface CoordinatorRenewedPayload {
  readonly coordinatorEpoch: number;
  readonly leaseExpiresAt: string;
  readonly coordinatorLease: Lease;
}

export interface SubmittedPayload {
  readonly missionRevision: number;
  readonly artifactHashes: readonly string[];
  readonly mission: Mission;
}

export interface ChangesRequestedPayload {
  readonly missionRevision: number;
  readonly feedback: string;
  readonly mission: Mission;
}

export interface ApprovedPayload {
  readonly approval: Approval;
  readonly mission: Mission;
  readonly coordinatorLease: Lease;
}

/** `mission.cancelled` and `mission.terminated`. */
export interface MissionClosedPayload {
  readonly reason: string;
  readonly mission: Mission;
  readonly coordinatorLease: Lease;
  /** The Mission's unfinished WorkItems, closed with it (§10.2 last row). */
  readonly workItems: readonly WorkItemDocument[];
}

export interface MembershipChangedPayload {
  readonly membership: Membership;
}

export interface MembershipEndedPayload {
  readonly principal: Principal;
  readonly membership: Membership;
}

export interface MessagePostedPayload {
  readonly message: Message;
}

/** `message.corrected`, `message.retracted`, `message.redacted`. */
export interface MessageAmendedPayload {
  readonly amendment: Message;
}

export interface WorkAuthorizedPayload {
  readonly workItem: WorkItemDocument;
  readonly conversation: Conversation;
  readonly proposalId: string | null;
}
