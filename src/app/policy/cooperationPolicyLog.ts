/**
 * The Policy Log records of accepted cooperation decisions (§20): "Both issuance and consumption
 * MUST be appended to the authoritative Policy Log, with consumption linked to the accepted
 * Event". They are derived from the batch's own Events and written in the batch's transaction, so
 * a record exists exactly when its Event does; a batch without such Events writes nothing more.
 */

import { COOPERATION_OVERRIDE_CONSUMED, cooperationOverrideGranted, type CooperationOverrideConsumedPayload, type CooperationOverrideGrantedPayload } from '../../domain/policy/policyEvents.js';
import { policyGrantCooperationOverride } from '../../domain/policy/policyGrantCooperationOverride.js';
import type { Principal } from '../../protocol/principal.js';
import type { JsonObject } from '../../protocol/strictJson.js';
import type { EventRow } from '../../store/sql/events.js';
import type { PolicyLogRow } from '../../store/sql/policyLog.js';
import { newUrn } from '../eventFactory.js';

const GRANTED = cooperationOverrideGranted.kind;

/** The stage of these records: not a verification stage, the decision they record. */
export const COOPERATION_OVERRIDE_STAGE = 'cooperation-override';

interface SignedEvent {
  readonly actor: Principal;
  readonly cause: { readonly id: string };
  readonly payload: JsonObject;
}

function recordOf(row: EventRow, reason: 'granted' | 'consumed', claimedKind: string, eventId: string, details: JsonObject, event: SignedEvent): PolicyLogRow {
  return {
    entryId: newUrn(),
    occurredAt: row.trustedAcceptedAt,
    lastOccurredAt: row.trustedAcceptedAt,
    occurrences: 1,
    stage: COOPERATION_OVERRIDE_STAGE,
    reason,
    code: 'accepted',
    transport: 'authority',
    address: null,
    claimedActorType: event.actor.type,
    claimedActorId: event.actor.id,
    claimedKeyId: null,
    claimedActionId: event.cause.id,
    claimedKind: claimedKind,
    claimedGroupId: row.groupId,
    signingHash: row.signingHash,
    eventId,
    details,
  };
}

/** One record per grant issued or consumed among `events` (signed rows of one batch). */
export function cooperationPolicyLogRows(events: readonly EventRow[]): PolicyLogRow[] {
  const rows: PolicyLogRow[] = [];
  for (const row of events) {
    if (row.kind !== GRANTED && row.kind !== COOPERATION_OVERRIDE_CONSUMED) continue;
    const event = JSON.parse(row.document) as SignedEvent;
    if (row.kind === GRANTED) {
      const grant = (event.payload as unknown as CooperationOverrideGrantedPayload).cooperationOverrideGrant;
      const details = {
        grantId: grant.id,
        missionId: grant.missionId,
        policyName: grant.policyName,
        beneficiary: { ...grant.beneficiary },
        targetCommandKind: grant.targetCommandKind,
        targetActionId: grant.targetActionId,
        expiresAt: grant.expiresAt,
      };
      rows.push(recordOf(row, 'granted', policyGrantCooperationOverride.kind, row.eventId, details, event));
    } else {
      const consumed = event.payload as unknown as CooperationOverrideConsumedPayload;
      const details = { grantId: consumed.grantId, policyName: consumed.policyName, targetCommandKind: consumed.targetCommandKind, targetActionId: consumed.targetActionId, consumedEventId: consumed.consumedEventId, consumptionEventId: row.eventId };
      rows.push(recordOf(row, 'consumed', consumed.targetCommandKind, consumed.consumedEventId, details, event));
    }
  }
  return rows;
}

/** An accepted decision as a Group Snapshot's Policy Log entry. */
export function decisionEntry(row: PolicyLogRow): JsonObject {
  return {
    entryId: row.entryId,
    decision: `cooperation override ${row.reason}`,
    actor: { type: row.claimedActorType ?? 'service', id: row.claimedActorId ?? '' },
    occurredAt: row.occurredAt,
    details: { ...(row.details ?? {}), ...(row.eventId === null || row.eventId === undefined ? {} : { eventId: row.eventId }) },
  };
}
