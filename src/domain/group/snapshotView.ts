/**
 * What of a Group's state a Membership with limited visibility may restore from a snapshot (§8,
 * §16): "A late-joining Worker MUST NOT automatically receive unrestricted history. It receives
 * the Context Package, relevant Conversation and Artifact references, and only history allowed
 * by its Membership." A whole-Group snapshot is the state every Event produced; the view keeps:
 *
 * - the Group, the Mission (its decisions and approvals), the Coordinator leases: who governs
 *   the Group is what a member acts under, and no Conversation content;
 * - the member's own Membership, not the others';
 * - the Conversations it may read (Group-wide ones, restricted ones naming it, §9) and the
 *   WorkItems whose Conversation is one of them;
 * - the Messages of those Conversations last written at or after its visibility start and never
 *   amended (an amended row holds the original content, which may predate the visibility, and a
 *   redacted one must not be served at all, §7.4);
 * - the published Artifacts' references (§8 names them).
 *
 * Work Proposals, Delegation Grants and Extension Profile slices stay out: they are planning and
 * authority records of other actors, retrievable on demand where the Membership allows.
 */

import { samePrincipal, type Principal } from '../../protocol/principal.js';
import type { Conversation, Membership, WorkItem } from '../documents.js';
import type { MessageFacts } from '../conversation/conversationSlice.js';

export interface SnapshotViewer {
  readonly principal: Principal;
  readonly membershipId: string;
  /** The first sequence the Membership may see. */
  readonly visibilityStartSequence: number;
}

/** A stored aggregate with the sequence of the Event that last wrote it. */
export interface ViewableRow {
  readonly type: string;
  readonly id: string;
  readonly document: unknown;
  readonly updatedSequence: number;
}

const GOVERNING: ReadonlySet<string> = new Set(['group', 'mission', 'coordinator-lease', 'artifact']);

function readableConversation(conversation: Conversation, viewer: SnapshotViewer): boolean {
  return conversation.access.mode !== 'restricted' || (conversation.access.members ?? []).some((m) => samePrincipal(m, viewer.principal));
}

/** The rows of `rows` the viewer may restore, in their given order. */
export function rowsVisibleTo<R extends ViewableRow>(rows: readonly R[], viewer: SnapshotViewer): R[] {
  const readable = new Set(
    rows.filter((r) => r.type === 'conversation' && readableConversation(r.document as Conversation, viewer)).map((r) => r.id),
  );
  return rows.filter((row) => {
    if (GOVERNING.has(row.type)) return true;
    switch (row.type) {
      case 'membership':
        return row.id === viewer.membershipId && samePrincipal((row.document as Membership).member, viewer.principal);
      case 'conversation':
        return readable.has(row.id);
      case 'work-item':
        return readable.has((row.document as WorkItem).conversationId);
      case 'message': {
        const facts = row.document as MessageFacts;
        return facts.status === 'posted' && row.updatedSequence >= viewer.visibilityStartSequence && readable.has(facts.message.conversationId);
      }
      default:
        return false;
    }
  });
}
