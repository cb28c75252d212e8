/**
 * Possession of Artifact content (§4.9, §13.3: "Group content MUST NOT enter another Mission's
 * context by default"). A content hash names bytes the Organization stores once, whoever uploaded
 * them; knowing a hash is not holding the bytes. A publisher holds a content when
 *
 * - it uploaded the bytes itself (the store hashed its body, even when the hash was already
 *   stored: `heldBy`), or
 * - it may read a Group that published them, by the read rule of that Group's Events (an active
 *   Membership whose visibility reaches the publishing Event): the content is already in its
 *   context there. Publishing it in another Mission is then an explicit cross-Mission reuse, and
 *   the `artifact.published` Event names the source publication so that it is audited (§13.3
 *   "Cross-Group forwarding requires permission checks and an auditable Event").
 *
 * Anything else is answered exactly as content that is not stored, so a publisher learns nothing
 * of what other Missions store.
 */

import { refuse, type ContentPublicationFacts, type Refusal, type StoredContentFacts } from '../model.js';
import { decideRead } from '../readAccess.js';
import { ARTIFACT_REASONS } from './artifactReasons.js';

/** The publication a cross-Mission reuse cites: its Group and `artifact.published` Event. */
export interface ReusedFrom {
  readonly groupId: string;
  readonly eventId: string;
}

/** How a publisher holds a content: its own upload, or a publication it may read (`source`). */
export interface Possession {
  readonly source?: ContentPublicationFacts;
}

/** What content not stored and content the publisher does not hold are both told. */
export function contentNotHeld(contentHash: string): Refusal {
  return refuse('INVALID_COMMAND', ARTIFACT_REASONS.artifactContentNotStored, 'upload the complete content before publishing its manifest', { contentHash });
}

/** Whether `agentId` may read the publication: the read rule of the publishing Group's Events. */
function reads(publication: ContentPublicationFacts, agentId: string): boolean {
  const decision = decideRead(publication.memberships.get(agentId), { purpose: 'recheck' });
  return decision.allowed && publication.publishedSequence > decision.afterSequence;
}

/**
 * How `agentId` holds `stored`, publishing it in `groupId`; undefined when it does not. Its own
 * upload comes first (no reuse to record); otherwise the first readable publication of another
 * Group, in Group ID order.
 */
export function possessionOf(stored: StoredContentFacts, agentId: string, groupId: string): Possession | undefined {
  if (stored.heldBy?.has(agentId) === true) return {};
  const source = stored.publications?.find((publication) => publication.groupId !== groupId && reads(publication, agentId));
  return source === undefined ? undefined : { source };
}

export function reusedFromOf(possession: Possession): ReusedFrom | undefined {
  return possession.source === undefined ? undefined : { groupId: possession.source.groupId, eventId: possession.source.eventId };
}
