/** The membership module's slice of Group state: one Membership per Principal (§8). */

import { principalKey } from '../../protocol/principal.js';
import type { Membership } from '../documents.js';
import { mapCodec, type SliceCodec } from '../kinds/domainModule.js';

export interface MembershipSlice {
  /** By `principalKey(member)`: one Membership per Principal. */
  readonly memberships: ReadonlyMap<string, Membership>;
}

declare module '../kinds/groupState.js' {
  // The slice joins GroupState (declaration merging); the interface adds nothing else.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GroupState extends MembershipSlice {}
}

export const MEMBERSHIP_SLICE: SliceCodec<MembershipSlice> = mapCodec<'memberships', Membership>(
  'memberships',
  'membership',
  (m) => ({ id: m.membershipId, revision: m.membershipEpoch }),
  (m) => principalKey(m.member),
);
