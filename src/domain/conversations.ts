/**
 * Building a normative Conversation (§9): the Group's own, created with its Mission, and a
 * WorkItem's, created when the WorkItem is authorized. The mission, work and conversation modules
 * all build one, so the builder sits below them.
 */

import type { Conversation, Principal } from './documents.js';
import type { DecisionContext } from './model.js';

interface GroupRef {
  readonly missionId: string;
  readonly groupId: string;
}

/** The schema caps a Conversation title at 500 characters (code points, as JSON Schema counts). */
const TITLE_LIMIT = 500;

function titleOf(text: string): string {
  const codePoints = [...text];
  return codePoints.length <= TITLE_LIMIT ? text : `${codePoints.slice(0, TITLE_LIMIT - 1).join('')}…`;
}

export function newConversation(
  group: GroupRef,
  conversationId: string,
  kind: { readonly type: 'group' } | { readonly type: 'work_item'; readonly workItemId: string },
  title: string,
  createdBy: Principal,
  ctx: DecisionContext,
): Conversation {
  return {
    conversationId,
    missionId: group.missionId,
    groupId: group.groupId,
    type: kind.type,
    ...(kind.type === 'work_item' ? { primaryWorkItemId: kind.workItemId } : {}),
    title: titleOf(title),
    access: { mode: 'group' },
    createdBy: { type: createdBy.type, id: createdBy.id },
    createdAt: ctx.now,
    state: 'active',
    revision: 0,
  };
}
