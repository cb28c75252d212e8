/**
 * A reader's standing in a Group, as the one read rule (`decideRead`, §8) judges it: its own
 * Membership there — or, for a human, ownership of an ancestor Mission. §14: "The root
 * MissionOwner MUST be able to inspect the complete Mission tree", and a child Mission's owner is
 * the Parent Coordinator, so the root human holds no Membership below its own Group. A human who
 * is the MissionOwner of an ancestor Mission, holding its active `mission_owner` Membership there,
 * reads a descendant Group as a member with complete visibility would: Events, view, stream,
 * Mission tree and Artifacts. Agents read through their own Memberships only (§4.9: cross-Group
 * disclosure is explicit), so a Parent Coordinator sees its child, not the grandchild.
 */

import type { ReadableMembership } from '../domain/readAccess.js';
import type { Principal } from '../protocol/principal.js';
import type { Queryable } from '../store/pool.js';
import { readMembership } from '../store/sql/memberships.js';
import { readAncestorGroups } from '../store/sql/ancestorGroups.js';
import { readGroupTrees } from '../store/sql/groupTrees.js';
import { readOwnedAncestor, type OwnedAncestor } from '../store/sql/ownedAncestors.js';
import { MAX_OWNER_ANCESTRY } from './limits.js';

export interface ReaderStanding extends ReadableMembership {
  /** The reader's Membership here, or its `mission_owner` Membership in the ancestor it reads through. */
  readonly membershipId: string;
  /** The ancestor Mission the reader owns, when it reads through that rather than a Membership here. */
  readonly via?: OwnedAncestor;
}

/** The standing of a human who owns `ancestor`: complete visibility (§8: a MissionOwner's Membership has it). */
export function ownerStanding(ancestor: OwnedAncestor): ReaderStanding {
  return { membershipId: ancestor.membershipId, state: 'active', visibilityStartSequence: 0, via: ancestor };
}

/**
 * The ancestor a human reader owns, when its own Membership (`own`) does not already show it the
 * whole Group; the reads are skipped for Agents and for full members.
 */
export async function ownedAncestorOf(db: Queryable, groupId: string, reader: Principal, own: ReadableMembership | undefined): Promise<OwnedAncestor | undefined> {
  if (reader.type !== 'human' || (own?.state === 'active' && own.visibilityStartSequence <= 1)) return undefined;
  const { ancestors } = await readAncestorGroups(db, groupId, MAX_OWNER_ANCESTRY);
  if (ancestors.length === 0) return undefined;
  // Every ancestor is in the Group's own tree (migration 0021): the read names it.
  const tree = (await readGroupTrees(db, [groupId])).get(groupId);
  return tree === undefined ? undefined : readOwnedAncestor(db, tree.treeId, ancestors, reader);
}

/** The standing `decideRead` judges for `reader` in `groupId`; undefined for a stranger. */
export async function readReaderStanding(db: Queryable, groupId: string, reader: Principal): Promise<ReaderStanding | undefined> {
  const own = await readMembership(db, groupId, reader.type, reader.id);
  const ancestor = await ownedAncestorOf(db, groupId, reader, own);
  return ancestor === undefined ? own : ownerStanding(ancestor);
}
