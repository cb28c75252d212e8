/**
 * Folds one recorded Group Event into the Group's state, from the Event alone. It returns new
 * objects for exactly what the Event changed and shares everything else, so the app can keep the
 * previous state when a commit fails and tell changed aggregates by identity.
 *
 * An Event it cannot fold is corrupt history, not a refusal: it throws.
 */

import { principalKey } from '../../protocol/principal.js';
import { fromJson, type Message } from '../documents.js';
import type { RecordedEvent } from '../model.js';
import {
  isGroupEventKind,
  type ApprovedPayload,
  type ChangesRequestedPayload,
  type ChildCreatedPayload,
  type CoordinatorAssignedPayload,
  type CoordinatorRenewedPayload,
  type MembershipChangedPayload,
  type MembershipEndedPayload,
  type MessageAmendedPayload,
  type MessagePostedPayload,
  type MissionClosedPayload,
  type MissionCreatedPayload,
  type SubmittedPayload,
  type WorkAuthorizedPayload,
} from './events.js';
import { withEntry, type GroupState, type MessageFacts, type MessageStatus } from './groupState.js';

function founded(payload: MissionCreatedPayload, sequence: number): GroupState {
  return {
    groupId: payload.group.groupId,
    lastSequence: sequence,
    group: payload.group,
    mission: payload.mission,
    missionNotes: { title: payload.title, permissions: payload.permissions },
    coordinatorLease: payload.coordinatorLease,
    formerCoordinatorLeases: new Map(),
    memberships: new Map(payload.memberships.map((m) => [principalKey(m.member), m])),
    conversations: new Map([[payload.conversation.conversationId, payload.conversation]]),
    messages: new Map(),
    workItems: new Map(),
  };
}

/**
 * A Message Event: its Conversation advances one revision, the Message is added, and an
 * amendment moves its target to `targetStatus`.
 */
function withMessage(state: GroupState, message: Message, targetStatus?: MessageStatus): GroupState {
  const conversation = state.conversations.get(message.conversationId);
  if (conversation === undefined) throw new Error(`Message ${message.messageId} names an unknown Conversation`);
  let messages = withEntry<MessageFacts>(state.messages, message.messageId, { message, status: 'posted' });
  const target = message.targetMessageId === undefined ? undefined : state.messages.get(message.targetMessageId);
  // A partial view that did not load the target has no row of it to change.
  if (target !== undefined && targetStatus !== undefined) {
    messages = withEntry(messages, target.message.messageId, { ...target, status: targetStatus });
  }
  return {
    ...state,
    conversations: withEntry(state.conversations, conversation.conversationId, { ...conversation, revision: conversation.revision + 1 }),
    messages,
  };
}

export function evolveGroup(state: GroupState | null, event: RecordedEvent): GroupState {
  const { kind, sequence } = event;
  if (sequence === undefined) throw new Error(`Group Event ${event.eventId} has no sequence`);
  if (!isGroupEventKind(kind)) throw new Error(`unknown Group Event kind ${kind}`);
  if (kind === 'mission.created' || kind === 'mission.follow_up.created') {
    if (state !== null) throw new Error(`${kind} in the existing Group ${state.groupId}`);
    return founded(fromJson<MissionCreatedPayload>(event.payload), sequence);
  }
  if (state === null) throw new Error(`${kind} before the Group was created`);
  const current: GroupState = { ...state, lastSequence: sequence };
  switch (kind) {
    case 'mission.child.created': {
      const { workItem } = fromJson<ChildCreatedPayload>(event.payload);
      return { ...current, workItems: withEntry(current.workItems, workItem.workItemId, workItem) };
    }
    case 'mission.coordinator.assigned': {
      const payload = fromJson<CoordinatorAssignedPayload>(event.payload);
      const memberships = new Map(current.memberships);
      for (const m of payload.memberships) memberships.set(principalKey(m.member), m);
      const previous = payload.previousCoordinatorLease;
      return {
        ...current,
        mission: payload.mission,
        coordinatorLease: payload.coordinatorLease,
        formerCoordinatorLeases: withEntry(current.formerCoordinatorLeases, previous.leaseId, previous),
        memberships,
      };
    }
    case 'mission.coordinator.renewed':
      return { ...current, coordinatorLease: fromJson<CoordinatorRenewedPayload>(event.payload).coordinatorLease };
    case 'mission.submitted_for_approval': {
      const { missionRevision, artifactHashes, mission } = fromJson<SubmittedPayload>(event.payload);
      const submission = { missionRevision, artifactHashes, submittedAt: event.occurredAt };
      return { ...current, mission, missionNotes: { ...current.missionNotes, submission } };
    }
    case 'mission.changes_requested': {
      const { submission: _answered, ...notes } = current.missionNotes;
      return { ...current, mission: fromJson<ChangesRequestedPayload>(event.payload).mission, missionNotes: notes };
    }
    case 'mission.approved': {
      const { approval, mission, coordinatorLease } = fromJson<ApprovedPayload>(event.payload);
      return { ...current, mission, coordinatorLease, missionNotes: { ...current.missionNotes, approval } };
    }
    case 'mission.cancelled':
    case 'mission.terminated': {
      const { mission, coordinatorLease, workItems } = fromJson<MissionClosedPayload>(event.payload);
      let items = current.workItems;
      for (const item of workItems) items = withEntry(items, item.workItemId, item);
      return { ...current, mission, coordinatorLease, workItems: items };
    }
    case 'membership.changed':
    case 'membership.ended': {
      const { membership } = fromJson<MembershipChangedPayload | MembershipEndedPayload>(event.payload);
      return { ...current, memberships: withEntry(current.memberships, principalKey(membership.member), membership) };
    }
    case 'message.posted':
      return withMessage(current, fromJson<MessagePostedPayload>(event.payload).message);
    case 'message.corrected':
      return withMessage(current, fromJson<MessageAmendedPayload>(event.payload).amendment, 'corrected');
    case 'message.retracted':
      return withMessage(current, fromJson<MessageAmendedPayload>(event.payload).amendment, 'retracted');
    case 'message.redacted':
      return withMessage(current, fromJson<MessageAmendedPayload>(event.payload).amendment, 'redacted');
    case 'work.authorized': {
      const { workItem, conversation } = fromJson<WorkAuthorizedPayload>(event.payload);
      return {
        ...current,
        workItems: withEntry(current.workItems, workItem.workItemId, workItem),
        conversations: withEntry(current.conversations, conversation.conversationId, conversation),
      };
    }
    default: {
      const _exhaustive: never = kind;
      throw new Error(`unhandled Group Event kind ${String(_exhaustive)}`);
    }
  }
}
