/** The membership module: who is in the Group and in which role (§8). */

import { membershipChange } from './membershipChange.js';
import { membershipEnd } from './membershipEnd.js';
import { MEMBERSHIP_SLICE } from './membershipSlice.js';
import { defineModule } from '../kinds/domainModule.js';

export const MEMBERSHIP_MODULE = defineModule({
  key: 'membership',
  slice: MEMBERSHIP_SLICE,
  kinds: [
    membershipChange,
    membershipEnd,
  ],
});
