/**
 * The policy module's slice of Group state (§20): Cooperation Override Grants, stored as rows,
 * and the rate windows, derived and never stored (`rateWindows.ts`): a load from rows starts them
 * empty and the app rebuilds them from the Group's recent Events.
 */

import { mapCodec, type SliceCodec } from '../kinds/domainModule.js';
import { grantRevision, type CooperationOverrideGrant } from './overrideGrants.js';
import type { RateWindow } from './rateWindows.js';

export interface PolicySlice {
  /** Cooperation Override Grants by grant ID (§20), consumed and lapsed ones included. */
  readonly cooperationGrants: ReadonlyMap<string, CooperationOverrideGrant>;
  /** Recent rate-counted Events per actor and policy (§20), derived: see `rateWindows.ts`. */
  readonly rateWindows: ReadonlyMap<string, RateWindow>;
}

declare module '../kinds/groupState.js' {
  // The slice joins GroupState (declaration merging); the interface adds nothing else.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GroupState extends PolicySlice {}
}

const grants = mapCodec<'cooperationGrants', CooperationOverrideGrant>('cooperationGrants', 'cooperation-override-grant', (g) => ({
  id: g.id,
  revision: grantRevision(g),
}));

export const POLICY_SLICE: SliceCodec<PolicySlice> = {
  rowTypes: grants.rowTypes,
  initialState: () => ({ cooperationGrants: new Map(), rateWindows: new Map() }),
  encode: (slice) => grants.encode(slice),
  decode: (rows, groupId) => ({ cooperationGrants: grants.decode(rows, groupId).cooperationGrants, rateWindows: new Map() }),
};
