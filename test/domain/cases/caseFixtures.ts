/**
 * What several kinds' accepted cases share (`<kind>.case.ts` beside this file): the ids the
 * decider mints, the Message the amendments act on, the child Mission's payload, a Mission closed
 * with its open work, and the definition of done no WorkItem supports yet.
 */

import type { GroupState } from '../../../src/domain/kinds/groupState.js';
import type { Principal } from '../../../src/protocol/principal.js';
import { CHILD_GROUP, CHILD_MISSION, COORD2, GROUP, MAIN, MISSION, T0, WORK } from '../fixtures.js';
import { workItemIn } from '../workDocuments.js';

/** The prefix of the ids the decider mints in the cases (`${ID}1`, `${ID}2`, …). */
export const ID = 'urn:test:id:when-';

/** The Message of the busy Group that the amendment cases correct, retract or redact. */
export const M1 = 'urn:missionweave:message:m-1';

/** The example definition of done, supported by no WorkItem criterion of the busy Group. */
export const NO_SUPPORT = ['ledger-parity', 'owner-sign-off'].map((criterionId) => ({ criterionId, workItemCount: 0, workItemIds: [] }));

/** Plain text as one text part of a Message's content. */
export const text = (words: string) => [{ type: 'text', text: words }];

/** A Message or amendment in the main Conversation, committed now. */
export function message(messageId: string, author: Principal, kind: string, content: object[], amends?: { reason: string }) {
  const common = { messageId, missionId: MISSION, groupId: GROUP, conversationId: MAIN, author, kind, authority: false };
  return amends === undefined
    ? { ...common, content, committedAt: T0 }
    : { ...common, targetMessageId: M1, content, reason: amends.reason, committedAt: T0 };
}

/** A child Mission promoting w1, as the Coordinator creates it. */
export const CHILD_PAYLOAD = {
  missionId: CHILD_MISSION,
  groupId: CHILD_GROUP,
  parentWorkItemId: WORK,
  coordinatorId: COORD2.id,
  title: 'Child',
  objective: 'A part of the work.',
  definitionOfDone: [{ criterionId: 'c1', description: 'done', evidenceRequired: ['human_review'] }],
  budget: { currency: 'EUR', financialLimit: 10 },
  deadline: '2026-09-10T00:00:00Z',
};

/** The Mission closed with its lease revoked and its open WorkItem w1 closed too. */
export function closed(s: GroupState, kind: string, reason: string, missionState: string, workState: string, closureReason: string) {
  return [
    {
      kind,
      payload: {
        reason,
        mission: { ...s.mission, state: missionState, revision: s.mission.revision + 1 },
        coordinatorLease: { ...s.coordinatorLease, state: 'revoked', closedAt: T0, closureReason },
        workItems: [{ ...workItemIn(s, WORK), state: workState, revision: 2, updatedAt: T0 }],
      },
    },
  ];
}
