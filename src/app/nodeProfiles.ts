/**
 * The Extension Profiles this node's code implements (§18) — Parley v1 and disput v0 — and their
 * profile documents. A Group may pin only a registered profile, and registration verifies an
 * Organization approval, so the node registers its own code profiles once, approved by the
 * Registry service (an Organization service may approve, `extensionProfiles.ts`): an operator
 * then only pins Parley at `mission.create`. Idempotent: a major already registered (by this
 * node or by `missionweave profile add`) is left as it is.
 */

import { disputProfile } from '../domain/disput/disputProfile.js';
import { parleyProfile } from '../domain/parley/parleyProfile.js';
import type { AnyExtensionProfile } from '../domain/kinds/profile.js';
import { sha256ContentHash } from '../protocol/contentHash.js';
import { canonicalize } from '../protocol/jcs.js';
import { signDocument, type SigningKey } from '../protocol/signing/signDocument.js';
import type { Principal } from '../protocol/principal.js';
import { formatTimestamp } from '../protocol/timestamp.js';
import type { Pool } from '../store/pool.js';
import { listProfiles, majorOf, registerProfile, type ProfileRegistration } from './extensionProfiles.js';
import type { GroupAuthority } from './groupAuthority.js';
import { PROFILE_SCHEMA_BASE, profileSchemaDocuments } from './profiles.js';

export interface CodeProfile {
  readonly profile: AnyExtensionProfile;
  readonly name: string;
  /** The semantic version of the document; its major is the code's `majorVersion`. */
  readonly version: string;
}

export interface ProfileApprover {
  readonly principal: Principal;
  readonly key: SigningKey;
}

/** What `serve` runs: the code profiles every Group of this node may pin. */
export const NODE_PROFILES: readonly CodeProfile[] = [
  { profile: parleyProfile, name: 'Parley v1', version: '1.0.0' },
  // The seed is a v0 draft: major 0, which a Group pins as `majorVersion: 0`.
  { profile: disputProfile, name: 'disput v0', version: '0.1.0' },
];

export const NODE_CODE_PROFILES: readonly AnyExtensionProfile[] = NODE_PROFILES.map((entry) => entry.profile);

/**
 * The signed `extension-profile` document of a code profile: its kinds, and as its schema the
 * payload schemas this node compiles for them (`schemaHash` is the SHA-256 of their JCS text).
 */
export function codeProfileDocument(entry: CodeProfile, approver: ProfileApprover, approvedAt: string): Record<string, unknown> {
  const { profile } = entry;
  const schemas = profileSchemaDocuments([profile]).map((document) => document.schema);
  const unsigned = {
    profileUri: profile.uri,
    name: entry.name,
    version: entry.version,
    schemaUri: `${PROFILE_SCHEMA_BASE}${profile.namespace.slice(0, -1)}.schema.json`,
    schemaHash: sha256ContentHash(canonicalize(schemas)),
    requiredCapabilities: [],
    critical: true,
    commandKinds: profile.kinds.map((kind) => kind.kind),
    eventKinds: [...new Set(profile.kinds.flatMap((kind) => kind.events.map((event) => event.kind)))],
    overridesCoreInvariants: false,
    approvedBy: { ...approver.principal },
    approvedAt,
  };
  return signDocument('extension-profile', unsigned, approver.key);
}

/** Registers each code profile whose major is not registered yet; returns what was registered. */
export async function registerNodeProfiles(authority: GroupAuthority, pool: Pool, approver: ProfileApprover): Promise<ProfileRegistration[]> {
  const outcomes: ProfileRegistration[] = [];
  for (const entry of NODE_PROFILES) {
    const registered = await listProfiles(pool, entry.profile.uri);
    if (registered.some((row) => row.majorVersion === majorOf(entry.version))) continue;
    const now = formatTimestamp(authority.clock.nowMillis());
    const outcome = await registerProfile({ pool, authority, codeProfiles: NODE_CODE_PROFILES }, Buffer.from(JSON.stringify(codeProfileDocument(entry, approver, now)), 'utf8'));
    if (outcome.ok) {
      outcomes.push(outcome);
      continue;
    }
    // Two nodes of one folder starting at once each sign a document; the first stored stands.
    const raced = await listProfiles(pool, entry.profile.uri);
    if (!raced.some((row) => row.majorVersion === majorOf(entry.version))) {
      throw new Error(`registering ${entry.profile.uri} failed: ${outcome.error.code} ${outcome.error.message}`);
    }
  }
  return outcomes;
}
