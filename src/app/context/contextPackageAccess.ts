/**
 * Reading Context Packages back (§13.3, §8): a package is for its recipient alone, read with the
 * session token of a live session, while the recipient holds a current Membership of the Group
 * (provisional included: a candidate needs its package before it is activated, §8 step 2).
 * Refusals follow the Group read rule (`../../domain/readAccess.ts`): a stranger is told exactly
 * what a missing Group gets, and a package addressed to someone else is worded as one that does
 * not exist, so neither tells which packages exist.
 */

import { UNDISCLOSED } from '../../domain/readAccess.js';
import type { Pool } from '../../store/pool.js';
import { listContextPackages, readContextPackage, type StoredContextPackage } from '../../store/sql/contextPackages.js';
import { readMembership } from '../../store/sql/memberships.js';
import { wireError, type WireError } from '../wireError.js';

/**
 * Packages one listing returns, newest first. A recipient gets one per Membership Epoch or
 * Coordinator Epoch, so 20 covers every recent change; older ones stay readable by ID.
 */
export const MAX_LISTED_CONTEXT_PACKAGES = 20;

export type ContextPackageRead = { readonly ok: true; readonly body: string } | { readonly ok: false; readonly error: WireError };

const NO_SUCH_PACKAGE = 'no such Context Package';

async function checkMember(pool: Pool, groupId: string, agentId: string): Promise<WireError | undefined> {
  const membership = await readMembership(pool, groupId, 'agent', agentId);
  if (membership === undefined) return wireError('GROUP_NOT_FOUND', UNDISCLOSED.subscribe, { groupId });
  if (membership.state === 'ended') return wireError('MEMBERSHIP_REQUIRED', 'the Membership ended', { groupId });
  return undefined;
}

/** The signed package `contextPackageId`, as stored, for its recipient. */
export async function readContextPackageFor(pool: Pool, groupId: string, agentId: string, contextPackageId: string): Promise<ContextPackageRead> {
  const refused = await checkMember(pool, groupId, agentId);
  if (refused !== undefined) return { ok: false, error: refused };
  const stored = await readContextPackage(pool, groupId, contextPackageId);
  if (stored === undefined || stored.recipient.type !== 'agent' || stored.recipient.id !== agentId) {
    return { ok: false, error: wireError('GROUP_NOT_FOUND', NO_SUCH_PACKAGE, { groupId }) };
  }
  return { ok: true, body: stored.document };
}

function listed(p: StoredContextPackage): Record<string, unknown> {
  return { contextPackageId: p.contextPackageId, version: p.version, scope: p.scopeKey, packageHash: p.packageHash, createdAt: p.createdAt };
}

/** The recipient's newest packages in the Group: `{"contextPackages": [...]}`. */
export async function listContextPackagesFor(pool: Pool, groupId: string, agentId: string): Promise<ContextPackageRead> {
  const refused = await checkMember(pool, groupId, agentId);
  if (refused !== undefined) return { ok: false, error: refused };
  const packages = await listContextPackages(pool, groupId, { type: 'agent', id: agentId }, MAX_LISTED_CONTEXT_PACKAGES);
  return { ok: true, body: JSON.stringify({ contextPackages: packages.map(listed) }) };
}
